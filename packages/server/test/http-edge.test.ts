import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHttpServer } from './support/http-server.ts';

// What the HTTP server itself answers, before or beside the Hono app: requests Node cannot read, and the
// security headers of the OIDC issuers (which are served by oidc-provider, not by Hono).
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
beforeAll(async () => {
  server = await startTestHttpServer();
});
afterAll(() => server.close());

/** One raw request on its own connection; resolves with what the server wrote before closing. */
function rawRequest(text: string): Promise<string> {
  const { hostname, port } = new URL(server.base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('requests the server cannot read', () => {
  it('answers a 100 kB query string with 431 and {code, message}', async () => {
    const response = await fetch(`${server.base}/api/roles?search=${'a'.repeat(100_000)}`);
    expect(response.status).toBe(431);
    expect(response.headers.get('Content-Type')).toContain('application/json');
    expect(await response.json()).toEqual({
      code: 'request.header_too_large',
      message: "The request's headers or address are too large.",
    });
  });

  it('answers a broken request line with 400 and {code, message}', async () => {
    const answer = await rawRequest('NOT A REQUEST\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({
      code: 'request.malformed',
      message: 'The request is malformed and could not be read.',
    });
  });
});

describe('the OIDC issuers', () => {
  it('send HSTS and the other security headers, as the rest of the server does', async () => {
    for (const path of ['/oidc/.well-known/openid-configuration', '/api/status']) {
      const response = await fetch(`${server.base}${path}`);
      expect(response.headers.get('Strict-Transport-Security'), path).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
    }
  });
});
