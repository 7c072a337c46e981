// @vitest-environment happy-dom
import { OidcClient } from 'oidc-client-ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleConfig } from './console-config.ts';
import { oidcSettings } from './oidc-settings.ts';
import { signInRequestUrl } from './sign-in-redirect.ts';

const config: ConsoleConfig = {
  edition: 'cloud',
  version: '0.1.0',
  adminExists: true,
  issuer: 'http://127.0.0.1:3001/oidc',
  clientId: 'admin-console',
  resource: 'https://default.gatehouse.app/api',
  meResource: 'https://admin.gatehouse.app/me',
};
const authorizationEndpoint = 'http://127.0.0.1:3001/oidc/auth';

/** The OIDC client with the console's settings (session.ts), its discovery document given instead of fetched. */
const client = () =>
  new OidcClient({
    ...oidcSettings(config),
    metadata: { issuer: config.issuer, authorization_endpoint: authorizationEndpoint },
  });

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      expect(url).toBe(`${config.issuer}/.well-known/openid-configuration`);
      return new Response(JSON.stringify({ issuer: config.issuer, authorization_endpoint: authorizationEndpoint }));
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** The request's parameters but the random ones, in order. */
const fixedParams = (url: string) =>
  [...new URL(url).searchParams].filter(([key]) => key !== 'state' && key !== 'code_challenge');

describe('the sign-in started without the OIDC client', () => {
  it('sends the request the OIDC client sends (signinRedirect with the console settings)', async () => {
    const ours = await signInRequestUrl(config);
    const theirs = (await client().createSigninRequest({ request_type: 'si:r' })).url;
    expect(ours.split('?')[0]).toBe(authorizationEndpoint);
    expect(fixedParams(ours)).toEqual(fixedParams(theirs));
    const signUp = await signInRequestUrl(config, { signUp: true });
    const theirsSignUp = (
      await client().createSigninRequest({ request_type: 'si:r', extraQueryParams: { interaction_mode: 'signUp' } })
    ).url;
    expect(fixedParams(signUp)).toEqual(fixedParams(theirsSignUp));
  });

  it('stores a pending sign-in the OIDC client redeems on the callback, with the challenge of its verifier', async () => {
    const url = new URL(await signInRequestUrl(config));
    const state = url.searchParams.get('state');
    const callback = `${window.location.origin}/console/callback?code=abc&state=${state}`;
    const { state: stored } = await client().readSigninResponseState(callback);
    expect(stored.id).toBe(state);
    expect(stored.request_type).toBe('si:r');
    expect(stored.code_verifier).toMatch(/^[0-9a-f]{96}$/);
    // SigninState recomputes the challenge from the stored verifier: it must be the one the request carried.
    expect(stored.code_challenge).toBe(url.searchParams.get('code_challenge'));
    expect(stored).toMatchObject({
      authority: config.issuer,
      client_id: config.clientId,
      redirect_uri: `${window.location.origin}/console/callback`,
      scope: oidcSettings(config).scope,
      extraTokenParams: { resource: config.resource },
    });
  });

  it('clears stale pending sign-ins as the OIDC client does, and keeps fresh ones', async () => {
    const now = Math.floor(Date.now() / 1000);
    localStorage.setItem('oidc.old', JSON.stringify({ id: 'old', created: now - 901 }));
    localStorage.setItem('oidc.broken', '{not json');
    localStorage.setItem('oidc.recent', JSON.stringify({ id: 'recent', created: now - 60 }));
    localStorage.setItem('gatehouse:language', 'de');
    await signInRequestUrl(config);
    expect(localStorage.getItem('oidc.old')).toBeNull();
    expect(localStorage.getItem('oidc.broken')).toBeNull();
    expect(localStorage.getItem('oidc.recent')).not.toBeNull();
    expect(localStorage.getItem('gatehouse:language')).toBe('de');
  });
});
