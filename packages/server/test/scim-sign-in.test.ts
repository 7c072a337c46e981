import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoConnectors, userSsoIdentities, users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { applyIdentityLink } from '../src/services/identity-linker.ts';
import { signInWithSsoProfile } from '../src/services/sso-account.ts';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';
import { CORE_USER, PATCH_OP } from './support/scim.ts';

/**
 * What provisioning does to signing in, on the real server: a user the directory deactivates loses their refresh token
 * at once (the OIDC token endpoint refuses it), and a user the directory created signs in through the connection's SSO
 * connector into that same account (the identity is linked, no second account is made).
 */

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let token = '';
let scimToken = '';
let connectorId = '';
const redirectUri = 'https://app.example.test/callback';
let clientId = '';

type Json = Record<string, unknown> & { id: string };
async function api(method: string, path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
  return (text ? JSON.parse(text) : {}) as Json;
}
async function scim(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.base}/scim/v2${path}`, {
    method,
    headers: { Authorization: `Bearer ${scimToken}`, 'Content-Type': 'application/scim+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Json };
}
const tenant = () => new TenantDb(server.database.db, DEFAULT_TENANT_ID);

beforeAll(async () => {
  server = await startTestHttpServer();
  token = await bootstrapManagementToken(server);
  const connector = await api('POST', '/sso-connectors', {
    providerName: 'OIDC',
    connectorName: 'Fabrikam',
    domains: ['fabrikam.test'],
  });
  connectorId = connector.id;
  const connection = await api('POST', '/scim-connections', {
    name: 'Fabrikam directory',
    ssoConnectorId: connectorId,
  });
  scimToken = String(connection.token);
  const app = await api('POST', '/applications', {
    name: 'Fabrikam app',
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [redirectUri] },
  });
  clientId = app.id;
});
afterAll(() => server.close());

describe('deactivation by the directory', () => {
  it("refuses the user's refresh token at once", async () => {
    const created = await scim('POST', '/Users', {
      schemas: [CORE_USER],
      userName: 'mallory@fabrikam.test',
      emails: [{ primary: true, value: 'mallory@fabrikam.test' }],
    });
    expect(created.status).toBe(201);
    const userId = created.json.id;
    // A username and password to sign in with here (the directory's users normally come through SSO).
    await api('PATCH', `/users/${userId}`, { username: 'mallory' });
    await api('PATCH', `/users/${userId}/password`, { password: 'Scim-Provisioned-42' });

    const oidc = oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar, { scope: 'openid offline_access' });
    const callback = await oidc.followToCallback(
      jar,
      await oidc.submit(jar, signInPage, 'mallory', 'Scim-Provisioned-42'),
    );
    const redeemed = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier);
    expect(redeemed.status).toBe(200);
    const refreshToken = ((await redeemed.json()) as { refresh_token?: string }).refresh_token ?? '';
    expect(refreshToken).not.toBe('');
    const refreshed = await oidc.refresh(refreshToken, '');
    expect(refreshed.status, 'works while active').toBe(200);
    const rotated = ((await refreshed.json()) as { refresh_token: string }).refresh_token;

    // Entra ID's deactivation: `active` as the string "False" in a replace.
    const disabled = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.status).toBe(200);
    const refused = await oidc.refresh(rotated, '');
    expect(refused.status, 'refused at once after the directory deactivated the user').toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');
  });
});

describe('signing in through the connection’s SSO connector', () => {
  it('reaches the provisioned account by its email, outside the connector’s domains too, and links the identity', async () => {
    const created = await scim('POST', '/Users', {
      schemas: [CORE_USER],
      userName: 'Dana.Scully@contractors.test',
      emails: [{ primary: true, value: 'Dana.Scully@contractors.test' }],
    });
    expect(created.status).toBe(201);
    const connector = await tenant().findOne(ssoConnectors, eq(ssoConnectors.id, connectorId));
    if (!connector) throw new Error('connector missing');
    const before = await tenant().count(users);
    const signIn = (identityId: string, email: string) =>
      signInWithSsoProfile(
        tenant(),
        connector,
        { issuer: 'https://idp.fabrikam.test', identityId, email, raw: {} },
        { registration: true },
        {},
      );
    const result = await signIn('sub-dana', 'dana.scully@contractors.test');
    expect(result).toMatchObject({ ok: true, userId: created.json.id, created: false, linked: true });
    if (!result.ok) throw new Error('refused');
    expect(result.detail).toMatchObject({ linkedBy: 'scim' });
    expect(await tenant().count(users), 'no second account').toBe(before);

    // The link is applied when the sign-in completes; written here as completeSignIn does, the next sign-in finds it.
    const { link, userId } = result;
    if (!link) throw new Error('no link');
    await tenant().transaction((tx) => applyIdentityLink(tx, userId, link));
    const identities = await tenant().findMany(userSsoIdentities, {
      where: sql`${userSsoIdentities.userId} = ${created.json.id}`,
    });
    expect(identities.map((identity) => identity.identityId)).toEqual(['sub-dana']);

    // Someone the directory did not provision, outside the connector's domains, is still refused.
    const stranger = await signIn('sub-stranger', 'stranger@contractors.test');
    expect(stranger).toEqual({ ok: false, reason: 'email_domain' });
  });
});
