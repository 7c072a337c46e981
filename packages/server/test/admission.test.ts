import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { admitInOrder } from '../src/http/admission.ts';

/** Request admission for the embedded database (http/admission.ts): a limit, first come first served. */

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(limit: number, handle: (path: string, finish: () => void) => void) {
  let running = 0;
  let most = 0;
  const order: string[] = [];
  server = createServer(
    admitInOrder((req, res) => {
      running += 1;
      most = Math.max(most, running);
      order.push(req.url ?? '');
      handle(req.url ?? '', () => {
        running -= 1;
        res.end('ok');
      });
    }, limit),
  );
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, order, most: () => most };
}

describe('admission in order', () => {
  it('runs at most `limit` requests at once and admits the rest in arrival order', async () => {
    const { base, order, most } = await serve(3, (_path, finish) => setTimeout(finish, 30));
    const paths = Array.from({ length: 12 }, (_, index) => `/r${index}`);
    const answers: Promise<string>[] = [];
    for (const path of paths) {
      answers.push(fetch(`${base}${path}`).then((response) => response.text()));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(await Promise.all(answers)).toEqual(paths.map(() => 'ok'));
    expect(most()).toBe(3);
    expect(order).toEqual(paths);
  });

  it('frees the place of a request whose client went away, and skips clients that left while waiting', async () => {
    const { base, order } = await serve(1, (path, finish) => {
      if (path !== '/hang') setTimeout(finish, 20);
    });
    const hanging = new AbortController();
    const hang = fetch(`${base}/hang`, { signal: hanging.signal }).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const waiting = new AbortController();
    const leaver = fetch(`${base}/left`, { signal: waiting.signal }).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const next = fetch(`${base}/next`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 20));
    waiting.abort();
    await new Promise((resolve) => setTimeout(resolve, 30));
    hanging.abort();
    expect(await hang).toBe('aborted');
    expect(await leaver).toBe('aborted');
    expect(await next).toBe('ok');
    expect(order).toEqual(['/hang', '/next']);
  });
});
