import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 39: every feature that sends a request to a URL a tenant typed, against every kind of address inside the
 * operator's network, in the cloud's policy (private addresses refused). A listener on the IPv4 and the IPv6 loopback
 * counts the connections and requests it is offered: a refused request must not reach it, not even on a redirect's second hop.
 */
type Listener = { server: Server; port: number; connections: number };

async function listen(host: string, handler: Parameters<typeof createServer>[1]): Promise<Listener | undefined> {
  const server = createServer(handler);
  const ready = new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, host, () => resolve(true));
  });
  if (!(await ready)) return undefined;
  const listener: Listener = { server, port: (server.address() as AddressInfo).port, connections: 0 };
  // Connections and requests both count: a kept-alive connection can carry a second request.
  server.on('connection', () => {
    listener.connections += 1;
  });
  server.on('request', () => {
    listener.connections += 1;
  });
  return listener;
}

const answer: Parameters<typeof createServer>[1] = (request, response) => {
  request.resume();
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.end('{"issuer":"internal","secret":"internal-answer"}');
};

let v4: Listener;
let v6: Listener | undefined;
let redirector: Listener;
const listeners = () => [v4, v6].filter((listener): listener is Listener => listener !== undefined);
const connections = () => listeners().reduce((sum, listener) => sum + listener.connections, 0);

beforeAll(async () => {
  const ipv4 = await listen('127.0.0.1', answer);
  if (!ipv4) throw new Error('no loopback listener');
  v4 = ipv4;
  v6 = await listen('::1', answer);
  const hop = await listen('127.0.0.1', (request, response) => {
    request.resume();
    response.writeHead(307, { Location: `http://127.0.0.1:${v4.port}/second-hop` });
    response.end();
  });
  if (!hop) throw new Error('no redirecting listener');
  redirector = hop;
});
afterAll(async () => {
  for (const listener of [v4, v6, redirector]) listener?.server.close();
});

/** The addresses: each a URL on a listener of ours (counted) or a range nobody listens on here (refused anyway). */
const targets: [string, () => string | undefined][] = [
  ['IPv4 loopback', () => `http://127.0.0.1:${v4.port}/probe`],
  ['IPv6 loopback', () => (v6 ? `http://[::1]:${v6.port}/probe` : undefined)],
  ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${v4.port}/probe`],
  ['a private range', () => 'http://10.0.0.1/probe'],
  ['link-local, the cloud metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
  ['a name resolving to a private address', () => `http://localhost:${v4.port}/probe`],
];

/** The features, each sending to `url` through the management API the way a tenant's admin would. */
const features: [string, (t: TestApp, url: string) => Promise<{ status: number; text: string }>][] = [
  [
    'a webhook test',
    async (t, url) => {
      const hook = await t.call('/api/hooks', {
        method: 'POST',
        body: { name: 'Probe', events: ['User.Created'], config: { url, retries: 0 } },
      });
      return t.call(`/api/hooks/${hook.json.id}/test`, { method: 'POST' });
    },
  ],
  [
    'an HTTP email connector test',
    (t, url) =>
      t.call('/api/connectors/http-email/test', {
        method: 'POST',
        body: { email: 'probe@shop.test', config: { endpoint: url } },
      }),
  ],
  [
    'an HTTP SMS connector test',
    (t, url) =>
      t.call('/api/connectors/http-sms/test', {
        method: 'POST',
        body: { phone: '+15555550100', config: { endpoint: url } },
      }),
  ],
  [
    'SAML metadata of an SSO connector',
    (t, url) =>
      t.call('/api/sso-connectors', {
        method: 'POST',
        body: { providerName: 'SAML', connectorName: 'Probe', config: { metadataUrl: url } },
      }),
  ],
  [
    'OIDC discovery of an SSO connector',
    (t, url) =>
      t.call('/api/sso-connectors', {
        method: 'POST',
        body: {
          providerName: 'OIDC',
          connectorName: 'Probe',
          config: { issuer: url, clientId: 'probe', clientSecret: 'probe-secret', scope: 'openid' },
        },
      }),
  ],
  [
    "a custom JWT script's fetch",
    (t, url) =>
      t.call('/api/configs/jwt-customizer/test', {
        method: 'POST',
        body: {
          tokenType: 'access-token',
          script: `const getCustomJwtClaims = async () => { const r = await fetch(${JSON.stringify(url)}); return { got: await r.text() }; };`,
          token: {},
        },
      }),
  ],
];

