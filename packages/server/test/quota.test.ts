import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TENANT_ID, freePlanQuota } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { tenantSubscriptions } from '../src/db/tables.ts';
import { calendarMonth } from '../src/services/subscriptions.ts';
import { createTestApp } from './support/app.ts';
import { type CloudAccount, call, createCloudAccount, tenantToken } from './support/cloud-accounts.ts';
import { startTestHttpServer } from './support/http-server.ts';

/**
 * Quota enforcement in the cloud edition (spec §9): on a Free production tenant every limited create succeeds up
 * to the limit and is refused one past it with 403 `subscription.quota_exceeded`, saving nothing; a Development
 * tenant allows more. OSS (quota-oss below) never refuses.
 */

let base: string;
let db: Database;
let close: () => Promise<void>;
let dataDir: string;
let alice: CloudAccount;
const free = { id: '', token: '' };
const dev = { id: '', token: '' };

const api = (tenant: { id: string; token: string }, path: string, init: { method?: string; body?: unknown } = {}) =>
  call(base, `/m/${tenant.id}/api${path}`, tenant.token, init);

async function expectRefused(
  tenant: { id: string; token: string },
  path: string,
  body: unknown,
  key: string,
  listPath = path,
) {
  const before = (await api(tenant, listPath)).json;
  const refused = await api(tenant, path, { method: 'POST', body });
  expect(refused.status, JSON.stringify(refused.json)).toBe(403);
  expect(refused.json.code).toBe('subscription.quota_exceeded');
  expect(refused.json.message).toEqual(expect.any(String));
  expect(Object.keys(refused.json.data.quota)).toEqual([key]);
  expect(refused.json.data.quota[key].limit).toBe(freePlanQuota[key as keyof typeof freePlanQuota]);
  // Nothing of the refused write remains.
  expect((await api(tenant, listPath)).json).toEqual(before);
}

