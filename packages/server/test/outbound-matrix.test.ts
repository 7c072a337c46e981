import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@gatehouse/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpStatus } from '../src/http/errors.ts';
import { verifyCaptcha } from '../src/services/captcha.ts';
import { oauth2Social, oidcSocial, type SocialContext } from '../src/services/connectors/social.ts';
import { allowAllOutbound, type OutboundPolicy, outboundFetch, outboundResolver } from '../src/services/outbound.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { startSmtpSink } from './support/smtp-sink.ts';

/**
 * Public-looking names that resolve to private addresses, the way an attacker's DNS zone would answer: every outbound
 * lookup goes through here while this file runs (the outbound client's and the SMTP connector's), other names as usual.
 * `idp.allowed.test` is an identity provider the operator allows (OUTBOUND_ALLOW_LIST), whose answers name private
 * addresses for the next request (a token or user-info endpoint).
 */
const fakeZone: Record<string, LookupAddress[]> = {
  'intranet.attacker.example': [{ address: '127.0.0.1', family: 4 }],
  'idp.allowed.test': [{ address: '127.0.0.1', family: 4 }],
};
type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
const realLookup = outboundResolver.lookup;
const hostileLookup = (hostname: string, options: unknown, callback?: Callback) => {
  const done = (typeof options === 'function' ? options : callback) as Callback;
  const opts = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean };
  const answer = fakeZone[hostname.toLowerCase()];
  if (!answer) return (realLookup as (...args: unknown[]) => void)(hostname, options, callback);
  const [first] = answer;
  process.nextTick(() => (opts.all ? done(null, answer) : done(null, first?.address ?? '', first?.family)));
};
beforeAll(() => {
  outboundResolver.lookup = hostileLookup as typeof realLookup;
});
afterAll(() => {
  outboundResolver.lookup = realLookup;
});

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
/** The allowed identity provider (not counted): discovery documents and tokens that name the address under test. */
let idp: Server;
let idpPort: number;
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
  idp = createServer((request, response) => {
    request.resume();
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    const [, kind = '', encoded = ''] = url.pathname.split('/');
    const target = decodeURIComponent(encoded);
    response.writeHead(200, { 'Content-Type': 'application/json' });
    if (kind === 'token') {
      response.end(JSON.stringify({ access_token: 'probe-access-token', token_type: 'Bearer' }));
      return;
    }
    // `/named/<target>/.well-known/openid-configuration`: a valid discovery document whose endpoints are the target.
    response.end(
      JSON.stringify({
        issuer: `http://${request.headers.host}/named/${encoded}`,
        authorization_endpoint: `http://${request.headers.host}/authorize`,
        token_endpoint: target,
        userinfo_endpoint: target,
        jwks_uri: target,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  idpPort = (idp.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const listener of [v4, v6, redirector]) listener?.server.close();
  idp.close();
});

/** The addresses: each a URL on a listener of ours (counted) or a range nobody listens on here (refused anyway). */
const targets: [string, () => string | undefined][] = [
  ['IPv4 loopback', () => `http://127.0.0.1:${v4.port}/probe`],
  ['IPv6 loopback', () => (v6 ? `http://[::1]:${v6.port}/probe` : undefined)],
  ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${v4.port}/probe`],
  ['a private range', () => 'http://10.0.0.1/probe'],
  ['link-local, the cloud metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
  ['a name resolving to a private address', () => `http://localhost:${v4.port}/probe`],
  ['a public name resolving to a private address', () => `http://intranet.attacker.example:${v4.port}/probe`],
];

type Result = { status: number; text: string };
/** The outbound policy's words, which every refusal passes on (to the API client, or to the log for a captcha). */
const refusal = /is in a private, loopback, link-local or reserved range/;
/** Where a feature runs: the app (for the API) and the outbound policy it was configured with (for the services). */
type Env = { app: TestApp; policy: OutboundPolicy };

/** A service's refusal as the API would answer it (connector errors are 400 `{code, data: {detail}}`). */
async function answerOf(work: () => Promise<unknown>): Promise<Result> {
  try {
    const value = await work();
    return { status: 200, text: JSON.stringify(value ?? null) };
  } catch (error) {
    if (error instanceof DomainError)
      return { status: httpStatus(error), text: JSON.stringify({ code: error.code, data: error.data }) };
    throw error;
  }
}
const social = (policy: OutboundPolicy): SocialContext => ({ fetch: outboundFetch(policy), timeoutMs: 5_000 });
const callback = {
  callbackUrl: new URL('https://gatehouse.test/callback?code=probe-code&state=probe-state'),
  codeVerifier: 'v'.repeat(43),
  state: 'probe-state',
  nonce: 'probe-nonce',
};
let clients = 0;
/** Discovery results are cached per issuer and client: each request gets a client of its own. */
const clientId = () => `probe-${++clients}`;

/**
 * The features, each sending to `url` the way the product does: through the management API as a tenant's admin
 * would, or (for what an end user's sign-in starts) through the service the sign-in pages call, with the app's policy.
 */
const features: [string, (env: Env, url: string) => Promise<Result>][] = [
  [
    'a webhook test',
    async ({ app: t }, url) => {
      const hook = await t.call('/api/hooks', {
        method: 'POST',
        body: { name: 'Probe', events: ['User.Created'], config: { url, retries: 0 } },
      });
      return t.call(`/api/hooks/${hook.json.id}/test`, { method: 'POST' });
    },
  ],
  [
    'an HTTP email connector test',
    ({ app: t }, url) =>
      t.call('/api/connectors/http-email/test', {
        method: 'POST',
        body: { email: 'probe@shop.test', config: { endpoint: url } },
      }),
  ],
  [
    'an HTTP SMS connector test',
    ({ app: t }, url) =>
      t.call('/api/connectors/http-sms/test', {
        method: 'POST',
        body: { phone: '+15555550100', config: { endpoint: url } },
      }),
  ],
  [
    'SAML metadata of an SSO connector',
    ({ app: t }, url) =>
      t.call('/api/sso-connectors', {
        method: 'POST',
        body: { providerName: 'SAML', connectorName: 'Probe', config: { metadataUrl: url } },
      }),
  ],
  [
    'OIDC discovery of an SSO connector',
    ({ app: t }, url) =>
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
    ({ app: t }, url) =>
      t.call('/api/configs/jwt-customizer/test', {
        method: 'POST',
        body: {
          tokenType: 'access-token',
          script: `const getCustomJwtClaims = async () => { const r = await fetch(${JSON.stringify(url)}); return { got: await r.text() }; };`,
          token: {},
        },
      }),
  ],
  [
    'an SMTP connector test',
    ({ app: t }, url) => {
      const { hostname, port } = new URL(url);
      return t.call('/api/connectors/smtp/test', {
        method: 'POST',
        body: {
          email: 'probe@shop.test',
          config: { host: hostname, port: Number(port || 25), fromEmail: 'auth@shop.test' },
        },
      });
    },
  ],
  [
    'OIDC discovery of a social connector',
    ({ policy }, url) =>
      answerOf(() =>
        oidcSocial.authorizationUrl(
          { issuer: url, clientId: clientId(), clientSecret: 'probe-secret' },
          { redirectUri: 'https://gatehouse.test/callback', state: 's', nonce: 'n', codeChallenge: 'c'.repeat(43) },
          social(policy),
        ),
      ),
  ],
  [
    "an OpenID Connect provider's token call (its discovery names the address)",
    ({ policy }, url) =>
      answerOf(() =>
        oidcSocial.profile(
          {
            issuer: `http://idp.allowed.test:${idpPort}/named/${encodeURIComponent(url)}`,
            clientId: clientId(),
            clientSecret: 'probe-secret',
          },
          callback,
          social(policy),
        ),
      ),
  ],
  [
    "an OAuth 2.0 social connector's token call",
    ({ policy }, url) =>
      answerOf(() =>
        oauth2Social.profile(
          {
            authorizationEndpoint: 'https://idp.example/authorize',
            tokenEndpoint: url,
            userInfoEndpoint: url,
            clientId: clientId(),
            clientSecret: 'probe-secret',
          },
          callback,
          social(policy),
        ),
      ),
  ],
  [
    "an OAuth 2.0 social connector's user-info call",
    ({ policy }, url) =>
      answerOf(() =>
        oauth2Social.profile(
          {
            authorizationEndpoint: 'https://idp.example/authorize',
            tokenEndpoint: `http://idp.allowed.test:${idpPort}/token`,
            userInfoEndpoint: url,
            clientId: clientId(),
            clientSecret: 'probe-secret',
          },
          callback,
          social(policy),
        ),
      ),
  ],
  [
    'a captcha check',
    async ({ policy }, url) => {
      // A failed check is a refusal for the user; why it failed goes to the log.
      const warnings: string[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
      const passed = await verifyCaptcha(
        { type: 'Turnstile', siteKey: 'probe-site', secretKey: 'probe-secret', verifyUrl: url },
        'probe-token',
        { outbound: policy, log },
      );
      return { status: passed ? 200 : 403, text: passed ? 'passed' : `refused: ${warnings.join(' ')}` };
    },
  ],
];
/** SMTP has no redirects; every other feature is also sent through one. */
const redirecting = features.filter(([feature]) => feature !== 'an SMTP connector test');

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
    // The identity provider the operator allows is a name: the addresses under test stay refused.
    t = await createTestApp({
      OUTBOUND_PRIVATE_ADDRESSES: 'deny',
      OUTBOUND_ALLOW_LIST: 'idp.allowed.test',
      ...scriptFetch,
    });
    // The first hop's name is allowed (an operator's internal relay); its redirect to a literal private address is not.
    viaRedirect = await createTestApp({
      OUTBOUND_PRIVATE_ADDRESSES: 'deny',
      OUTBOUND_ALLOW_LIST: 'localhost,idp.allowed.test',
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
    const result = await send({ app: t, policy: t.config.outbound }, destination);
    expect(result.status, result.text).toBeGreaterThanOrEqual(400);
    expect(result.status, result.text).toBeLessThan(500);
    expect(result.text).not.toContain('internal-answer');
    expect(result.text, 'the answer says the policy refused it').toMatch(refusal);
    expect(connections(), 'no connection reached a listener').toBe(before);
  });

  // A script's fetch never follows redirects (the script gets the 307); every other feature follows them.
  it.each(redirecting)('%s through a redirect to a private address stops before the second hop', async (_, send) => {
    const before = connections();
    const hopsBefore = redirector.connections;
    const result = await send(
      { app: viaRedirect, policy: viaRedirect.config.outbound },
      `http://localhost:${redirector.port}/first-hop`,
    );
    expect(result.status, result.text).toBeLessThan(500);
    expect(result.text).not.toContain('internal-answer');
    expect(redirector.connections, 'the allowed first hop was reached').toBeGreaterThan(hopsBefore);
    expect(connections(), 'the private second hop was not').toBe(before);
  });
});

describe('the same requests where private addresses are allowed (the OSS default)', () => {
  let oss: TestApp;
  beforeAll(async () => {
    oss = await createTestApp({
      CUSTOM_JWT_FETCH_ALLOW_LIST: `http://intranet.attacker.example:${v4.port}`,
    });
  });
  afterAll(() => oss.close());

  // The control of the matrix: each feature really sends, and the public name really resolves to the listener, so
  // what refused them above is the policy (not a feature that never sends, or a name that does not resolve).
  // SMTP in OSS leaves the name to nodemailer, which asks DNS servers itself (not the system's lookup): its control
  // sends to the literal address.
  it.each(features)('%s reaches the listener through a public name resolving to it', async (feature, send) => {
    if (feature === 'an SMTP connector test') {
      // An SMTP sink, not the HTTP listener: sent there, the test send waited 15 s for a greeting that never came.
      const sink = await startSmtpSink();
      try {
        await send({ app: oss, policy: allowAllOutbound }, `http://127.0.0.1:${new URL(sink.url).port}/probe`);
        expect(sink.received.map((email) => email.envelopeTo)).toEqual([['probe@shop.test']]);
      } finally {
        await sink.close();
      }
      return;
    }
    const before = v4.connections;
    await send({ app: oss, policy: allowAllOutbound }, `http://intranet.attacker.example:${v4.port}/probe`);
    expect(v4.connections).toBeGreaterThan(before);
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
