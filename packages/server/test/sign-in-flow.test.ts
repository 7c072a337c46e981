import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { logs } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createFirstConsoleAdmin } from '../src/services/console-admin.ts';
import { LOCKOUT, SIGN_IN_LOG_KEY } from '../src/services/sign-in.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
beforeAll(async () => {
  server = await startTestHttpServer();
  await createFirstConsoleAdmin(server.database.db, { username: 'console_admin', password: 'correct-horse-battery' });
});
afterAll(() => server.close());

const issuer = () => `${server.base}/t/${ADMIN_TENANT_ID}/oidc`;
const redirectUri = () => `${server.base}/console/callback`;
const absolute = (location: string) => new URL(location, server.base).toString();

/** Starts an authorization request as the console does (code + PKCE, prompt login consent). */
async function startAuthorization(jar: CookieJar) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const params = new URLSearchParams({
    client_id: 'admin-console',
    response_type: 'code',
    redirect_uri: redirectUri(),
    scope: 'openid profile offline_access all',
    resource: managementResource(DEFAULT_TENANT_ID),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    prompt: 'login consent',
  });
  const response = await jar.fetch(`${issuer()}/auth?${params}`);
  expect(response.status).toBe(303);
  const signInPage = absolute(response.headers.get('Location') ?? '');
  expect(new URL(signInPage).pathname).toMatch(/^\/interaction\/admin\/[\w-]+$/);
  return { verifier, signInPage };
}

function submit(jar: CookieJar, signInPage: string, identifier: string, password: string, language = 'en') {
  return jar.fetch(`${signInPage}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': language },
    body: new URLSearchParams({ identifier, password }),
  });
}

/** Follows redirects until the client's redirect URI; returns the authorization code. */
async function followToCallback(jar: CookieJar, first: Response): Promise<URL> {
  let response = first;
  for (let hops = 0; hops < 10; hops++) {
    const location = response.headers.get('Location');
    expect(location, `hop ${hops} redirects (status ${response.status})`).toBeTruthy();
    const next = absolute(location ?? '');
    if (next.startsWith(redirectUri())) return new URL(next);
    response = await jar.fetch(next);
  }
  throw new Error('too many redirects');
}

/** The console's token request: redeem an authorization code with its PKCE verifier. */
function redeemCode(code: string, verifier: string, extra: Record<string, string> = {}) {
  return fetch(`${issuer()}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      client_id: 'admin-console',
      code_verifier: verifier,
      ...extra,
    }),
  });
}

describe('console sign-in through the admin tenant issuer', () => {
  it('shows a localised, accessible sign-in form', async () => {
    const jar = new CookieJar();
    const { signInPage } = await startAuthorization(jar);
    const english = await jar.fetch(signInPage);
    expect(english.status).toBe(200);
    expect(english.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await english.text();
    expect(html).toContain('<label for="identifier">Username or email</label>');
    expect(html).toContain('autocomplete="current-password"');
    const arabic = await (await jar.fetch(signInPage, { headers: { 'Accept-Language': 'ar' } })).text();
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain('كلمة المرور');
  });

  it('signs the admin in with code + PKCE and the token opens the management API', async () => {
    const jar = new CookieJar();
    const { verifier, signInPage } = await startAuthorization(jar);
    const submitted = await submit(jar, signInPage, 'Console_Admin', 'correct-horse-battery');
    expect(submitted.status).toBe(303);
    const callback = await followToCallback(jar, submitted);
    expect(callback.searchParams.get('state')).toBe('state-123');
    const code = callback.searchParams.get('code') ?? '';
    expect(code).not.toBe('');

    const tokenResponse = await redeemCode(code, verifier, { resource: managementResource(DEFAULT_TENANT_ID) });
    expect(tokenResponse.status).toBe(200);
    const tokens = (await tokenResponse.json()) as { access_token: string; id_token: string; refresh_token?: string };
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      iss: issuer(),
      aud: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    });
    expect(decodeJwt(tokens.id_token)).toMatchObject({ username: 'console_admin' });
    const roles = await fetch(`${server.base}/api/roles`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(roles.status).toBe(200);

    const reused = await redeemCode(code, verifier);
    expect(reused.status, 'a code is redeemed once').toBe(400);
  });

  it('refuses a wrong PKCE verifier', async () => {
    const jar = new CookieJar();
    const { signInPage } = await startAuthorization(jar);
    const callback = await followToCallback(
      jar,
      await submit(jar, signInPage, 'console_admin', 'correct-horse-battery'),
    );
    const response = await redeemCode(callback.searchParams.get('code') ?? '', randomBytes(32).toString('base64url'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('says the credentials are wrong, without telling which, and audits each attempt', async () => {
    const jar = new CookieJar();
    const { signInPage } = await startAuthorization(jar);
    const wrongPassword = await submit(jar, signInPage, 'console_admin', 'nope-nope-nope');
    expect(wrongPassword.status).toBe(401);
    const unknownUser = await submit(jar, signInPage, 'nobody_here', 'nope-nope-nope');
    expect(unknownUser.status).toBe(401);
    const [a, b] = [await wrongPassword.text(), await unknownUser.text()];
    expect(a).toContain('The username or password is incorrect.');
    expect(b).toContain('The username or password is incorrect.');
    const german = await submit(jar, signInPage, 'console_admin', 'nope-nope-nope', 'de');
    expect(await german.text()).toContain('Benutzername oder Passwort ist falsch.');

    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    const entries = await admin.findMany(logs, { where: eq(logs.key, SIGN_IN_LOG_KEY) });
    expect(entries.some((e) => e.payload.identifier === 'nobody_here' && e.payload.result === 'Error')).toBe(true);
  });

  it('locks an identifier after repeated failures and says so, even for the right password', async () => {
    const jar = new CookieJar();
    const { signInPage } = await startAuthorization(jar);
    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    for (let i = 0; i < LOCKOUT.maxFailures; i++) await submit(jar, signInPage, 'locked_user', 'wrong-wrong-wrong');
    const locked = await submit(jar, signInPage, 'locked_user', 'wrong-wrong-wrong');
    expect(locked.status).toBe(429);
    expect(await locked.text()).toMatch(/Too many failed attempts\. Try again in \d+ minutes\./);
    const lockedLogs = await admin.findMany(logs, { where: eq(logs.key, SIGN_IN_LOG_KEY) });
    expect(lockedLogs.some((e) => e.payload.identifier === 'locked_user' && e.payload.error === 'locked')).toBe(true);
  });

  it('an expired or foreign interaction shows the expired page', async () => {
    const response = await new CookieJar().fetch(`${server.base}/interaction/admin/not-a-real-uid`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This sign-in page has expired.');
  });
});