describe('outbound requests to private addresses in the cloud policy', () => {
  let t: TestApp;
  let viaRedirect: TestApp;
  beforeAll(async () => {
    // Scripts may fetch only origins the operator lists: every target's is listed, so the outbound policy is what
    // refuses them (not that list).
    const origins = [...targets.map(([, url]) => url()), `http://localhost:${redirector.port}`]
      .filter((url): url is string => url !== undefined)
      .map((url) => new URL(url).origin);
    const scriptFetch = { CUSTOM_JWT_FETCH_ALLOW_LIST: [...new Set(origins)].join(',') };
    t = await createTestApp({ OUTBOUND_PRIVATE_ADDRESSES: 'deny', ...scriptFetch });
    // The first hop's name is allowed (an operator's internal relay); its redirect to a literal private address is not.
    viaRedirect = await createTestApp({
      OUTBOUND_PRIVATE_ADDRESSES: 'deny',
      OUTBOUND_ALLOW_LIST: 'localhost',
      ...scriptFetch,
    });
  });
  afterAll(async () => {
    await t.close();
    await viaRedirect.close();
  });

  const cells = features.flatMap(([feature, send]) =>
    targets.map(([target, url]) => [feature, target, send, url] as const),
  );

  it.each(cells)('%s to %s is refused and connects to nothing', async (_feature, _target, send, url) => {
    const destination = url();
    if (!destination) return; // no IPv6 loopback on this machine: the IPv4 cells still run
    const before = connections();
    const result = await send(t, destination);
    expect(result.status, result.text).toBeGreaterThanOrEqual(400);
    expect(result.status, result.text).toBeLessThan(500);
    expect(result.text).not.toContain('internal-answer');
    expect(connections(), 'no connection reached a listener').toBe(before);
  });

  // A script's fetch never follows redirects (the script gets the 307); every other feature follows them.
  it.each(features)('%s through a redirect to a private address stops before the second hop', async (_, send) => {
    const before = connections();
    const hopsBefore = redirector.connections;
    const result = await send(viaRedirect, `http://localhost:${redirector.port}/first-hop`);
    expect(result.status, result.text).toBeLessThan(500);
    expect(result.text).not.toContain('internal-answer');
    expect(redirector.connections, 'the allowed first hop was reached').toBeGreaterThan(hopsBefore);
    expect(connections(), 'the private second hop was not').toBe(before);
  });
});

describe('an HTTP connector test that gets no answer (issue 39, item 7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A port nobody listens on: one that was free a moment ago. */
  const closedPort = async () => {
    const probe = await listen('127.0.0.1', answer);
    if (!probe) throw new Error('no listener');
    await new Promise((resolve) => probe.server.close(resolve));
    return `http://127.0.0.1:${probe.port}/send`;
  };

  it.each([
    ['a refused connection', closedPort, /ECONNREFUSED/],
    ['a name that does not resolve', async () => 'http://no-such-host.invalid/send', /ENOTFOUND|EAI_AGAIN|getaddrinfo/],
  ])('is a 400 connector.general saying why, not a 500: %s', async (_, endpoint, why) => {
    const result = await t.call('/api/connectors/http-email/test', {
      method: 'POST',
      body: { email: 'probe@shop.test', config: { endpoint: await endpoint() } },
    });
    expect(result.status, result.text).toBe(400);
    expect(result.json).toMatchObject({ code: 'connector.general', data: { detail: expect.stringMatching(why) } });
  });
});
