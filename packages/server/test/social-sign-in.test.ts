import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, users } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createApplication } from '../src/services/applications.ts';
import { createFirstConsoleAdmin } from '../src/services/console-admin.ts';
import { socialCallbackUrl } from '../src/services/social-sign-in.ts';
import { createUser } from '../src/services/users.ts';
import { bootstrapManagementToken, startTestHttpServer } from './support/http-server.ts';
import { nextHop } from './support/next-hop.ts';

/**
 * A real social sign-in round trip (issue 21): the default tenant's generic OpenID Connect connector signs users in
 * with another Gatehouse issuer (the admin tenant's) as identity provider, for an application of the default tenant
 * signed in through openid-client. The first sign-in creates the user with the identity, the second finds it, a
 * verified email links an existing account, and a tampered answer is refused.
 */

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let token: string;
let rp: client.Configuration;
let rpClientId: string;
const rpRedirect = 'https://books.example.com/callback';
const connectorId = 'gatehouse-idp';

type Json = Record<string, unknown>;
async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
  return (text ? JSON.parse(text) : {}) as Json;
}

beforeAll(async () => {
  server = await startTestHttpServer();
  token = await bootstrapManagementToken(server);
  const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
  const system = { tenant: admin, actor: { type: 'system' as const, id: 'test' } };
  // The identity provider: the admin tenant's issuer, with a web application for the connector and two users.
  await createFirstConsoleAdmin(new TenantDbs(server.database.db), {
    username: 'idp_owner',
    password: 'Owner-Pass-77',
  });
  const idpApp = await createApplication(
    system,
    { edition: 'oss' },
    {
      name: 'Default tenant social login',
      type: 'Traditional',
      oidcClientMetadata: { redirectUris: [socialCallbackUrl(server.base, DEFAULT_TENANT_ID, connectorId)] },
    },
  );
  const [idpRow] = await admin.findMany(applications, { where: eq(applications.id, idpApp.id) });
  await createUser(system, { username: 'river', primaryEmail: 'river@idp.test', password: 'River-Stone-42' });
  await createUser(system, { username: 'linked', primaryEmail: 'linked@shared.test', password: 'Linked-Pass-42' });

  await api('POST', '/connectors', {
    connectorId: 'oidc',
    id: connectorId,
    config: { issuer: `${server.base}/t/admin/oidc`, clientId: idpApp.id, clientSecret: idpRow?.secret },
    metadata: { target: 'gatehouse', name: { en: 'Gatehouse ID' } },
    syncProfile: true,
  });
  await api('PATCH', '/sign-in-exp', { socialSignInConnectorTargets: ['gatehouse'] });
  const app = await api('POST', '/applications', {
    name: 'Book Club',
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [rpRedirect] },
  });
  rpClientId = String(app.id);
  rp = await client.discovery(new URL(`${server.base}/oidc`), rpClientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
}, 60_000);

afterAll(() => server.close());

const absolute = (location: string) => new URL(location, server.base).toString();

