import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issuerUrl, ME_RESOURCE } from '../src/auth/issuers.ts';
import { jwsAlgorithmOf, SigningKeyStore } from '../src/auth/signing-keys.ts';
import type { Database } from '../src/db/client.ts';
import { applications, logs, users } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createApplication } from '../src/services/applications.ts';
import { createConnector } from '../src/services/connectors.ts';
import { handleSocialUrl } from '../src/services/me-social.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD } from '../src/services/passwords.ts';
import { patchSignInExperience } from '../src/services/sign-in-experience.ts';
import { socialCallbackUrl } from '../src/services/social-sign-in.ts';
import { createUser } from '../src/services/users.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { call as callApi, type Json } from './support/cloud-accounts.ts';
import type { CookieJar as SimpleJar } from './support/http-server.ts';
import { startTestHttpServer } from './support/http-server.ts';
import { nextHop } from './support/next-hop.ts';
import { consoleClient } from './support/oidc-flow.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';

/**
 * Issue 42: the cloud profile's linked accounts over HTTP. The email: a code to the new address (read from the SMTP
 * sink), then the change with that code and a proof of the password. Social identities: the admin tenant's generic
 * OpenID Connect connector with another Gatehouse issuer (the default tenant's) as the identity provider, linked
 * through the console's `/handle-social` address as the popup would be, refused for a second account, unlinked, and
 * used to sign in to the console. OSS has none of these routes.
 */

let base: string;
let db: Database;
let close: () => Promise<void>;
let sink: SmtpSink;
let keys: SigningKeyStore;

const connectorId = 'gatehouse-id';
const target = 'gatehouse';
const river = { username: 'river', password: 'River-Stone-42', email: 'river@idp.test' };
const stone = { username: 'stone', password: 'Stone-River-42', email: 'stone@idp.test' };
const alice = { id: 'aliceuser001', username: 'alice', password: 'Alice-Pass-4242', email: 'alice@example.com' };
const bob = { id: 'bobuser00001', username: 'bob', password: 'Bob-Pass-424242', email: 'bob@example.com' };
/** A console account made by a social sign-up: no password, one identity. */
const carol = { id: 'caroluser001', username: 'carol', email: 'carol@example.com' };

const admin = () => new TenantDb(db, ADMIN_TENANT_ID);
const system = (tenantId: string) => ({
  tenant: new TenantDb(db, tenantId),
  actor: { type: 'system' as const, id: 'test' },
});

/** A 'me' API token of a console account, signed with the admin tenant's stored key as its issuer signs them. */
async function meToken(userId: string): Promise<string> {
  const [jwk] = await keys.privateKeys(ADMIN_TENANT_ID);
  if (!jwk) throw new Error('no admin key');
  const alg = jwsAlgorithmOf(jwk);
  return new SignJWT({ scope: 'all' })
    .setProtectedHeader({ alg, kid: String(jwk.kid) })
    .setIssuer(issuerUrl(base, ADMIN_TENANT_ID))
    .setAudience(ME_RESOURCE)
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(await importJWK(jwk, alg));
}

