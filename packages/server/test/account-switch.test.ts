import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * Signing in as another account in a browser that holds a session: the provider signs the first account out (its
 * sign-out form, then the interaction goes on) and the second account reaches the application. The first account's
 * grant is revoked by that sign-out; the interaction started under it must outlive it.
 */

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let token: string;
let clientId: string;
const redirectUri = 'https://switch.example.com/callback';
const password = 'Switch-Account-Pass-42';

async function api(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.base}/api${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  server = await startTestHttpServer();
  token = await bootstrapManagementToken(server);
  clientId = String(
    (
      await api('/applications', {
        name: 'Switch SPA',
        type: 'SPA',
        oidcClientMetadata: { redirectUris: [redirectUri] },
      })
    ).id,
  );
});
afterAll(() => server.close());

it('a second account signs in over the first one’s session, after the provider signs the first out', async () => {
  const first = String((await api('/users', { username: 'switch_first', password })).id);
  const second = String((await api('/users', { username: 'switch_second', password })).id);
  const flow = oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });
  const jar = new CookieJar();
  const signIn = async (username: string) => {
    const { verifier, signInPage } = await flow.startAuthorization(jar, {
      scope: 'openid',
      extra: { prompt: 'login' },
    });
    return { verifier, answer: await flow.submit(jar, signInPage, username, password) };
  };
  const subjectOf = async (callback: URL, verifier: string) => {
    const redeemed = await flow.redeemCode(callback.searchParams.get('code') ?? '', verifier);
    expect(redeemed.status).toBe(200);
    return decodeJwt(((await redeemed.json()) as { id_token: string }).id_token).sub;
  };

  const a = await signIn('switch_first');
  expect(await subjectOf(await flow.followToCallback(jar, a.answer), a.verifier)).toBe(first);

  const b = await signIn('switch_second');
  // The provider's sign-out of the first account: a form that posts itself to the end-session confirmation.
  const resumed = await jar.fetch(flow.absolute(b.answer.headers.get('Location') ?? ''));
  expect(resumed.status).toBe(200);
  const html = await resumed.text();
  const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
  expect(action).toContain('/session/end/confirm');
  const fields = Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const confirmed = await flow.submitForm(jar, action, fields as Record<string, string>);
  expect(confirmed.status).toBe(303);
  const callback = await flow.followToCallback(jar, confirmed);
  expect(await subjectOf(callback, b.verifier)).toBe(second);
});
