import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * What an application's authorization request says to the sign-in page (issue 20, spec §2.4): `ui_locales` picks the
 * language over the browser's, `identifier` / `login_hint` pre-fill the identifier, and a refused password keeps
 * the page's links (create an account, forgot password).
 */
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let clientId: string;
let thirdPartyId: string;
let adminToken: string;
let consentingUserId: string;
const redirectUri = 'https://spa.example.com/callback';

beforeAll(async () => {
  server = await startTestHttpServer();
  adminToken = await bootstrapManagementToken(server);
  const created = await fetch(`${server.base}/api/applications`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Params SPA', type: 'SPA', oidcClientMetadata: { redirectUris: [redirectUri] } }),
  });
  clientId = String(((await created.json()) as { id: string }).id);
  const thirdParty = await api('/applications', {
    name: 'Partner <Calendar>',
    type: 'SPA',
    isThirdParty: true,
    oidcClientMetadata: { redirectUris: [redirectUri] },
  });
  thirdPartyId = String(thirdParty.id);
  consentingUserId = String(
    (
      await api('/users', {
        username: 'consenting_user',
        primaryEmail: 'consenting@example.com',
        password: 'Consent-Pass-42',
      })
    ).id,
  );
}, 60_000);

async function api(path: string, body: unknown, method = 'POST') {
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}
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

