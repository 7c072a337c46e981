import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: what a provider's API would see. */
export type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string };

/**
 * A local HTTP endpoint on 127.0.0.1 standing in for a provider's API (email, SMS): records every request and
 * answers with the status the test sets (`respondWith`), 200 by default.
 */
export async function startHttpReceiver() {
  const received: ReceivedRequest[] = [];
  let status = 200;
  let answer = '{}';
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    respondWith(nextStatus: number, body = '{}') {
      status = nextStatus;
      answer = body;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
