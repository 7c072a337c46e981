import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { seededIds } from '../src/db/seed.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { startTestHttpServer } from './support/http-server.ts';

/** Applications made through the management API are real OIDC clients of the tenant's provider. */

let base: string;
let close: () => Promise<void>;
let tenant: TenantDb;
let adminToken: string;

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function clientCredentials(clientId: string, secret: string) {
  return fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic(clientId, secret) },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      resource: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    }),
  });
}

async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${base}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${init.token ?? adminToken}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  const server = await startTestHttpServer();
  ({ base, close } = server);
  tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
  // Bootstrap as an operator would, with the CLI's machine app, then work only through the API.
  const bootstrap = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'bootstrap');
  const token = await clientCredentials(bootstrap.clientId, bootstrap.clientSecret);
  adminToken = ((await token.json()) as { access_token: string }).access_token;
});
afterAll(() => close());

describe('applications created through the API as OIDC clients', () => {
  it('a machine-to-machine app with a named secret and the management role gets a working token', async () => {
    const app = await api('/applications', { method: 'POST', body: { name: 'deploy bot', type: 'MachineToMachine' } });
    expect(app.status).toBe(200);
    const clientId = String(app.json.id);
    const secret = await api(`/applications/${clientId}/secrets`, { method: 'POST', body: { name: 'ci' } });
    expect(secret.status).toBe(201);
    const assigned = await api(`/applications/${clientId}/roles`, {
      method: 'POST',
      body: { roleIds: [seededIds.managementRole] },
    });
    expect(assigned.status).toBe(201);

    const response = await clientCredentials(clientId, secret.json.value);
    expect(response.status, 'the named secret authenticates the client').toBe(200);
    const body = (await response.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe('all');
    const roles = await api('/roles', { token: body.access_token });
    expect(roles.status, 'the management API accepts the token').toBe(200);

    const wrong = await clientCredentials(clientId, `${secret.json.value}x`);
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('stops accepting a secret once it is deleted or expired, while another one keeps working', async () => {
    const app = await api('/applications', {
      method: 'POST',
      body: { name: 'rotating bot', type: 'MachineToMachine' },
    });
    const clientId = String(app.json.id);
    const old = await api(`/applications/${clientId}/secrets`, { method: 'POST', body: { name: 'old' } });
    const expiring = await api(`/applications/${clientId}/secrets`, {
      method: 'POST',
      body: { name: 'expiring', expiresAt: Date.now() + 2_000 },
    });
    const fresh = await api(`/applications/${clientId}/secrets`, { method: 'POST', body: { name: 'new' } });
    for (const secret of [old, expiring, fresh]) {
      expect((await clientCredentials(clientId, secret.json.value)).status, secret.json.name).toBe(200);
    }

    expect((await api(`/applications/${clientId}/secrets/old`, { method: 'DELETE' })).status).toBe(204);
    expect((await clientCredentials(clientId, old.json.value)).status, 'a deleted secret').toBe(401);
    // Expired by the clock (the server keeps the application's secrets between requests: no row changes at expiry).
    const expiresAt = Number(expiring.json.expiresAt);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now() + 50)));
    expect((await clientCredentials(clientId, expiring.json.value)).status, 'an expired secret').toBe(401);
    expect((await clientCredentials(clientId, fresh.json.value)).status, 'the other secret').toBe(200);
  });

  it('a traditional web app authenticates with its named secret (token introspection)', async () => {
    const app = await api('/applications', {
      method: 'POST',
      body: { name: 'web', type: 'Traditional', oidcClientMetadata: { redirectUris: ['https://web.example.com/cb'] } },
    });
    const clientId = String(app.json.id);
    const secret = await api(`/applications/${clientId}/secrets`, { method: 'POST', body: { name: 'server' } });
    const introspect = (password: string) =>
      fetch(`${base}/oidc/token/introspection`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic(clientId, password) },
        body: new URLSearchParams({ token: 'not-a-token' }),
      });
    const accepted = await introspect(secret.json.value);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ active: false });
    expect((await introspect('guess')).status).toBe(401);
  });

  it.each([
    ['SPA', 'https://spa.example.com/callback'],
    ['Native', 'com.example.app:/oauth2redirect'],
    ['Traditional', 'http://localhost:3000/callback'],
  ])('a %s app starts an authorization code flow to its redirect URI %s', async (type, redirectUri) => {
    const app = await api('/applications', {
      method: 'POST',
      body: { name: `${type} client`, type, oidcClientMetadata: { redirectUris: [redirectUri] } },
    });
    expect(app.status).toBe(200);
    const params = new URLSearchParams({
      client_id: String(app.json.id),
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
      state: 'state-1',
    });
    const response = await fetch(`${base}/oidc/auth?${params}`, { redirect: 'manual' });
    expect(response.status, await response.clone().text()).toBe(303);
    expect(new URL(response.headers.get('Location') ?? '', base).pathname).toMatch(/^\/interaction\/default\//);

    const unregistered = new URLSearchParams(params);
    unregistered.set('redirect_uri', 'https://attacker.example.com/cb');
    const refused = await fetch(`${base}/oidc/auth?${unregistered}`, { redirect: 'manual' });
    expect(refused.status, 'an unregistered redirect URI is refused').toBe(400);
  });
});