describe('consent', () => {
  const partner = () =>
    oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId: thirdPartyId, redirectUri, defaultResources: [] });

  /** Signs in to the third-party app and follows the provider's redirects to the next page or the callback. */
  async function signInTo(
    flow: ReturnType<typeof partner>,
    jar: CookieJar,
    prompt: string,
    request: { scope?: string; resources?: string[]; username?: string } = {},
  ) {
    const { verifier, signInPage } = await flow.startAuthorization(jar, {
      scope: request.scope ?? 'openid profile email',
      resources: request.resources ?? [],
      extra: { prompt },
    });
    let response = prompt.includes('login')
      ? await flow.submit(jar, signInPage, request.username ?? 'consenting_user', 'Consent-Pass-42')
      : await jar.fetch(signInPage);
    for (let hops = 0; hops < 10 && response.status === 303; hops++) {
      const next = flow.absolute(response.headers.get('Location') ?? '');
      if (next.startsWith(redirectUri)) return { verifier, callback: new URL(next) };
      response = await jar.fetch(next);
    }
    return { verifier, page: response };
  }

  it('asks the user before a third-party application gets anything; Cancel answers access_denied', async () => {
    const jar = new CookieJar();
    const first = await signInTo(partner(), jar, 'login consent');
    expect(first.page?.status).toBe(200);
    const html = (await first.page?.text()) ?? '';
    expect(html).toContain('Partner &lt;Calendar&gt; wants to access your account');
    expect(html).toContain('Your name, username and picture');
    expect(html).toContain('Your email address');
    const denyAction = /action="([^"]+\/abort)"/.exec(html)?.[1] ?? '';
    const refused = await jar.fetch(partner().absolute(denyAction), { method: 'POST' });
    let response = refused;
    let callback: URL | undefined;
    for (let hops = 0; hops < 10 && !callback; hops++) {
      const next = partner().absolute(response.headers.get('Location') ?? '');
      if (next.startsWith(redirectUri)) callback = new URL(next);
      else response = await jar.fetch(next);
    }
    expect(callback?.searchParams.get('error')).toBe('access_denied');
    expect(callback?.searchParams.get('code')).toBeNull();
  });

  it('Allow gives the code; the grant is remembered, so the next sign-in does not ask again', async () => {
    const jar = new CookieJar();
    const first = await signInTo(partner(), jar, 'login consent');
    const allowAction = /action="([^"]+\/consent)"/.exec((await first.page?.text()) ?? '')?.[1] ?? '';
    let response = await jar.fetch(partner().absolute(allowAction), { method: 'POST' });
    let callback: URL | undefined;
    for (let hops = 0; hops < 10 && !callback; hops++) {
      const next = partner().absolute(response.headers.get('Location') ?? '');
      if (next.startsWith(redirectUri)) callback = new URL(next);
      else response = await jar.fetch(next);
    }
    expect(callback?.searchParams.get('code')).toBeTruthy();
    const again = await signInTo(partner(), jar, 'login');
    expect(again.callback?.searchParams.get('code'), 'remembered: straight back with a code').toBeTruthy();
    // From another browser (no session of the first): remembered too, and still one grant (issue 37 item 5).
    const elsewhere = await signInTo(partner(), new CookieJar(), 'login');
    expect(elsewhere.callback?.searchParams.get('code'), 'another browser is not asked again').toBeTruthy();
    const grants = await fetch(`${server.base}/api/users/${consentingUserId}/grants?appType=thirdParty`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(((await grants.json()) as { applicationId: string }[]).map((grant) => grant.applicationId)).toEqual([
      thirdPartyId,
    ]);
  });

  it('does not ask again for an API permission the user has no role for', async () => {
    const indicator = 'https://calendar-api.example.com';
    const resource = await api('/resources', { name: 'Calendar API', indicator });
    await api(`/resources/${resource.id}/scopes`, { name: 'read:calendar' });
    await api('/users', { username: 'calendar_user', password: 'Consent-Pass-42' });
    const request = { scope: 'openid read:calendar', resources: [indicator], username: 'calendar_user' };
    const jar = new CookieJar();
    const first = await signInTo(partner(), jar, 'login', request);
    const html = (await first.page?.text()) ?? '';
    const allowAction = /action="([^"]+\/consent)"/.exec(html)?.[1] ?? '';
    expect(allowAction, 'asked the first time').toBeTruthy();
    let response = await jar.fetch(partner().absolute(allowAction), { method: 'POST' });
    for (let hops = 0; hops < 10 && response.status === 303; hops++) {
      const next = partner().absolute(response.headers.get('Location') ?? '');
      if (next.startsWith(redirectUri)) break;
      response = await jar.fetch(next);
    }
    for (const browser of [jar, new CookieJar()]) {
      const again = await signInTo(partner(), browser, 'login', request);
      expect(again.callback?.searchParams.get('code'), 'not asked again').toBeTruthy();
    }
  });

  it("shows the application's own branding and terms on its consent page", async () => {
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server.base}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const branding = {
      displayName: 'Partner Calendar',
      branding: { logoUrl: 'https://partner.example.com/logo.png' },
      termsOfUseUrl: 'https://partner.example.com/terms',
    };
    expect((await call('GET', `/applications/${thirdPartyId}/sign-in-experience`)).status).toBe(404);
    expect((await call('PUT', `/applications/${thirdPartyId}/sign-in-experience`, branding)).status).toBe(201);
    expect((await call('PUT', `/applications/${thirdPartyId}/sign-in-experience`, branding)).status).toBe(200);
    const firstParty = await call('PUT', `/applications/${clientId}/sign-in-experience`, branding);
    expect(firstParty.status).toBe(400);
    expect(((await firstParty.json()) as { code: string }).code).toBe('application.third_party_application_only');
    expect((await call('PUT', '/applications/nosuchapp/sign-in-experience', branding)).status).toBe(404);
    const badUrl = await call('PUT', `/applications/${thirdPartyId}/sign-in-experience`, { termsOfUseUrl: 'ftp://x' });
    expect(badUrl.status).toBe(400);

    const jar = new CookieJar();
    const first = await signInTo(partner(), jar, 'login consent');
    const html = (await first.page?.text()) ?? '';
    expect(html).toContain('Partner Calendar wants to access your account');
    expect(html).toContain('src="https://partner.example.com/logo.png"');
    expect(html).toContain('href="https://partner.example.com/terms"');
    await call('PUT', `/applications/${thirdPartyId}/sign-in-experience`, {});
  });

  it('lists the remembered grant on the user and revokes it: the application must ask again', async () => {
    const call = (method: string, path: string) =>
      fetch(`${server.base}/api${path}`, { method, headers: { Authorization: `Bearer ${adminToken}` } });
    const listed = await call('GET', `/users/${consentingUserId}/grants?appType=thirdParty`);
    expect(listed.status).toBe(200);
    const grants = (await listed.json()) as { id: string; application: { name: string }; scopes: string[] }[];
    expect(grants).toHaveLength(1);
    expect(grants[0]?.application.name).toBe('Partner <Calendar>');
    expect(grants[0]?.scopes).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
    const firstParty = (await (await call('GET', `/users/${consentingUserId}/grants?appType=firstParty`)).json()) as {
      application: { isThirdParty: boolean } | null;
    }[];
    expect(firstParty.every((grant) => !grant.application?.isThirdParty)).toBe(true);
    expect((await call('GET', '/users/nosuchuser1/grants')).status).toBe(404);

    expect((await call('DELETE', `/users/${consentingUserId}/grants/${grants[0]?.id}`)).status).toBe(204);
    expect((await call('DELETE', `/users/${consentingUserId}/grants/${grants[0]?.id}`)).status).toBe(404);
    const after = (await (await call('GET', `/users/${consentingUserId}/grants?appType=thirdParty`)).json()) as [];
    expect(after).toEqual([]);
    const jar = new CookieJar();
    const again = await signInTo(partner(), jar, 'login');
    expect(await again.page?.text(), 'consent asked again').toContain('wants to access your account');
  });

  it('never asks for a first-party application', async () => {
    const jar = new CookieJar();
    const { verifier, signInPage } = await spa().startAuthorization(jar, { scope: 'openid profile email' });
    const submitted = await spa().submit(jar, signInPage, 'consenting_user', 'Consent-Pass-42');
    const callback = await spa().followToCallback(jar, submitted);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(verifier).toBeTruthy();
  });
});

describe('refresh tokens', () => {
  it('a first-party application asking for offline_access gets a refresh token without prompt=consent', async () => {
    const jar = new CookieJar();
    const { verifier, signInPage } = await spa().startAuthorization(jar, {
      scope: 'openid offline_access',
      extra: { prompt: 'login' },
    });
    const submitted = await spa().submit(jar, signInPage, 'consenting_user', 'Consent-Pass-42');
    const callback = await spa().followToCallback(jar, submitted);
    const tokens = await spa().redeemCode(callback.searchParams.get('code') ?? '', verifier);
    expect(tokens.status).toBe(200);
    const body = (await tokens.json()) as { refresh_token?: string; scope?: string };
    expect(body.refresh_token, JSON.stringify(body)).toBeTruthy();
    expect(body.scope).toContain('offline_access');
  });
});

describe('the discovery document', () => {
  it('advertises only what a registered application can use', async () => {
    const discovery = (await (await fetch(`${server.base}/oidc/.well-known/openid-configuration`)).json()) as Record<
      string,
      string[]
    >;
    expect(discovery.response_types_supported).toEqual(['code']);
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'none']);
    expect(discovery.grant_types_supported).not.toContain('implicit');
  });
});
