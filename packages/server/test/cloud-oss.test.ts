import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID, managementResourceIndicator } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, tenants } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createTenant } from '../src/services/tenants.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/** The OSS edition serves the default tenant only: no cloud API, no /m/{tenant}; and the console config in both. */

let oss: TestApp;
let cloud: TestApp;
beforeAll(async () => {
  oss = await createTestApp();
  cloud = await createTestApp({ EDITION: 'cloud' });
});
afterAll(async () => {
  await oss.close();
  await cloud.close();
});

describe('OSS edition', () => {
  it('has no cloud API and answers /m/* with tenant.only_default_in_oss', async () => {
    for (const path of ['/api/tenants', '/api/invitations', `/api/.well-known/endpoints/${DEFAULT_TENANT_ID}`]) {
      const response = await oss.call(path);
      expect(response.status, path).toBe(404);
      expect(response.json.code).toBe('route.not_found');
    }
    expect((await oss.call('/api/tenants', { method: 'POST', body: { name: 'x' } })).status).toBe(404);
    for (const path of ['/m/x/api/roles', '/m/default/api/roles', '/m/anything']) {
      const response = await oss.call(path);
      expect(response.status, path).toBe(404);
      expect(response.json.code).toBe('tenant.only_default_in_oss');
    }
    const config = await oss.call('/api/.well-known/console', { auth: false });
    expect(config.json.resource).toBe(managementResourceIndicator(DEFAULT_TENANT_ID));
  });

  it('keeps the admin-console config per tenant, merged by PATCH and audited', async () => {
    const defaults = { signInExperienceCustomized: false, organizationCreated: false };
    expect((await oss.call('/api/configs/admin-console')).json).toEqual(defaults);
    expect((await oss.call('/api/configs/admin-console', { auth: false })).status).toBe(401);
    for (const body of [
      { developmentTenantMigrationNotification: { readAt: 'soon' } },
      { developmentTenantMigrationNotification: { readAt: -1 } },
      { signInExperienceCustomized: 'yes' },
    ]) {
      const response = await oss.call('/api/configs/admin-console', { method: 'PATCH', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const first = await oss.call('/api/configs/admin-console', {
      method: 'PATCH',
      body: { developmentTenantMigrationNotification: {} },
    });
    expect(first.json).toEqual({ ...defaults, developmentTenantMigrationNotification: {} });
    const second = await oss.call('/api/configs/admin-console', {
      method: 'PATCH',
      body: { developmentTenantMigrationNotification: { readAt: 42 } },
    });
    expect(second.status).toBe(200);
    expect(second.json).toEqual({ ...defaults, developmentTenantMigrationNotification: { readAt: 42 } });
    expect((await oss.call('/api/configs/admin-console')).json).toEqual(second.json);
    // Nothing changed (an empty body, an unknown key dropped as the reference drops it): answered, not audited.
    for (const body of [{}, { other: 1 }]) {
      const same = await oss.call('/api/configs/admin-console', { method: 'PATCH', body });
      expect(same.status, JSON.stringify(body)).toBe(200);
      expect(same.json).toEqual(second.json);
    }
    const logs = await oss.call('/api/logs?logKey=Admin.AdminConsoleConfig.Updated');
    expect(logs.json).toHaveLength(2);
  });
});

describe('cloud edition in process', () => {
  it('leaves nothing behind when a tenant creation fails half-way', async () => {
    const before = await cloud.db.select().from(tenants);
    const organizationsBefore = await new TenantDb(cloud.db, ADMIN_TENANT_ID).count(organizations);
    // The creator does not exist: the membership insert fails after the tenant row and its seed.
    await expect(
      createTenant(cloud.db, { actor: { type: 'user', id: 'ghost' } }, 'nosuchuser1', { name: 'Half' }),
    ).rejects.toThrow();
    expect(await cloud.db.select().from(tenants)).toEqual(before);
    expect(await new TenantDb(cloud.db, ADMIN_TENANT_ID).count(organizations)).toBe(organizationsBefore);
  });

  it('answers 401 on the cloud API for a management token of the admin issuer', async () => {
    const response = await cloud.call('/api/tenants');
    expect(response.status).toBe(401);
    expect(response.json.code).toBe('auth.unauthorized');
    expect((await cloud.call('/api/nosuchroute')).json.code).toBe('route.not_found');
  });

  it('documents the cloud API in the OpenAPI document of the cloud edition only', async () => {
    const cloudPaths = Object.keys((await cloud.call('/api/openapi.json', { auth: false })).json.paths);
    expect(cloudPaths).toEqual(
      expect.arrayContaining([
        '/api/tenants',
        '/api/tenants/{id}/members/{userId}/scopes',
        '/api/invitations/{id}/status',
        '/api/.well-known/endpoints/{tenantId}',
        '/m/{tenantId}/api/configs/admin-console',
      ]),
    );
    const ossPaths = Object.keys((await oss.call('/api/openapi.json', { auth: false })).json.paths);
    expect(ossPaths).toContain('/api/configs/admin-console');
    expect(ossPaths.filter((path) => path.startsWith('/api/tenants'))).toEqual([]);
  });
});
