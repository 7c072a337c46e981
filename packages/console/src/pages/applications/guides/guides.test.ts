import { describe, expect, it } from 'vitest';
import { tenantEndpoints } from '../../../api/tenant-endpoints.ts';
import { guideContext, guideSteps } from './guides.ts';

const config = { issuer: 'https://id.example.com/t/admin/oidc', resource: 'https://default.gatehouse.internal/api' };
const endpoints = {
  ...tenantEndpoints(config, undefined),
  tokenEndpoint: 'https://id.example.com/oidc/token',
};

function app(type: 'SPA' | 'Native', redirectUris: string[], postLogoutRedirectUris: string[] = []) {
  return { id: 'client123', type, oidcClientMetadata: { redirectUris, postLogoutRedirectUris } };
}

const allCode = (guide: Parameters<typeof guideSteps>[0], context: ReturnType<typeof guideContext>) =>
  guideSteps(guide, context)
    .map((step) => step.code?.text ?? '')
    .join('\n');

describe('tenant endpoints', () => {
  it('follow the server naming: /oidc for the default tenant, /t/{id}/oidc for the others', () => {
    expect(tenantEndpoints(config, undefined)).toEqual({
      publicUrl: 'https://id.example.com',
      issuer: 'https://id.example.com/oidc',
      discoveryUrl: 'https://id.example.com/oidc/.well-known/openid-configuration',
      managementApi: 'https://id.example.com/api',
      managementResource: 'https://default.gatehouse.internal/api',
    });
    const cloud = tenantEndpoints({ ...config, issuer: 'https://id.example.com/sub/t/admin/oidc' }, 'acme');
    expect(cloud).toMatchObject({
      publicUrl: 'https://id.example.com/sub',
      issuer: 'https://id.example.com/sub/t/acme/oidc',
      managementApi: 'https://id.example.com/sub/m/acme/api',
      managementResource: 'https://acme.gatehouse.internal/api',
    });
    expect(tenantEndpoints(config, 'default').issuer).toBe('https://id.example.com/oidc');
  });
});

describe('guides', () => {
  it('fill this application’s client ID, issuer and redirect URIs into the React guide', () => {
    const context = guideContext(
      'react',
      app('SPA', ['https://shop.example.com/cb'], ['https://shop.example.com/']),
      endpoints,
    );
    const code = allCode('react', context);
    expect(code).toContain("client_id: 'client123'");
    expect(code).toContain("authority: 'https://id.example.com/oidc'");
    expect(code).toContain("redirect_uri: 'https://shop.example.com/cb'");
    expect(code).toContain("post_logout_redirect_uri: 'https://shop.example.com/'");
    expect(context.missing).toEqual({ redirectUri: false, postLogoutRedirectUri: false });
  });

  it('use examples, and say so, for URIs the application does not have yet', () => {
    const context = guideContext('native', app('Native', []), endpoints);
    expect(context.missing).toEqual({ redirectUri: true, postLogoutRedirectUri: true });
    expect(allCode('native', context)).toContain("redirectUrl: 'com.example.app://callback'");
    const withRedirect = guideContext('native', app('Native', ['com.shop.app://cb']), endpoints);
    expect(allCode('native', withRedirect)).toContain("appAuthRedirectScheme: 'com.shop.app'");
    expect(withRedirect.postLogoutRedirectUri).toBe('com.example.app://signed-out');
  });

  it('derive the Express base URL and callback path from the first redirect URI', () => {
    const context = guideContext('express', app('SPA', ['https://web.example.com:8443/auth/callback']), endpoints);
    const code = allCode('express', context);
    expect(code).toContain("baseURL: 'https://web.example.com:8443'");
    expect(code).toContain("routes: { callback: '/auth/callback', postLogoutRedirect: '/' }");
    expect(code).toContain('app.listen(8443);');
  });

  it('give the machine-to-machine guide the token endpoint and the management API resource, never a secret', () => {
    const context = guideContext('m2m', app('SPA', []), endpoints);
    const code = allCode('m2m', context);
    expect(code).toContain("curl 'https://id.example.com/oidc/token'");
    expect(code).toContain('-u \'client123:\'"$CLIENT_SECRET"');
    expect(code).toContain("resource='https://default.gatehouse.internal/api'");
    expect(code).toContain("curl 'https://id.example.com/api/applications'");
    expect(context.missing).toEqual({ redirectUri: false, postLogoutRedirectUri: false });
  });

  it('quote values so a URI cannot break out of the example code', () => {
    const context = guideContext('react', app('SPA', ["https://x.example.com/cb?a='b'"]), endpoints);
    expect(allCode('react', context)).toContain("redirect_uri: 'https://x.example.com/cb?a=\\'b\\''");
  });
});
