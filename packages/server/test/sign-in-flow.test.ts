import { randomBytes } from 'node:crypto';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { logs } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createFirstConsoleAdmin } from '../src/services/console-admin.ts';
import { LOCKOUT, SIGN_IN_LOG_KEY } from '../src/services/sign-in.ts';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { consoleClient, oidcClient } from './support/oidc-flow.ts';

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
beforeAll(async () => {
  server = await startTestHttpServer();
  await createFirstConsoleAdmin(new TenantDbs(server.database.db), {
    username: 'console_admin',
    password: 'correct-horse-battery',
  });
});
afterAll(() => server.close());

// The console's side of the flow, shared with the other OIDC tests.
const flow = () => consoleClient(server.base);
const issuer = () => flow().issuer;
const startAuthorization = (jar: CookieJar) => flow().startAuthorization(jar);
const submit = (jar: CookieJar, page: string, identifier: string, password: string, language = 'en') =>
  flow().submit(jar, page, identifier, password, language);
const followToCallback = (jar: CookieJar, first: Response) => flow().followToCallback(jar, first);
const redeemCode = (code: string, verifier: string, extra: Record<string, string> = {}) =>
  flow().redeemCode(code, verifier, extra);

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

  it("sends an unknown sign-in session to the tenant's unknownSessionRedirectUrl when it has one", async () => {
    const token = await bootstrapManagementToken(server);
    const patch = (unknownSessionRedirectUrl: string | null) =>
      fetch(`${server.base}/api/sign-in-exp`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ unknownSessionRedirectUrl }),
      });
    expect((await patch('https://shop.example.test/start')).status).toBe(200);
    try {
      const bookmarked = await new CookieJar().fetch(`${server.base}/interaction/${DEFAULT_TENANT_ID}/gone-uid`);
      expect(bookmarked.status).toBe(303);
      expect(bookmarked.headers.get('Location')).toBe('https://shop.example.test/start');
      // A form posted from a stale page goes there by a page of its own (a redirect would meet form-action).
      const posted = await new CookieJar().fetch(`${server.base}/interaction/${DEFAULT_TENANT_ID}/gone-uid/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'identifier=a&password=b',
      });
      expect(posted.status).toBe(200);
      expect(posted.headers.get('Refresh')).toBe('0;url=https://shop.example.test/start');
      // Another tenant without the setting keeps the expired page.
      expect((await new CookieJar().fetch(`${server.base}/interaction/admin/gone-uid`)).status).toBe(400);
    } finally {
      await patch(null);
    }
  });
});

describe('response_mode=form_post', () => {
  it('the page posting the response may post to the application, on another origin, and nowhere else', async () => {
    // Issue 37 item 1: the issuer's CSP said form-action 'self', so Chromium refused the post to the redirect URI.
    const token = await bootstrapManagementToken(server);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server.base}/api${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.ok, `${path}: ${response.status}`).toBe(true);
      return (await response.json()) as { id: string };
    };
    const redirectUri = 'https://shop.example.test/callback';
    await post('/users', { username: 'form_poster', password: 'Form-Poster-42' });
    const app = await post('/applications', {
      name: 'Form post shop',
      type: 'Traditional',
      oidcClientMetadata: { redirectUris: [redirectUri], postLogoutRedirectUris: [] },
    });
    const client = oidcClient(server.base, {
      tenantId: DEFAULT_TENANT_ID,
      clientId: app.id,
      redirectUri,
      defaultResources: [],
    });
    const jar = new CookieJar();
    const { signInPage } = await client.startAuthorization(jar, {
      scope: 'openid',
      extra: { response_mode: 'form_post', prompt: 'login', state: 'posted-state' },
    });
    let response = await client.submit(jar, signInPage, 'form_poster', 'Form-Poster-42');
    for (let hop = 0; hop < 10 && response.status >= 300 && response.status < 400; hop++) {
      response = await jar.fetch(client.absolute(response.headers.get('Location') ?? ''));
    }
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    const formAction = /(?:^|;)\s*form-action ([^;]*)/.exec(policy)?.[1]?.split(/\s+/);
    expect(formAction, policy).toEqual(["'self'", 'https://shop.example.test']);
    expect(policy, 'the auto-submit script is allowed by its hash').toMatch(/script-src [^;]*'sha256-/);
    const html = await response.text();
    expect(html).toContain(`action="${redirectUri}"`);
    expect(html).toContain('name="state" value="posted-state"');
    expect(html).toMatch(/name="code" value="[\w-]+"/);
  });
});
