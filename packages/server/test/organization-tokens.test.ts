import {
  DEFAULT_TENANT_ID,
  ORGANIZATION_ROLES_SCOPE,
  ORGANIZATIONS_SCOPE,
  organizationAudience,
} from '@gatehouse/schemas';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * Organization tokens, end to end over HTTP: a user signs in through the real pages with the organizations scope,
 * then exchanges the refresh token for tokens of one organization; a machine-to-machine app asks with client
 * credentials. The tokens carry exactly the scopes the member's organization roles grant, checked per request.
 */

let base: string;
let close: () => Promise<void>;
let adminToken: string;
const user = { username: 'org_token_user', password: 'Org-Token-Pass-42' };
const spaOrigin = 'https://spa.example.com';
const redirectUri = `${spaOrigin}/callback`;
const apiIndicator = 'https://reports.example.com/api';
const ids = { user: '', spa: '', org: '', otherOrg: '', robot: '', robotSecret: '' };

type TokenResponse = { access_token: string; id_token?: string; refresh_token?: string; scope?: string };

// biome-ignore lint/suspicious/noExplicitAny: test responses are read loosely and checked by the expectations.
async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const response = await fetch(`${base}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${adminToken}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  expect(response.ok, `${init.method ?? 'GET'} ${path}: ${response.status} ${text}`).toBe(true);
  return text ? JSON.parse(text) : undefined;
}

const oidc = () =>
  oidcClient(base, { tenantId: DEFAULT_TENANT_ID, clientId: ids.spa, redirectUri, defaultResources: [] });

async function signIn(scope: string): Promise<TokenResponse> {
  const flow = oidc();
  const jar = new CookieJar();
  const { verifier, signInPage } = await flow.startAuthorization(jar, { scope });
  const callback = await flow.followToCallback(jar, await flow.submit(jar, signInPage, user.username, user.password));
  const response = await flow.redeemCode(callback.searchParams.get('code') ?? '', verifier);
  expect(response.status).toBe(200);
  return (await response.json()) as TokenResponse;
}

function tokenRequest(fields: Record<string, string>, authorization?: string) {
  return fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: new URLSearchParams(fields),
  });
}

const organizationToken = (refreshToken: string, organizationId: string, extra: Record<string, string> = {}) =>
  tokenRequest({
    client_id: ids.spa,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    organization_id: organizationId,
    ...extra,
  });

const robotAuthorization = () => `Basic ${Buffer.from(`${ids.robot}:${ids.robotSecret}`).toString('base64')}`;

beforeAll(async () => {
  const server = await startTestHttpServer();
  ({ base, close } = server);
  const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
  const bootstrap = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'bootstrap');
  const token = await tokenRequest(
    { grant_type: 'client_credentials', resource: managementResource(DEFAULT_TENANT_ID), scope: 'all' },
    `Basic ${Buffer.from(`${bootstrap.clientId}:${bootstrap.clientSecret}`).toString('base64')}`,
  );
  adminToken = ((await token.json()) as TokenResponse).access_token;

  ids.user = (await api('/users', { method: 'POST', body: user })).id;
  ids.spa = (
    await api('/applications', {
      method: 'POST',
      body: { name: 'Org token SPA', type: 'SPA', oidcClientMetadata: { redirectUris: [redirectUri] } },
    })
  ).id;
  const robot = await api('/applications', { method: 'POST', body: { name: 'Org robot', type: 'MachineToMachine' } });
  ids.robot = robot.id;
  ids.robotSecret = (await api(`/applications/${robot.id}/secrets`, { method: 'POST', body: { name: 'sync' } })).value;

  const reports = await api('/resources', { method: 'POST', body: { name: 'Reports', indicator: apiIndicator } });
  const invoices = await api(`/resources/${reports.id}/scopes`, { method: 'POST', body: { name: 'read:invoices' } });
  await api(`/resources/${reports.id}/scopes`, { method: 'POST', body: { name: 'write:invoices' } });
  const read = await api('/organization-scopes', { method: 'POST', body: { name: 'read:reports' } });
  const write = await api('/organization-scopes', { method: 'POST', body: { name: 'write:reports' } });
  const viewer = await api('/organization-roles', {
    method: 'POST',
    body: { name: 'viewer', organizationScopeIds: [read.id], resourceScopeIds: [invoices.id] },
  });
  const sync = await api('/organization-roles', {
    method: 'POST',
    body: { name: 'sync', type: 'MachineToMachine', organizationScopeIds: [read.id, write.id] },
  });

  ids.org = (await api('/organizations', { method: 'POST', body: { name: 'Acme' } })).id;
  ids.otherOrg = (await api('/organizations', { method: 'POST', body: { name: 'Globex' } })).id;
  await api(`/organizations/${ids.org}/users`, { method: 'POST', body: { userIds: [ids.user] } });
  await api(`/organizations/${ids.org}/users/${ids.user}/roles`, {
    method: 'POST',
    body: { organizationRoleIds: [viewer.id] },
  });
  await api(`/organizations/${ids.org}/applications`, { method: 'POST', body: { applicationIds: [ids.robot] } });
  await api(`/organizations/${ids.org}/applications/${ids.robot}/roles`, {
    method: 'POST',
    body: { organizationRoleIds: [sync.id] },
  });
});
afterAll(() => close());

describe('id token claims', () => {
  it('name the organizations and the organization roles when those scopes are granted', async () => {
    const tokens = await signIn(`openid ${ORGANIZATIONS_SCOPE} ${ORGANIZATION_ROLES_SCOPE}`);
    const claims = decodeJwt(tokens.id_token ?? '');
    expect(claims.organizations).toEqual([ids.org]);
    expect(claims.organization_roles).toEqual([`${ids.org}:viewer`]);

    const plain = decodeJwt((await signIn('openid')).id_token ?? '');
    expect(plain.organizations, 'not asked for, not given').toBeUndefined();
    expect(plain.organization_roles).toBeUndefined();
  });
});

describe('user organization tokens', () => {
  it("carry the organization permissions of the member's roles, signed by the tenant", async () => {
    const { refresh_token: refreshToken = '' } = await signIn(`openid offline_access ${ORGANIZATIONS_SCOPE}`);
    const response = await organizationToken(refreshToken, ids.org);
    expect(response.status).toBe(200);
    const body = (await response.json()) as TokenResponse;
    expect(body.scope).toBe('read:reports');
    const { payload } = await jwtVerify(body.access_token, createRemoteJWKSet(new URL(`${base}/oidc/jwks`)), {
      issuer: `${base}/oidc`,
      audience: organizationAudience(ids.org),
    });
    expect(payload).toMatchObject({ sub: ids.user, organization_id: ids.org, scope: 'read:reports' });

    const narrowed = await organizationToken(refreshToken, ids.org, { scope: 'read:reports write:reports' });
    expect(((await narrowed.json()) as TokenResponse).scope, 'a permission not held is not granted').toBe(
      'read:reports',
    );
    const again = await organizationToken(refreshToken, ids.org);
    expect(again.status, 'the refresh token is only read, not rotated').toBe(200);
  });

  it("carry an API resource's permissions granted through organization roles when a resource is named", async () => {
    const { refresh_token: refreshToken = '' } = await signIn(`openid offline_access ${ORGANIZATIONS_SCOPE}`);
    const response = await organizationToken(refreshToken, ids.org, { resource: apiIndicator });
    expect(response.status).toBe(200);
    const body = (await response.json()) as TokenResponse;
    expect(body.scope).toBe('read:invoices');
    expect(decodeJwt(body.access_token)).toMatchObject({ aud: apiIndicator, organization_id: ids.org });

    const unknown = await organizationToken(refreshToken, ids.org, { resource: 'https://nowhere.example.com' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe('invalid_target');
  });

  it('are refused outside the organization, and stop when the membership ends', async () => {
    const { refresh_token: refreshToken = '' } = await signIn(`openid offline_access ${ORGANIZATIONS_SCOPE}`);
    const outsider = await organizationToken(refreshToken, ids.otherOrg);
    expect(outsider.status).toBe(400);
    expect(((await outsider.json()) as { error: string }).error).toBe('access_denied');

    const temporary = (await api('/organizations', { method: 'POST', body: { name: 'Initech' } })).id;
    await api(`/organizations/${temporary}/users`, { method: 'POST', body: { userIds: [ids.user] } });
    expect((await organizationToken(refreshToken, temporary)).status, 'joined after sign-in').toBe(200);
    await api(`/organizations/${temporary}/users/${ids.user}`, { method: 'DELETE' });
    expect((await organizationToken(refreshToken, temporary)).status, 'left').toBe(400);
  });

  it('need a refresh token granted the organizations scope, of this client', async () => {
    const { refresh_token: withoutScope = '' } = await signIn('openid offline_access');
    const refused = await organizationToken(withoutScope, ids.org);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');

    expect((await organizationToken('not-a-token', ids.org)).status).toBe(400);
  });

  it('leave the plain refresh-token grant as it was', async () => {
    const { refresh_token: refreshToken = '' } = await signIn(`openid offline_access ${ORGANIZATIONS_SCOPE}`);
    const plain = await tokenRequest({ client_id: ids.spa, grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(plain.status).toBe(200);
    const body = (await plain.json()) as TokenResponse;
    expect(body.refresh_token, 'rotated as before').toBeTruthy();
    expect(body.refresh_token).not.toBe(refreshToken);
    expect(decodeJwt(body.id_token ?? '').sub).toBe(ids.user);
  });

  it('are refused to a suspended user', async () => {
    const { refresh_token: refreshToken = '' } = await signIn(`openid offline_access ${ORGANIZATIONS_SCOPE}`);
    await api(`/users/${ids.user}/is-suspended`, { method: 'PATCH', body: { isSuspended: true } });
    try {
      const refused = await organizationToken(refreshToken, ids.org);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');
    } finally {
      await api(`/users/${ids.user}/is-suspended`, { method: 'PATCH', body: { isSuspended: false } });
    }
  });
});

describe('machine-to-machine organization tokens', () => {
  it("carry the application's organization role permissions, and are refused outside the organization", async () => {
    const response = await tokenRequest(
      { grant_type: 'client_credentials', organization_id: ids.org },
      robotAuthorization(),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as TokenResponse;
    expect(body.scope).toBe('read:reports write:reports');
    expect(decodeJwt(body.access_token)).toMatchObject({
      sub: ids.robot,
      aud: organizationAudience(ids.org),
      organization_id: ids.org,
    });

    const outsider = await tokenRequest(
      { grant_type: 'client_credentials', organization_id: ids.otherOrg },
      robotAuthorization(),
    );
    expect(outsider.status).toBe(400);
    expect(((await outsider.json()) as { error: string }).error).toBe('access_denied');

    const plain = await tokenRequest(
      { grant_type: 'client_credentials', resource: managementResource(DEFAULT_TENANT_ID), scope: 'all' },
      robotAuthorization(),
    );
    expect(plain.status, 'plain client credentials are unchanged').toBe(200);
    expect(((await plain.json()) as TokenResponse).scope, 'no management role, no management scope').toBeUndefined();
  });
});
