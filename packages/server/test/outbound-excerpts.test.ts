import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { DomainError } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauth2Social } from '../src/services/connectors/social.ts';
import { allowAllOutbound, OUTBOUND_LIMITS, outboundFetch } from '../src/services/outbound.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 39, "no foreign server's answer beyond a short excerpt reaches an API client": each feature is pointed at a
 * server (allowed, as in OSS) that puts a long text wherever that feature passes words of the answer on — an error
 * body, an SMTP reply, a document that does not parse, an OAuth error code — and the API's answer may hold at most
 * an excerpt of it (OUTBOUND_LIMITS.excerptChars). Webhook attempts keep 512 characters (hooks-outbound.test.ts);
 * a custom JWT script's fetch answers go to the script, which decides what its claims hold.
 */
const WORD = 'LEAKED';
const foreign = WORD.repeat(2_000);
/** The longest unbroken run of the foreign text in `text` (the run is cut anywhere, so count characters). */
const longestRun = (text: string) =>
  Math.max(0, ...(text.match(new RegExp(`(?:${WORD})+`, 'g')) ?? []).map((run) => run.length));
const limit = OUTBOUND_LIMITS.excerptChars;

let http: Server;
let httpBase: string;
let smtp: TcpServer;
let smtpPort: number;

beforeAll(async () => {
  http = createServer((request, response) => {
    request.resume();
    const path = request.url ?? '/';
    if (path.startsWith('/error-body')) {
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end(foreign);
    } else if (path.startsWith('/not-xml')) {
      response.writeHead(200, { 'Content-Type': 'application/xml' });
      response.end(`<EntityDescriptor entityID="${foreign}`);
    } else if (path.startsWith('/oauth-error')) {
      response.writeHead(400, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: foreign, error_description: foreign }));
    } else {
      // Discovery: an answer whose issuer is not the one asked for.
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ issuer: `https://${foreign}.example`, authorization_endpoint: foreign }));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpBase = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  // An SMTP server that greets, then refuses the sender with a very long reply.
  smtp = createTcpServer((socket) => {
    socket.write('220 foreign.test ESMTP\r\n');
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString();
      let end = buffered.indexOf('\r\n');
      while (end >= 0) {
        const line = buffered.slice(0, end).toUpperCase();
        buffered = buffered.slice(end + 2);
        if (line.startsWith('EHLO') || line.startsWith('HELO')) socket.write('250 foreign.test\r\n');
        else if (line.startsWith('MAIL')) socket.write(`550 ${foreign}\r\n`);
        else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
        end = buffered.indexOf('\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.address() as AddressInfo).port;
});
afterAll(() => {
  http.close();
  smtp.close();
});

describe('a foreign answer reaches an API client as an excerpt at most', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    [
      'an HTTP email connector test answered 500 with a long body',
      true,
      () =>
        t.call('/api/connectors/http-email/test', {
          method: 'POST',
          body: { email: 'probe@shop.test', config: { endpoint: `${httpBase}/error-body` } },
        }),
    ],
    [
      'an SMTP connector test refused with a long reply',
      true,
      () =>
        t.call('/api/connectors/smtp/test', {
          method: 'POST',
          body: {
            email: 'probe@shop.test',
            config: { host: '127.0.0.1', port: smtpPort, fromEmail: 'auth@shop.test' },
          },
        }),
    ],
    [
      'SAML metadata that does not parse',
      false,
      () =>
        t.call('/api/sso-connectors', {
          method: 'POST',
          body: { providerName: 'SAML', connectorName: 'Foreign', config: { metadataUrl: `${httpBase}/not-xml` } },
        }),
    ],
    [
      'OIDC discovery answering an OAuth error',
      false,
      () =>
        t.call('/api/sso-connectors', {
          method: 'POST',
          body: {
            providerName: 'OIDC',
            connectorName: 'Foreign',
            config: { issuer: `${httpBase}/oauth-error`, clientId: 'c', clientSecret: 's', scope: 'openid' },
          },
        }),
    ],
    [
      'OIDC discovery answering another issuer',
      false,
      () =>
        t.call('/api/sso-connectors', {
          method: 'POST',
          body: {
            providerName: 'OIDC',
            connectorName: 'Foreign',
            config: { issuer: `${httpBase}/other-issuer`, clientId: 'c', clientSecret: 's', scope: 'openid' },
          },
        }),
    ],
  ] as const)('%s (passes words of the answer on: %s)', async (_, carries, send) => {
    const result = await send();
    expect(result.status, result.text).toBeGreaterThanOrEqual(400);
    expect(result.status, result.text).toBeLessThan(500);
    // Where the feature quotes the answer, some of it is there (the cut, not the quoting, keeps it short); where it
    // does not (a parser's or a library's own words), none is.
    if (carries) expect(longestRun(result.text), 'the answer holds some of the foreign words').toBeGreaterThan(0);
    else expect(longestRun(result.text)).toBe(0);
    expect(longestRun(result.text), result.text.slice(0, 300)).toBeLessThanOrEqual(limit);
  });
});

/**
 * Social connectors' errors reach the 'me' API (linking an account, cloud) and the sign-in pages: the same service,
 * called here as those routes call it. (Their discovery is the SSO connectors' above: one `discover`.)
 */
describe("a social provider's error reaches its caller as an excerpt at most", () => {
  const ctx = { fetch: outboundFetch(allowAllOutbound), timeoutMs: 5_000 };
  const callback = {
    callbackUrl: new URL('https://gatehouse.test/callback?code=c&state=s'),
    codeVerifier: 'v'.repeat(43),
    state: 's',
    nonce: 'n',
  };
  const detailOf = async (work: () => Promise<unknown>) => {
    const error = await work().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(DomainError);
    return JSON.stringify((error as DomainError).data);
  };

  it.each([
    [
      'an OAuth 2.0 token endpoint answering a long error',
      () =>
        oauth2Social.profile(
          {
            authorizationEndpoint: 'https://idp.example/authorize',
            tokenEndpoint: `${httpBase}/oauth-error/token`,
            userInfoEndpoint: `${httpBase}/oauth-error/userinfo`,
            clientId: 'excerpt-oauth',
            clientSecret: 's',
          },
          callback,
          ctx,
        ),
    ],
  ])('%s', async (_, work) => {
    const detail = await detailOf(work);
    expect(longestRun(detail), 'the detail holds some of the foreign words').toBeGreaterThan(0);
    expect(longestRun(detail), detail.slice(0, 300)).toBeLessThanOrEqual(limit);
  });
});