type Call = { status: number; json: Json; headers: Headers };
/** A 'me' API request as `userId` (no token when undefined), with an optional Cookie header. */
async function asUser(
  userId: string | undefined,
  path: string,
  init: { method?: string; body?: unknown; rawBody?: string; cookie?: string } = {},
): Promise<Call> {
  const headers: Record<string, string> = {};
  if (userId) headers.Authorization = `Bearer ${await meToken(userId)}`;
  if (init.cookie) headers.Cookie = init.cookie;
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${base}/api/me${path}`, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Json, headers: response.headers };
}

async function passwordProof(userId: string, password: string): Promise<string> {
  const response = await asUser(userId, '/password/verify', { method: 'POST', body: { password } });
  expect(response.status).toBe(201);
  return response.json.verificationRecordId;
}

/** The code of the newest mail the sink received for `to` (its `count`-th). */
async function codeMailedTo(to: string, count = 1): Promise<string> {
  const mails = () => sink.received.filter((mail) => mail.envelopeTo.includes(to));
  await vi.waitFor(() => expect(mails().length).toBeGreaterThanOrEqual(count));
  return /\b(\d{6})\b/.exec(mails().at(-1)?.text ?? '')?.[1] ?? '';
}

/**
 * A browser's cookie jar with paths (RFC 6265 §5.1.4): the identity provider and the console's issuer are one origin
 * here, and their provider cookies have the same names on different paths.
 */
class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const { pathname } = new URL(url);
    const matching = [...this.#cookies.values()]
      .filter(
        (cookie) =>
          pathname === cookie.path || pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .sort((a, b) => b.path.length - a.path.length);
    const headers = new Headers(init.headers);
    if (matching.length) headers.set('Cookie', matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) || '/';
      const expired = attributes.some(
        (attribute) => /^max-age=0$/i.test(attribute) || /expires=Thu, 01 Jan 1970/i.test(attribute),
      );
      if (expired || value === '') this.#cookies.delete(`${name} ${path}`);
      else this.#cookies.set(`${name} ${path}`, { name, value, path });
    }
    return response;
  }
}

const absolute = (location: string) => new URL(location, base).toString();

/** Follows redirects until `stop` says the URL is the one wanted; answers that URL and the last response. */
async function follow(jar: CookieJar, response: Response, stop: (url: string) => boolean) {
  let current = response;
  for (let hops = 0; hops < 15; hops++) {
    const location = nextHop(current);
    if (!location) return { url: undefined, response: current };
    const next = absolute(location);
    if (stop(next)) return { url: next, response: current };
    current = await jar.fetch(next);
  }
  throw new Error('too many redirects');
}

/** Signs in at the identity provider (the default tenant's sign-in page) from `start`; answers where it returned. */
async function atIdentityProvider(
  jar: CookieJar,
  start: Response,
  returnTo: (url: string) => boolean,
  person: { username: string; password: string } = river,
) {
  const atIdp = await follow(jar, start, (next) => next.includes(`/interaction/${DEFAULT_TENANT_ID}/`));
  expect(atIdp.url, 'at the identity provider').toBeTruthy();
  const login = await jar.fetch(`${atIdp.url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ identifier: person.username, password: person.password }),
  });
  const back = await follow(jar, login, returnTo);
  expect(back.url, `back from the identity provider (status ${back.response.status})`).toBeTruthy();
  return new URL(back.url ?? '');
}

/**
 * The console's linking popup as `userId`: the authorization URI (its cookie kept), the provider's sign-in as
 * `person`, the landing page's query. Answers what `link-identity` needs.
 */
async function linkingAnswer(userId: string, person: { username: string; password: string } = river) {
  const start = await asUser(userId, '/social/authorization-uri', {
    method: 'POST',
    body: { connectorId, state: 'aB3dE6gH', redirectUri: handleSocialUrl(base) },
  });
  expect(start.status, JSON.stringify(start.json)).toBe(200);
  const cookie = start.headers.getSetCookie().find((line) => line.startsWith('gatehouse_me_social=')) ?? '';
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/Path=\/api\/me\/social/);
  const jar = new CookieJar();
  const landing = await atIdentityProvider(
    jar,
    await jar.fetch(start.json.redirectTo),
    (next) => next.startsWith(handleSocialUrl(base)),
    person,
  );
  expect(landing.searchParams.get('state')).toBe('aB3dE6gH');
  return {
    cookie: cookie.split(';')[0] ?? '',
    connectorData: { ...Object.fromEntries(landing.searchParams), redirectUri: handleSocialUrl(base) },
  };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  const server = await startTestHttpServer({
    EDITION: 'cloud',
    SMTP_URL: sink.url,
    EMAIL_FROM: 'Cloud <cloud@example.test>',
    // The identity provider is this same server, on a loopback address.
    OUTBOUND_PRIVATE_ADDRESSES: 'allow',
  });
  ({ base, close } = server);
  db = server.database.db;
  keys = new SigningKeyStore(new TenantDbs(db));
  for (const account of [alice, bob]) {
    await admin().insert(users, {
      id: account.id,
      username: account.username,
      primaryEmail: account.email,
      primaryEmailVerified: true,
      passwordEncrypted: await hashPassword(account.password),
      passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD,
    });
  }
  await admin().insert(users, {
    id: carol.id,
    username: carol.username,
    primaryEmail: carol.email,
    primaryEmailVerified: true,
    identities: { [target]: { userId: 'carol-at-idp', details: { email: 'carol@idp.test' } } },
  });
  // The identity provider: the default tenant's issuer, a web application for the console's connector, one user.
  const idpApp = await createApplication(
    system(DEFAULT_TENANT_ID),
    { edition: 'cloud' },
    {
      name: 'Console social login',
      type: 'Traditional',
      oidcClientMetadata: {
        redirectUris: [handleSocialUrl(base), socialCallbackUrl(base, ADMIN_TENANT_ID, connectorId)],
      },
    },
  );
  const [idpRow] = await new TenantDb(db, DEFAULT_TENANT_ID).findMany(applications, {
    where: eq(applications.id, idpApp.id),
  });
  for (const person of [river, stone]) {
    await createUser(system(DEFAULT_TENANT_ID), {
      username: person.username,
      primaryEmail: person.email,
      password: person.password,
    });
  }
  await createConnector(
    system(ADMIN_TENANT_ID),
    { edition: 'cloud' },
    {
      connectorId: 'oidc',
      id: connectorId,
      config: { issuer: `${base}/oidc`, clientId: idpApp.id, clientSecret: idpRow?.secret },
      metadata: { target, name: { en: 'Gatehouse ID', de: 'Gatehouse-ID' } },
    },
  );
}, 60_000);

