import { DEFAULT_TENANT_ID, generateId } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { applications, logs } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp, generateClientSecret } from '../src/services/machine-apps.ts';
import { startTestHttpServer } from './support/http-server.ts';

let database: DatabaseHandle;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const server = await startTestHttpServer();
  ({ database, base, close } = server);
});
afterAll(() => close());

const tenant = () => new TenantDb(database.db, DEFAULT_TENANT_ID);
const actor = { type: 'system', id: 'test' } as const;

function requestToken(clientId: string, clientSecret: string, params: Record<string, string>) {
  return fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...params }),
  });
}

describe('OIDC issuers', () => {
  it('serve discovery per tenant and 404 for an unknown tenant', async () => {
    const response = await fetch(`${base}/oidc/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as { issuer: string; token_endpoint: string };
    expect(discovery.issuer).toBe(`${base}/oidc`);
    expect(discovery.token_endpoint).toBe(`${base}/oidc/token`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const admin = (await (await fetch(`${base}/t/admin/oidc/.well-known/openid-configuration`)).json()) as {
      issuer: string;
    };
    expect(admin.issuer).toBe(`${base}/t/admin/oidc`);
    expect((await fetch(`${base}/t/nobody/oidc/.well-known/openid-configuration`)).status).toBe(404);
  });
});

describe('machine-to-machine management tokens', () => {
  it('a machine app with the management role gets a token that the management API accepts', async () => {
    const { clientId, clientSecret } = await createManagementMachineApp(tenant(), actor, 'ci robot');
    const response = await requestToken(clientId, clientSecret, {
      resource: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string; scope: string };
    expect(body.token_type).toBe('Bearer');
    expect(body.scope).toBe('all');
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({
      iss: `${base}/oidc`,
      aud: managementResource(DEFAULT_TENANT_ID),
      client_id: clientId,
    });

    const created = await fetch(`${base}/api/roles`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${body.access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'made-with-client-credentials' }),
    });
    expect(created.status).toBe(200);
    const logs = await fetch(`${base}/api/logs?applicationId=${clientId}`, {
      headers: { Authorization: `Bearer ${body.access_token}` },
    });
    const [entry] = (await logs.json()) as { key: string; payload: { actor: unknown } }[];
    expect(entry).toMatchObject({
      key: 'Admin.Role.Created',
      payload: { actor: { type: 'application', id: clientId } },
    });
  });

  it('refuses a wrong secret, an unknown client and an unknown resource', async () => {
    const { clientId, clientSecret } = await createManagementMachineApp(tenant(), actor, 'refused robot');
    const resource = managementResource(DEFAULT_TENANT_ID);
    const wrongSecret = await requestToken(clientId, 'not-the-secret', { resource, scope: 'all' });
    expect(wrongSecret.status).toBe(401);
    expect(((await wrongSecret.json()) as { error: string }).error).toBe('invalid_client');
    const unknownClient = await requestToken('no-such-client', clientSecret, { resource, scope: 'all' });
    expect(unknownClient.status).toBe(401);
    const unknownResource = await requestToken(clientId, clientSecret, {
      resource: 'https://elsewhere.example/api',
      scope: 'all',
    });
    expect(unknownResource.status).toBe(400);
    expect(((await unknownResource.json()) as { error: string }).error).toBe('invalid_target');
  });

  it('a machine app without the role is not granted the scope, and its token is refused by the API', async () => {
    const secret = generateClientSecret();
    const app = await tenant().insert(applications, {
      id: generateId(),
      name: 'no role',
      secret,
      type: 'MachineToMachine',
    });
    const resource = managementResource(DEFAULT_TENANT_ID);
    // OAuth lets the server grant fewer scopes than asked: the token comes without `all`.
    const response = await requestToken(app.id, secret, { resource, scope: 'all' });
    expect(response.status).toBe(200);
    const { access_token, scope } = (await response.json()) as { access_token: string; scope?: string };
    expect(scope ?? '').not.toContain('all');
    expect(String(decodeJwt(access_token).scope ?? '')).not.toContain('all');
    const denied = await fetch(`${base}/api/roles`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(denied.status).toBe(403);
  });

  it('the machine app creation is audited without the secret', async () => {
    const { clientId, clientSecret } = await createManagementMachineApp(tenant(), actor, 'audited robot');
    const entries = await tenant().findMany(logs, { where: eq(logs.key, 'Admin.Application.Created') });
    const text = JSON.stringify(entries);
    expect(text).toContain(clientId);
    expect(text).not.toContain(clientSecret);
  });
});
