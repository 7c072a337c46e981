import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * What an application's authorization request says to the sign-in page (issue 20, spec §2.4): `ui_locales` picks the
 * language over the browser's, `identifier` / `login_hint` pre-fill the identifier, and a refused password keeps
 * the page's links (create an account, forgot password).
 */
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let clientId: string;
const redirectUri = 'https://spa.example.com/callback';

beforeAll(async () => {
  server = await startTestHttpServer();
  const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
  const bootstrap = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'bootstrap');
  const token = await fetch(`${server.base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${bootstrap.clientId}:${bootstrap.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      resource: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    }),
  });
  const adminToken = ((await token.json()) as { access_token: string }).access_token;
  const created = await fetch(`${server.base}/api/applications`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Params SPA', type: 'SPA', oidcClientMetadata: { redirectUris: [redirectUri] } }),
  });
  clientId = String(((await created.json()) as { id: string }).id);
}, 60_000);
afterAll(() => server.close());

const spa = () => oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });
const openSignIn = async (extra: Record<string, string>, headers: Record<string, string> = {}) => {
  const jar = new CookieJar();
  const { signInPage } = await spa().startAuthorization(jar, { scope: 'openid profile', extra });
  const response = await jar.fetch(signInPage, { headers });
  expect(response.status).toBe(200);
  return { jar, signInPage, html: await response.text() };
};

describe('the sign-in page follows the authorization request', () => {
  it('speaks the first supported language of ui_locales, whatever the browser asks', async () => {
    const { html } = await openSignIn({ ui_locales: 'xx-XX de-AT fr' }, { 'Accept-Language': 'fr' });
    expect(html).toContain('lang="de"');
    const unknown = await openSignIn({ ui_locales: 'xx yy' }, { 'Accept-Language': 'fr' });
    expect(unknown.html, 'nothing supported: the browser language').toContain('lang="fr"');
    const arabic = await openSignIn({ ui_locales: 'ar' });
    expect(arabic.html).toContain('dir="rtl"');
  });

  it('pre-fills the identifier from identifier, else login_hint, escaped', async () => {
    expect((await openSignIn({ login_hint: 'hint@example.com' })).html).toContain('value="hint@example.com"');
    const both = await openSignIn({ identifier: 'chosen_user', login_hint: 'hint@example.com' });
    expect(both.html).toContain('value="chosen_user"');
    const hostile = await openSignIn({ login_hint: '"><script>alert(1)</script>' });
    expect(hostile.html).not.toContain('<script>alert(1)</script>');
    expect(hostile.html).toContain('value="&quot;&gt;&lt;script&gt;');
  });

  it('keeps "Create an account" after a wrong password and after an empty form', async () => {
    const { jar, signInPage, html } = await openSignIn({});
    expect(html).toContain('screen=register');
    const wrong = await spa().submit(jar, signInPage, 'nobody_here', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('screen=register');
    const empty = await spa().submit(jar, signInPage, '', '');
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('screen=register');
  });
});

describe('a refused authorization request', () => {
  const authorize = (params: Record<string, string>, language = 'en') =>
    fetch(
      `${server.base}/oidc/auth?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
        ...params,
      })}`,
      { headers: { 'Accept-Language': language }, redirect: 'manual' },
    );

  it('shows a branded, translated page naming what is wrong, never a raw English one', async () => {
    const wrongReturn = await authorize({ redirect_uri: 'https://evil.example/callback' });
    expect(wrongReturn.status).toBe(400);
    const english = await wrongReturn.text();
    expect(english).toContain('the address to return to is not registered');
    expect(english).toContain('Error code: invalid_redirect_uri');
    expect(english).toContain('rel="stylesheet"');
    expect(english, 'not the provider’s developer text').not.toContain('redirect_uri did not match');

    const german = await (await authorize({ redirect_uri: 'https://evil.example/cb', ui_locales: 'de' }, 'fr')).text();
    expect(german).toContain('lang="de"');
    expect(german).toContain('Rücksprungadresse');
    const arabic = await (await authorize({ redirect_uri: 'https://evil.example/cb' }, 'ar')).text();
    expect(arabic).toContain('dir="rtl"');

    const unknownClient = await (await authorize({ client_id: 'no-such-client' })).text();
    expect(unknownClient).toContain('This application is not known here.');
  });
});
