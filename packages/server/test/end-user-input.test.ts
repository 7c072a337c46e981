import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * Input the database cannot store (a NUL character, an escape that does not decode) in the parameters and forms of the
 * OIDC endpoints and the sign-in pages: refused with a 400 the caller can read (an OAuth error, or a page), never a
 * 500 (issue 37 item 8). The management API has its own guard (test/input-guard.test.ts).
 */
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let clientId: string;
const redirectUri = 'https://nul.example.com/callback';

beforeAll(async () => {
  server = await startTestHttpServer();
  const token = await bootstrapManagementToken(server);
  const created = await fetch(`${server.base}/api/applications`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'NUL SPA', type: 'SPA', oidcClientMetadata: { redirectUris: [redirectUri] } }),
  });
  clientId = String(((await created.json()) as { id: string }).id);
});
afterAll(() => server.close());

const bad = ['%00', 'a%00b', '%E0%A4%A'];

describe('NUL characters and broken escapes at the end-user endpoints', () => {
  it('are refused with a 400 by every OIDC endpoint, in the URL and in a form body', async () => {
    const paths = [
      (v: string) => `/oidc/auth?client_id=${v}&response_type=code&redirect_uri=${redirectUri}&scope=openid`,
      (v: string) => `/oidc/auth?client_id=${clientId}&response_type=code&redirect_uri=${v}&scope=openid`,
      (v: string) =>
        `/oidc/auth?client_id=${clientId}&response_type=code&redirect_uri=${redirectUri}&scope=openid&state=${v}&code_challenge=x&code_challenge_method=S256`,
      (v: string) => `/oidc/session/end?post_logout_redirect_uri=${v}`,
      (v: string) => `/oidc/.well-known/openid-configuration?x=${v}`,
      (v: string) => `/oidc/jwks?${v}=1`,
      (v: string) => `/oidc/me?access_token=${v}`,
      (v: string) => `/t/${v}/oidc/auth`,
    ];
    for (const value of bad) {
      for (const path of paths) {
        const response = await fetch(`${server.base}${path(value)}`, { redirect: 'manual' });
        expect(response.status, `${path(value)}`).toBeLessThan(500);
      }
      for (const endpoint of ['token', 'token/introspection', 'token/revocation']) {
        const response = await fetch(`${server.base}/oidc/${endpoint}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `grant_type=authorization_code&client_id=${clientId}&code=${value}&token=${value}&redirect_uri=${value}`,
        });
        expect(response.status, `${endpoint} ${value}`).toBeLessThan(500);
        // A token that cannot exist is unknown: introspection says inactive, revocation has nothing to do (RFC 7009).
        if (endpoint === 'token') expect(response.status, `${endpoint} ${value}`).toBe(400);
        else expect(await response.text()).not.toContain('"active":true');
      }
    }
  });

  it('are refused with a 400 page by the sign-in pages, in the URL and in a form body', async () => {
    const flow = oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });
    const jar = new CookieJar();
    const { signInPage } = await flow.startAuthorization(jar, { scope: 'openid' });
    const said = await jar.fetch(`${signInPage}?screen=%00`, { headers: { 'Accept-Language': 'de' } });
    expect(said.status).toBe(400);
    expect(await said.text()).toContain('Diese Anfrage konnte nicht gelesen werden.');
    for (const value of bad) {
      for (const url of [
        `${signInPage}?screen=${value}`,
        `${signInPage}${value}`,
        `${server.base}/interaction/${value}/x`,
        `${server.base}/interaction/${DEFAULT_TENANT_ID}/theme.css?organization=${value}`,
        `${server.base}/callback/social/${DEFAULT_TENANT_ID}/x?code=${value}&state=${value}`,
        `${server.base}/callback/sso/${DEFAULT_TENANT_ID}/x?code=${value}`,
        `${server.base}/enterprise-sso/${DEFAULT_TENANT_ID}/${value}/saml-metadata`,
      ]) {
        const response = await jar.fetch(url);
        expect(response.status, url).toBeLessThan(500);
      }
      for (const step of [
        'login',
        'identifier',
        'register',
        'code-sign-in',
        'forgot-password',
        'sso',
        'mfa',
        'consent',
      ]) {
        const response = await jar.fetch(`${signInPage}/${step}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `identifier=${value}&password=${value}&email=${value}&username=${value}&code=${value}`,
        });
        expect(response.status, `${step} ${value}`).toBeLessThan(500);
      }
    }
  });
});