/**
 * A browser's cookie jar with paths (RFC 6265 §5.1.4): the identity provider and the application's issuer are one
 * origin here, and their provider cookies have the same names on different paths.
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

/** Signs in to Book Club with the social connector as `username` at the identity provider; answers the ID claims. */
async function socialSignIn(username: string, password: string) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp, {
    redirect_uri: rpRedirect,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const jar = new CookieJar();
  const toPage = await jar.fetch(url.href);
  const page = absolute(toPage.headers.get('Location') ?? '');
  const html = await (await jar.fetch(page)).text();
  const href = /<a class="social" href="([^"]+)"/.exec(html)?.[1] ?? '';
  expect(html).toContain('Continue with Gatehouse ID');
  // To the identity provider, and its sign-in page.
  const atIdp = await follow(jar, await jar.fetch(absolute(href)), (next) => next.includes('/interaction/admin/'));
  expect(atIdp.url).toBeTruthy();
  const login = await jar.fetch(`${atIdp.url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ identifier: username, password }),
  });
  // Back through the provider, our fixed callback and the interaction, to the application.
  const back = await follow(jar, login, (next) => next.startsWith(rpRedirect));
  if (!back.url) return { claims: undefined, page: back.response, jar };
  const tokens = await client.authorizationCodeGrant(rp, new URL(back.url), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { claims: tokens.claims() as Record<string, unknown>, page: undefined, jar };
}

const tenant = () => new TenantDb(server.database.db, DEFAULT_TENANT_ID);
const byIdentity = (sub: string) =>
  tenant().findMany(users, { where: sql`${users.identities}->'gatehouse'->>'userId' = ${sub}` });

describe('social sign-in with a generic OpenID Connect connector', () => {
  it('creates the user with the identity at the first sign-in and finds it at the second', async () => {
    const first = await socialSignIn('river', 'River-Stone-42');
    expect(first.claims).toMatchObject({ email: 'river@idp.test', email_verified: true });
    const idpUser = await new TenantDb(server.database.db, ADMIN_TENANT_ID).findOne(users, eq(users.username, 'river'));
    const [created] = await byIdentity(String(idpUser?.id));
    expect(created?.id).toBe(first.claims?.sub);
    expect(created?.primaryEmailVerified).toBe(true);

    const second = await socialSignIn('river', 'River-Stone-42');
    expect(second.claims?.sub).toBe(first.claims?.sub);
    expect(await byIdentity(String(idpUser?.id))).toHaveLength(1);
  });

  it('links an existing account whose verified email the provider vouches for', async () => {
    const existing = await api('POST', '/users', { username: 'shared_reader', primaryEmail: 'linked@shared.test' });
    const result = await socialSignIn('linked', 'Linked-Pass-42');
    expect(result.claims?.sub, 'the existing account, not a new one').toBe(existing.id);
    const [row] = await tenant().findMany(users, { where: eq(users.id, String(existing.id)) });
    expect(Object.keys(row?.identities ?? {})).toEqual(['gatehouse']);
    const identities = await api('GET', `/users/${existing.id}/identities`);
    expect(identities).toHaveProperty('gatehouse.details.email', 'linked@shared.test');
  });

  it('links a provider account to an account with MFA only once the second step passes', async () => {
    const existing = await api('POST', '/users', { username: 'guarded_reader', primaryEmail: 'guarded@shared.test' });
    const totp = await api('POST', `/users/${existing.id}/mfa-verifications`, { type: 'Totp' });
    await createUser(
      { tenant: new TenantDb(server.database.db, ADMIN_TENANT_ID), actor: { type: 'system', id: 'test' } },
      { username: 'guarded', primaryEmail: 'guarded@shared.test', password: 'Guarded-Pass-42' },
    );
    const result = await socialSignIn('guarded', 'Guarded-Pass-42');
    const mfaPage = (await result.page?.text()) ?? '';
    expect(mfaPage).toContain('Enter the 6-digit code from your authenticator app.');
    const linked = async () =>
      Object.keys((await tenant().findOne(users, eq(users.id, String(existing.id))))?.identities ?? {});
    // Whoever holds the provider account has not passed the account's MFA: nothing is linked yet.
    expect(await linked()).toEqual([]);

    const action = /<form[^>]*action="([^"]*\/mfa)"/.exec(mfaPage)?.[1] ?? '';
    const code = new TOTP({ secret: Secret.fromBase32(String(totp.secret)) }).generate();
    const passed = await result.jar.fetch(absolute(action), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ factor: 'totp', code }),
    });
    expect(passed.status).toBe(303);
    expect(await linked()).toEqual(['gatehouse']);
  });

  it('refuses a callback whose state does not match, and an unknown connector', async () => {
    const jar = new CookieJar();
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(rp, {
      redirect_uri: rpRedirect,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'x',
    });
    const page = absolute((await jar.fetch(url.href)).headers.get('Location') ?? '');
    const start = await jar.fetch(`${page}/social/${connectorId}`);
    expect(start.status).toBe(303);
    // The browser comes back with someone else's code and state.
    const callback = await jar.fetch(`${server.base}/callback/social/default/${connectorId}?code=forged&state=wrong`);
    const complete = await jar.fetch(absolute(nextHop(callback) ?? ''));
    expect(complete.status).toBe(400);
    expect(await complete.text()).toContain('Signing in with Gatehouse ID did not work');
    expect((await jar.fetch(`${page}/social/nope`)).status).toBe(400);
    // Without the cookie the callback leads nowhere.
    expect((await fetch(`${server.base}/callback/social/default/${connectorId}?code=a&state=b`)).status).toBe(400);
  });

  it('counts the sign-in that made the account as a sign-up for the MFA prompt (PromptOnlyAtSignIn)', async () => {
    await api('PATCH', '/sign-in-exp', { mfa: { factors: ['Totp'], policy: 'PromptOnlyAtSignIn' } });
    try {
      await createUser(
        { tenant: new TenantDb(server.database.db, ADMIN_TENANT_ID), actor: { type: 'system', id: 'test' } },
        { username: 'prompted', primaryEmail: 'prompted@idp.test', password: 'Prompted-Pass-42' },
      );
      const signUp = await socialSignIn('prompted', 'Prompted-Pass-42');
      expect(signUp.claims, 'no prompt right after the account was made').toBeDefined();
      const signIn = await socialSignIn('prompted', 'Prompted-Pass-42');
      expect(signIn.claims).toBeUndefined();
      expect(await signIn.page?.text(), 'the next sign-in offers the authenticator').toContain(
        'Set up an authenticator app',
      );
    } finally {
      await api('PATCH', '/sign-in-exp', { mfa: { factors: [], policy: 'UserControlled' } });
    }
  });

  it('refuses a new account when sign-up is closed', async () => {
    await api('PATCH', '/sign-in-exp', { signInMode: 'SignIn' });
    await createUser(
      { tenant: new TenantDb(server.database.db, ADMIN_TENANT_ID), actor: { type: 'system', id: 'test' } },
      { username: 'newcomer', primaryEmail: 'newcomer@idp.test', password: 'Newcomer-Pass-42' },
    );
    const result = await socialSignIn('newcomer', 'Newcomer-Pass-42');
    expect(result.claims).toBeUndefined();
    expect(result.page?.status).toBe(403);
    await api('PATCH', '/sign-in-exp', { signInMode: 'SignInAndRegister' });
  });
});
