import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logs } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { startHttpReceiver } from './support/http-receiver.ts';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * The captcha provider (reference `/captcha-provider`) and the sign-in pages' captcha (issue 37 item 10): the
 * provider's verification endpoint is a local server here (`verifyUrl`), answering success for one token only.
 */
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let verifier: Awaited<ReturnType<typeof startHttpReceiver>>;
let token: string;
let clientId: string;
const redirectUri = 'https://captcha-spa.example.com/callback';
const SECRET = 'turnstile-secret-0x4AAA';

type Json = Record<string, unknown>;
async function call(method: string, path: string, body?: unknown, bearer: string | null = token) {
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: {
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Json };
}

beforeAll(async () => {
  verifier = await startHttpReceiver();
  server = await startTestHttpServer();
  token = await bootstrapManagementToken(server);
  clientId = String(
    (
      await call('POST', '/applications', {
        name: 'Captcha SPA',
        type: 'SPA',
        oidcClientMetadata: { redirectUris: [redirectUri] },
      })
    ).json.id,
  );
  await call('POST', '/users', { username: 'captcha_user', password: 'Captcha-Pass-42' });
});
afterAll(async () => {
  await server.close();
  await verifier.close();
});

const turnstile = () => ({
  config: {
    type: 'Turnstile',
    siteKey: '0x4AAAAAAA-site',
    secretKey: SECRET,
    verifyUrl: `${verifier.url}/siteverify`,
    scriptUrl: 'https://captcha.example.test/api.js',
  },
});

describe('captcha provider API', () => {
  it('is absent until set, answers the secret masked, keeps it when sent back masked, and deletes', async () => {
    const none = await call('GET', '/captcha-provider');
    expect(none.status, JSON.stringify(none.json)).toBe(404);
    expect(none.json.code).toBe('entity.not_exists_with_id');
    expect((await call('GET', '/captcha-provider', undefined, null)).status).toBe(401);
    const set = await call('PUT', '/captcha-provider', turnstile());
    expect(set.status).toBe(200);
    expect(set.json.config).toMatchObject({ type: 'Turnstile', siteKey: '0x4AAAAAAA-site', secretKey: '********' });
    const read = await call('GET', '/captcha-provider');
    expect(read.json.config).toMatchObject({ secretKey: '********' });
    expect(JSON.stringify(read.json)).not.toContain(SECRET);

    const kept = await call('PUT', '/captcha-provider', {
      config: { ...turnstile().config, siteKey: '0x4AAAAAAA-new', secretKey: '********' },
    });
    expect(kept.status).toBe(200);
    const refused = await call('PUT', '/captcha-provider', {
      config: { type: 'RecaptchaEnterprise', siteKey: 'k', secretKey: '********', projectId: 'p' },
    });
    expect(refused.status, 'no stored key of that type to keep').toBe(400);
    expect((await call('PUT', '/captcha-provider', { config: { type: 'Hcaptcha', siteKey: 'k' } })).status).toBe(400);

    // Audited, never with the secret.
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    const entries = await tenant.findMany(logs, { where: like(logs.key, 'Admin.CaptchaProvider.%') });
    expect(entries.map((entry) => entry.key).sort()).toEqual([
      'Admin.CaptchaProvider.Created',
      'Admin.CaptchaProvider.Updated',
    ]);
    expect(JSON.stringify(entries)).not.toContain(SECRET);

    expect((await call('DELETE', '/captcha-provider')).status).toBe(204);
    expect((await call('DELETE', '/captcha-provider')).status).toBe(404);
  });
});

