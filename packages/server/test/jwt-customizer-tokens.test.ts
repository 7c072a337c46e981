import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpReceiver } from './support/http-receiver.ts';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * Custom JWT in real tokens (issue 22): scripts run at issuance, and an independent relying-party library
 * (openid-client 6) receives the tokens: authorization code, refresh, client credentials and organization tokens carry
 * the script's claims; `api.denyAccess` refuses the token with its message; reserved claims stay the provider's.
 */

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
let token: string;
const redirectUri = 'https://shop.example.com/callback';
const resource = 'https://api.shop.example.com';

type Json = Record<string, unknown>;
async function api(method: string, path: string, body?: unknown, expected?: number) {
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (expected === undefined) expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
  else expect(response.status, text).toBe(expected);
  return (text ? JSON.parse(text) : {}) as Json;
}

let m2m: { id: string; secret: string };
let spaId: string;
let userId: string;
let organizationId: string;

beforeAll(async () => {
  receiver = await startHttpReceiver();
  server = await startTestHttpServer({ CUSTOM_JWT_FETCH_ALLOW_LIST: receiver.url });
  token = await bootstrapManagementToken(server);
  await api('POST', '/resources', { name: 'Shop API', indicator: resource });
  const machine = await api('POST', '/applications', { name: 'Nightly job', type: 'MachineToMachine' });
  const secret = await api('POST', `/applications/${String(machine.id)}/secrets`, { name: 'ci' });
  m2m = { id: String(machine.id), secret: String(secret.value) };
  await api('PATCH', `/applications/${m2m.id}`, { customData: { team: 'billing' } });
  const spa = await api('POST', '/applications', {
    name: 'Acme Shop',
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [redirectUri] },
  });
  spaId = String(spa.id);
  const user = await api('POST', '/users', {
    username: 'olive',
    password: 'Olive-Branch-77',
    customData: { plan: 'pro' },
  });
  userId = String(user.id);
  const role = await api('POST', '/roles', { name: 'editor', description: 'Edits' });
  await api('POST', `/users/${userId}/roles`, { roleIds: [role.id] });
  const organization = await api('POST', '/organizations', { name: 'Acme' });
  organizationId = String(organization.id);
  await api('POST', `/organizations/${organizationId}/users`, { userIds: [userId] });
}, 60_000);

afterAll(async () => {
  await server.close();
  await receiver.close();
});

async function m2mConfig(): Promise<client.Configuration> {
  return client.discovery(new URL(`${server.base}/oidc`), m2m.id, m2m.secret, client.ClientSecretBasic(m2m.secret), {
    execute: [client.allowInsecureRequests],
  });
}

/** An OAuth error from openid-client: its `error` and `error_description`. */
async function refusal(promise: Promise<unknown>): Promise<{ error?: string; error_description?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { error?: string; error_description?: string };
  }
  throw new Error('the token was issued');
}

describe('machine-to-machine tokens', () => {
  it('carry the claims of the client-credentials script, its variables and context, reserved claims untouched', async () => {
    await api(
      'PUT',
      '/configs/jwt-customizer/client-credentials',
      {
        script: `const getCustomJwtClaims = async ({ token, context, environmentVariables }) => ({
          tier: environmentVariables.TIER,
          team: context.application.customData.team,
          grant: context.grant.type,
          seen_aud: token.aud,
          sub: 'forged', aud: 'https://evil.example.com', scope: 'all', client_id: 'forged', iss: 'https://evil.example.com',
        });`,
        environmentVariables: { TIER: 'gold' },
      },
      201,
    );
    const tokens = await client.clientCredentialsGrant(await m2mConfig(), { resource });
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      tier: 'gold',
      team: 'billing',
      grant: 'client_credentials',
      seen_aud: resource,
      sub: m2m.id,
      aud: resource,
      client_id: m2m.id,
      iss: `${server.base}/oidc`,
    });
    expect(claims.scope).toBeUndefined();
    const logs = await api('GET', '/logs?logKey=JwtCustomizer.ClientCredentials');
    expect(logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: 'JwtCustomizer.ClientCredentials',
          payload: expect.objectContaining({
            result: 'Success',
            droppedClaims: ['sub', 'aud', 'scope', 'client_id', 'iss'],
          }),
        }),
      ]),
    );
  });

  it('are refused with the message of api.denyAccess', async () => {
    await api('PATCH', '/configs/jwt-customizer/client-credentials', {
      script: `const getCustomJwtClaims = async ({ api }) => { api.denyAccess('Billing is suspended'); };`,
    });
    const refused = await refusal(client.clientCredentialsGrant(await m2mConfig(), { resource }));
    expect(refused).toMatchObject({ error: 'access_denied', error_description: 'Billing is suspended' });
  });

  it('follow "block issuance on error": refused when on, issued without the claims when off', async () => {
    await api('PATCH', '/configs/jwt-customizer/client-credentials', {
      script: "const getCustomJwtClaims = async () => { throw new Error('ledger unavailable'); };",
      blockIssuanceOnError: true,
    });
    const refused = await refusal(client.clientCredentialsGrant(await m2mConfig(), { resource }));
    expect(refused.error).toBe('access_denied');
    await api('PATCH', '/configs/jwt-customizer/client-credentials', { blockIssuanceOnError: false });
    const tokens = await client.clientCredentialsGrant(await m2mConfig(), { resource });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ sub: m2m.id, aud: resource });
    const logs = (await api('GET', '/logs?logKey=JwtCustomizer.ClientCredentials')) as unknown as Json[];
    expect(logs[0]).toMatchObject({
      payload: { result: 'Error', issued: true, error: { name: 'Error', message: 'ledger unavailable' } },
    });
    // The server answered the management API all along.
    await api('GET', '/configs/jwt-customizer');
  });

  it('may fetch from an allow-listed API and nowhere else', async () => {
    receiver.respondWith(200, JSON.stringify({ quota: 42 }));
    await api('PUT', '/configs/jwt-customizer/client-credentials', {
      script: `const getCustomJwtClaims = async ({ token, environmentVariables }) => {
        const response = await fetch(environmentVariables.URL + '/quota?client=' + token.client_id);
        return { quota: (await response.json()).quota };
      };`,
      environmentVariables: { URL: receiver.url },
    });
    const tokens = await client.clientCredentialsGrant(await m2mConfig(), { resource });
    expect(decodeJwt(tokens.access_token).quota).toBe(42);
    expect(receiver.received.at(-1)?.path).toBe(`/quota?client=${m2m.id}`);
    await api('PATCH', '/configs/jwt-customizer/client-credentials', {
      environmentVariables: { URL: 'http://127.0.0.1:9' },
      blockIssuanceOnError: true,
    });
    expect((await refusal(client.clientCredentialsGrant(await m2mConfig(), { resource }))).error).toBe('access_denied');
    await api('DELETE', '/configs/jwt-customizer/client-credentials', undefined, 204);
    const plain = await client.clientCredentialsGrant(await m2mConfig(), { resource });
    expect(decodeJwt(plain.access_token).quota).toBeUndefined();
  });
});

