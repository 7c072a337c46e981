import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { startTestHttpServer } from './support/http-server.ts';

/**
 * RFC 8693 token exchange of a personal access token (issue 24, the reference's grant), with the real provider: a
 * confidential application gets a JWT access token of the token's user for an API, with the scopes the user's roles
 * grant there; expired, deleted or unknown tokens, suspended users and public clients get nothing.
 */

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const PAT_TYPE = 'urn:logto:token-type:personal_access_token';

let base: string;
let close: () => Promise<void>;
let adminToken: string;

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

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

const api1 = { name: 'Things', indicator: 'https://things.example.com/api' };
let userId: string;
let machine: { clientId: string; secret: string };
let web: { clientId: string; secret: string };
let spaId: string;

async function confidentialApp(type: string, extra: Record<string, unknown> = {}) {
  const app = await api('/applications', { method: 'POST', body: { name: `${type} app`, type, ...extra } });
  const secret = await api(`/applications/${app.id}/secrets`, { method: 'POST', body: { name: 'test' } });
  return { clientId: String(app.id), secret: String(secret.value) };
}

function exchange(client: { clientId: string; secret?: string }, params: Record<string, string>) {
  return fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(client.secret ? { Authorization: basic(client.clientId, client.secret) } : {}),
    },
    body: new URLSearchParams({
      grant_type: GRANT,
      subject_token_type: PAT_TYPE,
      ...(client.secret ? {} : { client_id: client.clientId }),
      ...params,
    }),
  });
}

/** A token endpoint answer: its JSON fields as text. */
const read = async (response: Response) => (await response.json()) as Record<string, string | undefined>;

async function newPat(name: string, expiresAt?: number): Promise<string> {
  const created = await api(`/users/${userId}/personal-access-tokens`, {
    method: 'POST',
    body: { name, ...(expiresAt ? { expiresAt } : {}) },
  });
  return String(created.value);
}

beforeAll(async () => {
  const server = await startTestHttpServer();
  ({ base, close } = server);
  const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
  const bootstrap = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'bootstrap');
  const token = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: basic(bootstrap.clientId, bootstrap.clientSecret),
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      resource: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    }),
  });
  adminToken = ((await token.json()) as { access_token: string }).access_token;

  const resource = await api('/resources', { method: 'POST', body: api1 });
  const read = await api(`/resources/${resource.id}/scopes`, { method: 'POST', body: { name: 'read:things' } });
  await api(`/resources/${resource.id}/scopes`, { method: 'POST', body: { name: 'write:things' } });
  const user = await api('/users', { method: 'POST', body: { username: 'pat_exchanger' } });
  userId = String(user.id);
  const role = await api('/roles', { method: 'POST', body: { name: 'reader', type: 'User', scopeIds: [read.id] } });
  await api(`/roles/${role.id}/users`, { method: 'POST', body: { userIds: [userId] } });

  machine = await confidentialApp('MachineToMachine');
  web = await confidentialApp('Traditional', { oidcClientMetadata: { redirectUris: ['https://web.example.com/cb'] } });
  const spa = await api('/applications', {
    method: 'POST',
    body: { name: 'spa', type: 'SPA', oidcClientMetadata: { redirectUris: ['https://spa.example.com/cb'] } },
  });
  spaId = String(spa.id);
});
afterAll(() => close());

describe('token exchange of a personal access token', () => {
  it("gives a confidential application a JWT of the token's user for the resource, with the user's scopes", async () => {
    const pat = await newPat('exchange');
    for (const client of [machine, web]) {
      const response = await exchange(client, { subject_token: pat, resource: api1.indicator });
      const body = await read(response);
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({
        token_type: 'Bearer',
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        scope: 'read:things',
        expires_in: expect.any(Number),
      });
      expect(body.refresh_token).toBeUndefined();
      const claims = decodeJwt(body.access_token ?? '');
      expect(claims).toMatchObject({
        sub: userId,
        aud: api1.indicator,
        scope: 'read:things',
        client_id: client.clientId,
      });
    }
    // A requested scope the user does not hold is left out.
    const narrowed = await exchange(machine, { subject_token: pat, resource: api1.indicator, scope: 'write:things' });
    expect(narrowed.status).toBe(200);
    expect((await read(narrowed)).scope).toBeUndefined();
  });

  it('refuses an unknown, deleted or expired token, a suspended user, and a wrong token type', async () => {
    const expectError = async (response: Response, status: number, error: string) => {
      const body = await read(response);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(body.error).toBe(error);
    };
    const params = (subject_token: string) => ({ subject_token, resource: api1.indicator });
    await expectError(await exchange(machine, params('pat_unknownunknownunknownunknown00')), 400, 'invalid_grant');

    const deleted = await newPat('deleted');
    await api(`/users/${userId}/personal-access-tokens/deleted`, { method: 'DELETE' });
    await expectError(await exchange(machine, params(deleted)), 400, 'invalid_grant');

    const pat = await newPat('suspension');
    await api(`/users/${userId}/is-suspended`, { method: 'PATCH', body: { isSuspended: true } });
    await expectError(await exchange(machine, params(pat)), 400, 'invalid_grant');
    await api(`/users/${userId}/is-suspended`, { method: 'PATCH', body: { isSuspended: false } });
    expect((await exchange(machine, params(pat))).status).toBe(200);

    await expectError(
      await exchange(machine, { ...params(pat), subject_token_type: 'urn:ietf:params:oauth:token-type:access_token' }),
      400,
      'invalid_request',
    );
    await expectError(
      await exchange(machine, { subject_token: pat, resource: 'https://unknown.example.com' }),
      400,
      'invalid_target',
    );
  });

  it('is not open to a public application', async () => {
    const pat = await newPat('public');
    const response = await exchange({ clientId: spaId }, { subject_token: pat, resource: api1.indicator });
    const body = await read(response);
    expect(response.status, JSON.stringify(body)).toBe(400);
    // oidc-provider's answer for a grant type the client may not use.
    expect(body).toEqual({
      error: 'invalid_request',
      error_description: 'requested grant type is not allowed for this client',
    });
  });
});