afterAll(async () => {
  await sink?.close();
  await close?.();
});

/** Every new route with a well-formed body, for the checks every route passes. */
const routes = [
  { method: 'POST', path: '/email/link/verification-code', body: { email: 'new@example.com' } },
  { method: 'POST', path: '/email', body: { email: 'new@example.com', code: '123456' } },
  { method: 'GET', path: '/social/connectors' },
  {
    method: 'POST',
    path: '/social/authorization-uri',
    body: { connectorId, state: 'aB3dE6gH', redirectUri: 'http://localhost:3001/console/handle-social' },
  },
  {
    method: 'POST',
    path: '/social/link-identity',
    body: { connectorId, connectorData: { code: 'x', state: 'aB3dE6gH', redirectUri: 'http://x/' } },
  },
  { method: 'DELETE', path: `/social/identity/${connectorId}` },
] as const;

describe('every linked-accounts route', () => {
  it('answers 401 without a token', async () => {
    for (const route of routes) {
      const response = await asUser(undefined, route.path, route);
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
      expect(response.json.code).toBe('auth.unauthorized');
    }
  });

  it('answers 400 to malformed input', async () => {
    const malformed = [
      { method: 'POST', path: '/email/link/verification-code', body: { email: 'not an address' } },
      { method: 'POST', path: '/email/link/verification-code', body: { email: 'a@b.co', extra: 1 } },
      { method: 'POST', path: '/email', body: { email: 'new@example.com', code: '12' } },
      { method: 'POST', path: '/email', rawBody: '{"email":' },
      { method: 'POST', path: '/social/authorization-uri', body: { connectorId, state: 'short', redirectUri: 'x' } },
      { method: 'POST', path: '/social/authorization-uri', body: { connectorId: 'no spaces', state: 'aB3dE6gH' } },
      { method: 'POST', path: '/social/link-identity', body: { connectorId, connectorData: { code: 'x' } } },
      { method: 'POST', path: '/social/link-identity', body: { connectorId, connectorData: { redirectUri: 7 } } },
      { method: 'DELETE', path: '/social/identity/bad!id' },
    ] as const;
    for (const route of malformed) {
      const response = await asUser(alice.id, route.path, route);
      expect(response.status, `${route.method} ${route.path} ${JSON.stringify(route)}`).toBe(400);
      expect(response.json.code).toMatch(/^(guard\.invalid_input|request\.invalid_json)$/);
    }
  });

  it('does not exist in OSS (404 route.not_found), nor in its OpenAPI document', async () => {
    const oss: TestApp = await createTestApp();
    try {
      const token = await oss.token({ audience: ME_RESOURCE, subject: 'someone', scope: 'all' });
      for (const route of routes) {
        const response = await oss.call(`/api/me${route.path}`, {
          method: route.method,
          ...('body' in route ? { body: route.body } : {}),
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(response.status, `${route.method} ${route.path}`).toBe(404);
        expect(response.json.code).toBe('route.not_found');
      }
      const document = (await oss.call('/api/openapi.json', { auth: false })).json;
      expect(
        Object.keys(document.paths).filter((path) => /\/me\/(social|email\/link)|\/me\/email$/.test(path)),
      ).toEqual([]);
    } finally {
      await oss.close();
    }
    const cloudDocument = (await callApi(base, '/api/openapi.json', undefined)).json;
    expect(Object.keys(cloudDocument.paths)).toEqual(
      expect.arrayContaining(['/api/me/social/connectors', '/api/me/email', '/api/me/email/link/verification-code']),
    );
  });
});

describe('linking an email', () => {
  const newAddress = 'Alice.New@Example.com';

  it('sends a code to the new address and sets it, proven, with the code and a proof of the password', async () => {
    const sent = await asUser(alice.id, '/email/link/verification-code', {
      method: 'POST',
      body: { email: ` ${newAddress} ` },
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(204);
    const code = await codeMailedTo('alice.new@example.com');
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '111111' : '000000';

    const noProof = await asUser(alice.id, '/email', { method: 'POST', body: { email: newAddress, code } });
    expect(noProof.status).toBe(422);
    expect(noProof.json.code).toBe('verification_record.invalid');
    const proof = await passwordProof(alice.id, alice.password);
    const stale = await asUser(alice.id, '/email', {
      method: 'POST',
      body: { email: newAddress, code, verificationRecordId: `${proof}x` },
    });
    expect(stale.json.code).toBe('verification_record.invalid');

    const wrongCode = await asUser(alice.id, '/email', {
      method: 'POST',
      body: { email: newAddress, code: wrong, verificationRecordId: proof },
    });
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.json.code).toBe('verification_code.code_mismatch');
    const otherAddress = await asUser(alice.id, '/email', {
      method: 'POST',
      body: { email: 'someone.else@example.com', code, verificationRecordId: proof },
    });
    expect(otherAddress.json.code, 'the code proves the address it went to only').toBe(
      'verification_code.code_mismatch',
    );

    // Another account cannot use Alice's code, even for Alice's address.
    const bobProof = await passwordProof(bob.id, bob.password);
    const stolen = await asUser(bob.id, '/email', {
      method: 'POST',
      body: { email: newAddress, code, verificationRecordId: bobProof },
    });
    expect(stolen.status).toBe(422);
    expect(stolen.json.code).toBe('verification_code.code_mismatch');

    const changed = await asUser(alice.id, '/email', {
      method: 'POST',
      body: { email: newAddress, code, verificationRecordId: proof },
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json).toMatchObject({ id: alice.id, primaryEmail: newAddress, primaryEmailVerified: true });
    expect((await asUser(alice.id, '')).json).toMatchObject({ primaryEmail: newAddress, primaryEmailVerified: true });
    const again = await asUser(alice.id, '/email', {
      method: 'POST',
      body: { email: newAddress, code, verificationRecordId: proof },
    });
    expect(again.json.code, 'spent').toBe('verification_code.code_mismatch');

    const [entry] = await admin().findMany(logs, {
      where: and(eq(logs.key, 'Account.Email.Updated'), eq(logs.userId, alice.id)),
    });
    expect(entry?.payload).toMatchObject({ result: 'Success' });
    expect(JSON.stringify(entry?.payload)).toContain(newAddress);
    alice.email = newAddress;
  });

  it('refuses an address another account holds, in any case, before sending anything', async () => {
    const mails = sink.received.length;
    for (const email of [bob.email, 'BOB@example.com']) {
      const response = await asUser(alice.id, '/email/link/verification-code', { method: 'POST', body: { email } });
      expect(response.status).toBe(422);
      expect(response.json.code).toBe('user.email_already_in_use');
    }
    const proof = await passwordProof(alice.id, alice.password);
    const change = await asUser(alice.id, '/email', {
      method: 'POST',
      body: { email: bob.email, code: '123456', verificationRecordId: proof },
    });
    expect(change.json.code).toBe('user.email_already_in_use');
    expect(sink.received.length).toBe(mails);
  });

  it("applies the admin tenant's email blocklist", async () => {
    await patchSignInExperience(
      system(ADMIN_TENANT_ID),
      { emailBlocklistPolicy: { customBlocklist: ['@blocked.test'], blockSubaddressing: true } },
      { email: true, sms: false },
    );
    try {
      for (const email of ['me@blocked.test', 'alice+tag@example.com']) {
        const response = await asUser(alice.id, '/email/link/verification-code', { method: 'POST', body: { email } });
        expect(response.status, email).toBe(422);
        expect(response.json.code).toBe('user.email_blocked');
      }
    } finally {
      await patchSignInExperience(system(ADMIN_TENANT_ID), { emailBlocklistPolicy: {} }, { email: true, sms: false });
    }
  });

  it('limits the codes sent to one address like the other codes (5 an hour)', async () => {
    const email = 'limited@example.com';
    for (let sent = 0; sent < 5; sent++) {
      expect((await asUser(bob.id, '/email/link/verification-code', { method: 'POST', body: { email } })).status).toBe(
        204,
      );
    }
    const refused = await asUser(bob.id, '/email/link/verification-code', { method: 'POST', body: { email } });
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('verification_code.too_many_requests');
  });
});

describe('linking social identities', () => {
  it("lists the admin tenant's social connectors with the account's identity through each", async () => {
    const list = await asUser(alice.id, '/social/connectors');
    expect(list.status).toBe(200);
    expect(list.json).toEqual([
      {
        id: connectorId,
        target,
        name: expect.objectContaining({ en: 'Gatehouse ID', de: 'Gatehouse-ID' }),
        logo: '/console/connectors/oidc.svg',
        logoDark: null,
        identity: null,
      },
    ]);
    expect((await asUser(carol.id, '/social/connectors')).json[0].identity).toEqual({
      userId: 'carol-at-idp',
      email: 'carol@idp.test',
      name: null,
    });
  });

  it("refuses a redirect URI other than the console's own handle-social page, and unknown connectors", async () => {
    for (const redirectUri of [
      'https://evil.example/console/handle-social',
      `${base}/console/handle-social?next=x`,
      `${base}/console/callback`,
    ]) {
      const response = await asUser(alice.id, '/social/authorization-uri', {
        method: 'POST',
        body: { connectorId, state: 'aB3dE6gH', redirectUri },
      });
      expect(response.status, redirectUri).toBe(400);
      expect(response.json.code).toBe('user.social_redirect_uri_not_allowed');
    }
    const unknown = await asUser(alice.id, '/social/authorization-uri', {
      method: 'POST',
      body: { connectorId: 'nosuchconnector', state: 'aB3dE6gH', redirectUri: handleSocialUrl(base) },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('connector.not_found');
  });

  it("links the provider's account through the popup's answer, and to no other account", async () => {
    const answer = await linkingAnswer(alice.id);
    const body = { connectorId, connectorData: answer.connectorData };

    const noCookie = await asUser(alice.id, '/social/link-identity', { method: 'POST', body });
    expect(noCookie.status).toBe(400);
    expect(noCookie.json.code).toBe('session.connector_session_not_found');
    // Bob cannot redeem Alice's linking, even with her cookie.
    const stolen = await asUser(bob.id, '/social/link-identity', { method: 'POST', body, cookie: answer.cookie });
    expect(stolen.json.code).toBe('session.connector_session_not_found');
    const otherState = await asUser(alice.id, '/social/link-identity', {
      method: 'POST',
      body: { connectorId, connectorData: { ...answer.connectorData, state: 'zZ9yY8xX' } },
      cookie: answer.cookie,
    });
    expect(otherState.json.code).toBe('session.connector_session_not_found');

    const linked = await asUser(alice.id, '/social/link-identity', { method: 'POST', body, cookie: answer.cookie });
    expect(linked.status, JSON.stringify(linked.json)).toBe(200);
    expect(linked.json).toMatchObject({ id: connectorId, target, identity: { email: river.email } });
    expect(linked.headers.getSetCookie().join()).toMatch(/gatehouse_me_social=;.*Max-Age=0/i);
    const riverId = linked.json.identity.userId;
    const idpUser = await new TenantDb(db, DEFAULT_TENANT_ID).findOne(users, eq(users.username, river.username));
    expect(riverId).toBe(idpUser?.id);
    expect((await asUser(alice.id, '/social/connectors')).json[0].identity).toMatchObject({ userId: riverId });
    expect((await asUser(alice.id, '')).json.identities).toHaveProperty(`${target}.userId`, riverId);
    expect(await admin().count(logs, and(eq(logs.key, 'Account.Identity.Created'), eq(logs.userId, alice.id)))).toBe(1);

    // The same provider account for Bob: it belongs to Alice.
    const bobAnswer = await linkingAnswer(bob.id);
    const taken = await asUser(bob.id, '/social/link-identity', {
      method: 'POST',
      body: { connectorId, connectorData: bobAnswer.connectorData },
      cookie: bobAnswer.cookie,
    });
    expect(taken.status).toBe(422);
    expect(taken.json.code).toBe('user.identity_already_in_use');
    expect((await asUser(bob.id, '')).json.identities).toEqual({});

    // Carol already has another account of this provider linked: she disconnects it first.
    const carolAnswer = await linkingAnswer(carol.id, stone);
    const second = await asUser(carol.id, '/social/link-identity', {
      method: 'POST',
      body: { connectorId, connectorData: carolAnswer.connectorData },
      cookie: carolAnswer.cookie,
    });
    expect(second.status).toBe(422);
    expect(second.json.code).toBe('user.identity_already_linked');
    expect((await asUser(carol.id, '')).json.identities).toHaveProperty(`${target}.userId`, 'carol-at-idp');
  });

  it('signs in to the console with the linked account', async () => {
    await patchSignInExperience(
      system(ADMIN_TENANT_ID),
      { socialSignInConnectorTargets: [target] },
      { email: true, sms: false },
    );
    const flow = consoleClient(base);
    const jar = new CookieJar();
    const { verifier, signInPage } = await flow.startAuthorization(jar as unknown as SimpleJar, {
      resources: [ME_RESOURCE],
      scope: 'openid offline_access',
    });
    const html = await (await jar.fetch(signInPage)).text();
    expect(html).toContain('Continue with Gatehouse ID');
    const href = (/<a class="social" href="([^"]+)"/.exec(html)?.[1] ?? '').replaceAll('&amp;', '&');
    const callback = await atIdentityProvider(jar, await jar.fetch(absolute(href)), (next) =>
      next.startsWith(flow.redirectUri),
    );
    const redeemed = await flow.redeemCode(callback.searchParams.get('code') ?? '', verifier, {
      resource: ME_RESOURCE,
    });
    const tokens = (await redeemed.json()) as { access_token: string };
    expect(redeemed.status, JSON.stringify(tokens)).toBe(200);
    const meAnswer = await callApi(base, '/api/me', tokens.access_token);
    expect(meAnswer.json).toMatchObject({ id: alice.id, username: alice.username });
  });

  it('unlinks, but never the last way to sign in, and never for another account', async () => {
    const bobs = await asUser(bob.id, `/social/identity/${connectorId}`, { method: 'DELETE' });
    expect(bobs.status).toBe(404);
    expect(bobs.json.code).toBe('user.identity_not_exist');
    expect((await asUser(alice.id, '')).json.identities).toHaveProperty(target);

    const unknown = await asUser(alice.id, '/social/identity/nosuchconnector', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('connector.not_found');

    // Carol has no password and signs in only through this provider.
    const last = await asUser(carol.id, `/social/identity/${connectorId}`, { method: 'DELETE' });
    expect(last.status).toBe(422);
    expect(last.json.code).toBe('user.last_sign_in_method');
    expect((await asUser(carol.id, '')).json.identities).toHaveProperty(target);

    const removed = await asUser(alice.id, `/social/identity/${connectorId}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await asUser(alice.id, '')).json.identities).toEqual({});
    expect((await asUser(alice.id, '/social/connectors')).json[0].identity).toBeNull();
    expect(await admin().count(logs, and(eq(logs.key, 'Account.Identity.Deleted'), eq(logs.userId, alice.id)))).toBe(1);
    const twice = await asUser(alice.id, `/social/identity/${connectorId}`, { method: 'DELETE' });
    expect(twice.json.code).toBe('user.identity_not_exist');
  });

  it('lets an account without a password unlink once email codes sign it in', async () => {
    await patchSignInExperience(
      system(ADMIN_TENANT_ID),
      {
        signIn: {
          methods: [
            { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
            { identifier: 'email', password: true, verificationCode: true, isPasswordPrimary: true },
          ],
        },
      },
      { email: true, sms: false },
    );
    const removed = await asUser(carol.id, `/social/identity/${connectorId}`, { method: 'DELETE' });
    expect(removed.status, JSON.stringify(removed.json)).toBe(204);
  });
});
