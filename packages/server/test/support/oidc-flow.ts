import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { expect } from 'vitest';
import { managementResource } from '../../src/auth/issuers.ts';
import type { CookieJar } from './http-server.ts';

/** Which issuer and client a flow signs in with; the console's own by default. */
export type OidcClientOptions = {
  tenantId: string;
  clientId: string;
  redirectUri: string;
  /** Resources the authorization request names when a step does not say otherwise. */
  defaultResources: string[];
};

/**
 * The console's side of an OIDC sign-in against a running test server, step by step, as a browser
 * and oidc-client-ts would do it (authorization code + PKCE, prompt login consent).
 */
export function consoleClient(base: string) {
  return oidcClient(base, {
    tenantId: ADMIN_TENANT_ID,
    clientId: 'admin-console',
    redirectUri: `${base}/console/callback`,
    defaultResources: [managementResource(DEFAULT_TENANT_ID)],
  });
}

/** The same steps for any tenant's public client (an SPA or native app of that tenant). */
export function oidcClient(base: string, { tenantId, clientId, redirectUri, defaultResources }: OidcClientOptions) {
  const issuer = tenantId === DEFAULT_TENANT_ID ? `${base}/oidc` : `${base}/t/${tenantId}/oidc`;
  const absolute = (location: string) => new URL(location, base).toString();

  async function startAuthorization(
    jar: CookieJar,
    options: { resources?: string[]; scope?: string; extra?: Record<string, string> } = {},
  ) {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const params = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: options.scope ?? 'openid profile offline_access all',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'state-123',
      prompt: 'login consent',
      ...options.extra,
    });
    for (const resource of options.resources ?? defaultResources) {
      params.append('resource', resource);
    }
    const response = await jar.fetch(`${issuer}/auth?${params}`);
    expect(response.status).toBe(303);
    const signInPage = absolute(response.headers.get('Location') ?? '');
    expect(new URL(signInPage).pathname).toMatch(new RegExp(`^/interaction/${tenantId}/[\\w-]+$`));
    return { verifier, signInPage };
  }

  function submitForm(jar: CookieJar, url: string, fields: Record<string, string>, language = 'en') {
    return jar.fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': language },
      body: new URLSearchParams(fields),
    });
  }

  function submit(jar: CookieJar, signInPage: string, identifier: string, password: string, language = 'en') {
    return submitForm(jar, `${signInPage}/login`, { identifier, password }, language);
  }

  /** Follows redirects until the client's redirect URI; returns that URL (code and state). */
  async function followToCallback(jar: CookieJar, first: Response): Promise<URL> {
    let response = first;
    for (let hops = 0; hops < 10; hops++) {
      const location = response.headers.get('Location');
      expect(location, `hop ${hops} redirects (status ${response.status})`).toBeTruthy();
      const next = absolute(location ?? '');
      if (next.startsWith(redirectUri)) return new URL(next);
      response = await jar.fetch(next);
    }
    throw new Error('too many redirects');
  }

  function token(fields: Record<string, string>) {
    return fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, ...fields }),
    });
  }

  /** The console's token request: redeem an authorization code with its PKCE verifier. */
  function redeemCode(code: string, verifier: string, extra: Record<string, string> = {}) {
    return token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      ...extra,
    });
  }

  function refresh(refreshToken: string, resource: string) {
    return token({ grant_type: 'refresh_token', refresh_token: refreshToken, resource });
  }

  return {
    issuer,
    redirectUri,
    absolute,
    startAuthorization,
    submit,
    submitForm,
    followToCallback,
    redeemCode,
    refresh,
  };
}