describe('the sign-in pages with a captcha', () => {
  const flow = () =>
    oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });
  const post = (jar: CookieJar, url: string, fields: Record<string, string>) =>
    jar.fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en' },
      body: new URLSearchParams(fields),
    });

  it('show the widget, allow its origin, and check its answer before the password', async () => {
    await call('PUT', '/captcha-provider', turnstile());
    await call('PATCH', '/sign-in-exp', { captchaPolicy: { enabled: true } });
    try {
      const jar = new CookieJar();
      const { signInPage } = await flow().startAuthorization(jar, { scope: 'openid' });
      const page = await jar.fetch(signInPage);
      const html = await page.text();
      expect(html).toContain('<div class="captcha cf-turnstile" data-sitekey="0x4AAAAAAA-site"');
      expect(html).toContain('<script src="https://captcha.example.test/api.js" async defer></script>');
      const csp = page.headers.get('Content-Security-Policy') ?? '';
      expect(csp).toMatch(/script-src 'self'[^;]* https:\/\/captcha\.example\.test/);
      expect(csp).toMatch(/frame-src 'self'[^;]* https:\/\/challenges\.cloudflare\.com/);

      // Without the widget's answer: refused before any password is checked (no attempt counts against the user).
      const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
      const attempts = () =>
        tenant.count(
          logs,
          and(eq(logs.key, 'Interaction.SignIn.Submit'), sql`${logs.payload}->>'identifier' = 'captcha_user'`),
        );
      const before = await attempts();
      const missing = await post(jar, `${signInPage}/login`, {
        identifier: 'captcha_user',
        password: 'Captcha-Pass-42',
      });
      expect(missing.status).toBe(400);
      expect(await missing.text()).toContain('Please complete the check that you are not a robot');
      expect(await attempts()).toBe(before);

      // A rejected answer: the provider says no.
      verifier.respondWith(200, JSON.stringify({ success: false, 'error-codes': ['invalid-input-response'] }));
      const rejected = await post(jar, `${signInPage}/login`, {
        identifier: 'captcha_user',
        password: 'Captcha-Pass-42',
        'cf-turnstile-response': 'forged',
      });
      expect(rejected.status).toBe(400);
      const asked = verifier.received.at(-1);
      expect(asked?.path).toBe('/siteverify');
      const form = new URLSearchParams(asked?.body);
      expect([form.get('secret'), form.get('response'), form.get('remoteip')]).toEqual([SECRET, 'forged', '127.0.0.1']);

      // The provider unreachable: a no, not a way through.
      verifier.respondWith(500, 'not json');
      const unreachable = await post(jar, `${signInPage}/login`, {
        identifier: 'captcha_user',
        password: 'Captcha-Pass-42',
        'cf-turnstile-response': 'good',
      });
      expect(unreachable.status).toBe(400);

      verifier.respondWith(200, JSON.stringify({ success: true }));
      const passed = await post(jar, `${signInPage}/login`, {
        identifier: 'captcha_user',
        password: 'Captcha-Pass-42',
        'cf-turnstile-response': 'good',
      });
      expect(passed.status).toBe(303);
      expect(new URLSearchParams(verifier.received.at(-1)?.body).get('secret')).toBe(SECRET);
    } finally {
      await call('PATCH', '/sign-in-exp', { captchaPolicy: {} });
      await call('DELETE', '/captcha-provider');
    }
  });

  it('ask for nothing while the policy is off or no provider is set', async () => {
    await call('PUT', '/captcha-provider', turnstile());
    const jar = new CookieJar();
    const { signInPage } = await flow().startAuthorization(jar, { scope: 'openid' });
    expect(await (await jar.fetch(signInPage)).text()).not.toContain('cf-turnstile');
    await call('DELETE', '/captcha-provider');
    await call('PATCH', '/sign-in-exp', { captchaPolicy: { enabled: true } });
    try {
      const other = new CookieJar();
      const { signInPage: page } = await flow().startAuthorization(other, { scope: 'openid' });
      expect(await (await other.fetch(page)).text()).not.toContain('captcha');
      const signedIn = await post(other, `${page}/login`, { identifier: 'captcha_user', password: 'Captcha-Pass-42' });
      expect(signedIn.status).toBe(303);
    } finally {
      await call('PATCH', '/sign-in-exp', { captchaPolicy: {} });
    }
  });
});