describe('user tokens', () => {
  let config: client.Configuration;
  const oidc = () =>
    oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId: spaId, redirectUri, defaultResources: [] });

  beforeAll(async () => {
    config = await client.discovery(new URL(`${server.base}/oidc`), spaId, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
  });

  async function signIn(scope: string) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope,
      resource,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const jar = new CookieJar();
    const first = await jar.fetch(url.href);
    const page = oidc().absolute(first.headers.get('Location') ?? '');
    const login = await jar.fetch(`${page}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ identifier: 'olive', password: 'Olive-Branch-77' }),
    });
    expect(login.status, await login.clone().text()).toBe(303);
    const callback = await oidc().followToCallback(jar, login);
    return client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  }

  it('carry the access-token script claims from the user context, through the code grant, refresh and organization tokens', async () => {
    await api('PUT', '/configs/jwt-customizer/access-token', {
      script: `const getCustomJwtClaims = async ({ token, context }) => ({
        plan: context.user.customData.plan,
        roles: context.user.roles.map((role) => role.name),
        organizations: context.user.organizations.map((organization) => organization.name),
        app: context.application.name,
        grant: context.grant.type,
        org: token.organization_id ?? null,
        exp: 1,
      });`,
    });
    const tokens = await signIn('openid offline_access urn:gatehouse:scope:organizations');
    const access = decodeJwt(tokens.access_token);
    expect(access).toMatchObject({
      plan: 'pro',
      roles: ['editor'],
      organizations: ['Acme'],
      app: 'Acme Shop',
      grant: 'authorization_code',
      org: null,
      sub: userId,
      aud: resource,
    });
    expect(access.exp).toBeGreaterThan(Math.floor(Date.now() / 1000));
    // ID tokens are not customized.
    expect(tokens.claims()?.plan).toBeUndefined();

    const refreshed = await client.refreshTokenGrant(config, String(tokens.refresh_token), { resource });
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ plan: 'pro', grant: 'refresh_token' });

    const organization = await client.refreshTokenGrant(
      config,
      String(refreshed.refresh_token ?? tokens.refresh_token),
      {
        organization_id: organizationId,
      },
    );
    expect(decodeJwt(organization.access_token)).toMatchObject({
      plan: 'pro',
      org: organizationId,
      organization_id: organizationId,
    });
  });

  it('are refused with the message of api.denyAccess', async () => {
    await api('PATCH', '/configs/jwt-customizer/access-token', {
      script: `const getCustomJwtClaims = async ({ context, api }) => {
        if (context.user.customData.plan === 'pro') api.denyAccess('Pro accounts use the other shop');
        return {};
      };`,
    });
    const refused = await refusal(signIn('openid'));
    expect(refused).toMatchObject({ error: 'access_denied', error_description: 'Pro accounts use the other shop' });
    await api('DELETE', '/configs/jwt-customizer/access-token', undefined, 204);
  });

  it('put only the enabled extended claims in the ID token', async () => {
    await api('PUT', '/configs/id-token', { enabledExtendedClaims: ['custom_data'] });
    const tokens = await signIn('openid custom_data roles urn:gatehouse:scope:organizations');
    const claims: Record<string, unknown> = tokens.claims() ?? {};
    expect(claims.custom_data).toEqual({ plan: 'pro' });
    expect(claims.roles).toBeUndefined();
    expect(claims.organizations).toBeUndefined();
    await api('PUT', '/configs/id-token', { enabledExtendedClaims: ['custom_data', 'roles', 'organizations'] });
    const again = (await signIn('openid custom_data roles urn:gatehouse:scope:organizations')).claims() ?? {};
    expect(again).toMatchObject({ custom_data: { plan: 'pro' }, roles: ['editor'], organizations: [organizationId] });
  });
});