const spa = (name: string) => ({ name, type: 'SPA', oidcClientMetadata: { redirectUris: ['https://app.example/cb'] } });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-quota-'));
  const server = await startTestHttpServer({ EDITION: 'cloud', DATA_DIR: dataDir });
  ({ base, close } = server);
  db = server.database.db;
  alice = await createCloudAccount(db, base, 'alice');
  const created = await call(base, '/api/tenants', alice.cloud, {
    method: 'POST',
    body: { name: 'Free one', tag: 'production' },
  });
  expect(created.json).toMatchObject({ planId: 'Free', tag: 'production' });
  free.id = created.json.id;
  const development = await call(base, '/api/tenants', alice.cloud, { method: 'POST', body: { name: 'Dev one' } });
  expect(development.json).toMatchObject({ planId: 'Development', tag: 'development' });
  dev.id = development.json.id;
  // Refreshing the organization token after the tenants exist: they are in the account's organizations now.
  free.token = await tenantToken(base, alice, free.id);
  dev.token = await tenantToken(base, alice, dev.id);
}, 60_000);
afterAll(async () => {
  await close?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('quota on a Free production tenant', () => {
  it('applications: 3 own apps, 1 machine-to-machine, no third-party, no SAML', async () => {
    for (const name of ['One', 'Two', 'Three'])
      expect((await api(free, '/applications', { method: 'POST', body: spa(name) })).status).toBe(200);
    await expectRefused(free, '/applications', spa('Four'), 'applicationsLimit');
    expect(
      (await api(free, '/applications', { method: 'POST', body: { name: 'Robot', type: 'MachineToMachine' } })).status,
    ).toBe(200);
    await expectRefused(free, '/applications', { name: 'Robot 2', type: 'MachineToMachine' }, 'machineToMachineLimit');
    await expectRefused(
      free,
      '/applications',
      { ...spa('Partner'), type: 'Traditional', isThirdParty: true },
      'thirdPartyApplicationsLimit',
    );
    await expectRefused(free, '/saml-applications', { name: 'SAML' }, 'samlApplicationsLimit', '/applications');
  });

  it('resources (the management API not counted) and scopes per resource', async () => {
    const resource = await api(free, '/resources', {
      method: 'POST',
      body: { name: 'Orders', indicator: 'https://orders.example' },
    });
    expect(resource.status).toBe(201);
    await expectRefused(
      free,
      '/resources',
      { name: 'Billing', indicator: 'https://billing.example' },
      'resourcesLimit',
    );
    const scopes = `/resources/${resource.json.id}/scopes`;
    expect((await api(free, scopes, { method: 'POST', body: { name: 'read:orders' } })).status).toBe(201);
    await expectRefused(free, scopes, { name: 'write:orders' }, 'scopesPerResourceLimit');
  });

  it('roles by type, and scopes per role at creation and when assigned', async () => {
    const [resource] = (await api(free, '/resources')).json.filter((r: { name: string }) => r.name === 'Orders');
    const [scope] = (await api(free, `/resources/${resource.id}/scopes`)).json;
    const userRole = await api(free, '/roles', {
      method: 'POST',
      body: { name: 'Viewer', description: 'Reads', type: 'User', scopeIds: [scope.id] },
    });
    expect(userRole.status).toBe(200);
    await expectRefused(free, '/roles', { name: 'Editor', description: 'Edits', type: 'User' }, 'userRolesLimit');
    const m2m = await api(free, '/roles', {
      method: 'POST',
      body: { name: 'Robot role', description: 'Machines', type: 'MachineToMachine' },
    });
    expect(m2m.status).toBe(200);
    await expectRefused(
      free,
      '/roles',
      { name: 'Robot role 2', description: 'Machines', type: 'MachineToMachine' },
      'machineToMachineRolesLimit',
    );
    // The Free plan allows one scope per role: the M2M role takes one, a second is refused (nothing assigned).
    const roleScopes = `/roles/${m2m.json.id}/scopes`;
    expect((await api(free, roleScopes, { method: 'POST', body: { scopeIds: [scope.id] } })).status).toBe(201);
    const refused = await api(free, `/roles/${userRole.json.id}/scopes`, {
      method: 'POST',
      body: { scopeIds: ['nosuchscope'] },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.data.quota).toEqual({ scopesPerRoleLimit: { limit: 1, usage: 1 } });
  });

  it('hooks and organizations', async () => {
    const hook = { name: 'CRM', events: ['User.Created'], config: { url: 'https://hooks.example.com/x' } };
    expect((await api(free, '/hooks', { method: 'POST', body: hook })).status).toBe(201);
    await expectRefused(free, '/hooks', { ...hook, name: 'CRM 2' }, 'hooksLimit');
    await expectRefused(free, '/organizations', { name: 'Acme' }, 'organizationsLimit');
  });

  it('MFA is a plan feature: an authenticator for a user is refused on Free, allowed on Development', async () => {
    const user = (tenant: { id: string; token: string }) =>
      api(tenant, '/users', { method: 'POST', body: { username: `mfa_${tenant.id}` } }).then(
        (r) => r.json.id as string,
      );
    const freeUser = await user(free);
    const refused = await api(free, `/users/${freeUser}/mfa-verifications`, { method: 'POST', body: { type: 'Totp' } });
    expect(refused.status, JSON.stringify(refused.json)).toBe(403);
    expect(refused.json).toMatchObject({
      code: 'subscription.quota_exceeded',
      data: { quota: { mfaEnabled: { limit: false, usage: 0 } } },
    });
    expect((await api(free, `/users/${freeUser}/mfa-verifications`)).json).toEqual([]);
    const devUser = await user(dev);
    const allowed = await api(dev, `/users/${devUser}/mfa-verifications`, { method: 'POST', body: { type: 'Totp' } });
    expect(allowed.status, JSON.stringify(allowed.json)).toBe(201);
  });

  it('custom JWT is a plan feature: a script is refused on Free (nothing saved), allowed on Development', async () => {
    const script = { script: 'const getCustomJwtClaims = async () => ({ a: 1 });' };
    const path = '/configs/jwt-customizer/access-token';
    const refused = await api(free, path, { method: 'PUT', body: script });
    expect(refused.status, JSON.stringify(refused.json)).toBe(403);
    expect(refused.json).toMatchObject({
      code: 'subscription.quota_exceeded',
      data: { quota: { customJwtEnabled: { limit: false, usage: 0 } } },
    });
    expect((await api(free, '/configs/jwt-customizer')).json).toEqual([]);
    expect((await api(dev, path, { method: 'PUT', body: script })).status).toBe(201);
  });

  it('tenant members: the creator fills the Free plan, an invitation is refused', async () => {
    const path = `/api/tenants/${free.id}/invitations`;
    const refused = await call(base, path, alice.cloud, {
      method: 'POST',
      body: { invitee: 'bob@example.com', roleName: 'collaborator' },
    });
    expect(refused.status, JSON.stringify(refused.json)).toBe(403);
    expect(refused.json.data.quota).toEqual({ tenantMembersLimit: { limit: 1, usage: 1 } });
    expect((await call(base, path, alice.cloud)).json).toEqual([]);
  });

  it('lets only one of two concurrent creates at the limit through', async () => {
    // A fresh Free tenant: two hooks at once against a limit of one.
    const created = await call(base, '/api/tenants', alice.cloud, {
      method: 'POST',
      body: { name: 'Race', tag: 'production' },
    });
    const race = { id: created.json.id as string, token: await tenantToken(base, alice, created.json.id) };
    const hook = (name: string) => ({ name, events: ['User.Created'], config: { url: 'https://hooks.example.com/r' } });
    const results = await Promise.all(
      ['A', 'B', 'C', 'D'].map((name) => api(race, '/hooks', { method: 'POST', body: hook(name) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403, 403]);
    expect((await api(race, '/hooks')).json).toHaveLength(1);
  });
});

describe('quota on a Development tenant', () => {
  it('allows past the Free numbers', async () => {
    for (const name of ['One', 'Two', 'Three', 'Four']) {
      expect((await api(dev, '/applications', { method: 'POST', body: spa(name) })).status).toBe(200);
    }
    for (const name of ['A', 'B']) {
      expect((await api(dev, '/organizations', { method: 'POST', body: { name } })).status).toBe(201);
    }
  });
});

describe('quota in the OSS edition', () => {
  it('never refuses, even with the default tenant on the Free plan', async () => {
    const oss = await createTestApp();
    try {
      const { start, end } = calendarMonth();
      await oss.db.insert(tenantSubscriptions).values({
        tenantId: DEFAULT_TENANT_ID,
        planId: 'Free',
        currentPeriodStart: start,
        currentPeriodEnd: end,
      });
      for (const name of ['One', 'Two', 'Three', 'Four']) {
        expect((await oss.call('/api/applications', { method: 'POST', body: spa(name) })).status).toBe(200);
      }
      for (const name of ['Acme', 'Globex']) {
        expect((await oss.call('/api/organizations', { method: 'POST', body: { name } })).status).toBe(201);
      }
      const hook = { events: ['User.Created'], config: { url: 'https://hooks.example.com/x' } };
      for (const name of ['A', 'B']) {
        expect((await oss.call('/api/hooks', { method: 'POST', body: { ...hook, name } })).status).toBe(201);
      }
    } finally {
      await oss.close();
    }
  });
});
