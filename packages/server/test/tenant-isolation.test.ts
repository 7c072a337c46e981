import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, users, usersRoles } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
let a: TenantDb;
let b: TenantDb;
beforeAll(async () => {
  t = await createTestApp({ EDITION: 'cloud' });
  a = new TenantDb(t.db, DEFAULT_TENANT_ID);
  b = new TenantDb(t.db, ADMIN_TENANT_ID);
});
afterAll(() => t.close());

describe('tenant isolation in the data layer', () => {
  it("never reads, updates or deletes another tenant's rows", async () => {
    const role = await a.insert(roles, { id: 'iso-role', name: 'isolated' });
    expect(role.tenantId, 'insert stamps the tenant').toBe(DEFAULT_TENANT_ID);

    expect(await b.findOne(roles, eq(roles.id, 'iso-role'))).toBeUndefined();
    expect(await b.count(roles, eq(roles.name, 'isolated'))).toBe(0);
    expect(await b.update(roles, eq(roles.id, 'iso-role'), { name: 'hijacked' })).toEqual([]);
    expect(await b.delete(roles, eq(roles.id, 'iso-role'))).toEqual([]);
    expect((await a.findOne(roles, eq(roles.id, 'iso-role')))?.name, 'the row is untouched').toBe('isolated');
  });

  it('an update cannot move a row to another tenant', async () => {
    await a.insert(roles, { id: 'stay-role', name: 'stays' });
    const values = { name: 'moved', tenantId: ADMIN_TENANT_ID } as Parameters<typeof a.update<typeof roles>>[2];
    const [row] = await a.update(roles, eq(roles.id, 'stay-role'), values);
    expect(row?.tenantId).toBe(DEFAULT_TENANT_ID);
    expect(await b.findOne(roles, eq(roles.id, 'stay-role'))).toBeUndefined();
  });

  it('the same id may exist in two tenants independently', async () => {
    await a.insert(roles, { id: 'same-id', name: 'in-a' });
    await b.insert(roles, { id: 'same-id', name: 'in-b' });
    expect((await a.findOne(roles, eq(roles.id, 'same-id')))?.name).toBe('in-a');
    expect((await b.findOne(roles, eq(roles.id, 'same-id')))?.name).toBe('in-b');
  });

  it('a list total found over its cap is remembered per tenant and query, only when asked', async () => {
    const marked = eq(roles.description, 'over-cap');
    for (const id of ['cap-1', 'cap-2', 'cap-3']) await a.insert(roles, { id, name: id, description: 'over-cap' });
    expect(await a.countUpTo(roles, marked, 2, { rememberOverCap: true })).toBe(3);
    await a.delete(roles, eq(roles.id, 'cap-3'));
    expect(await a.countUpTo(roles, marked, 2, { rememberOverCap: true }), 'still over the cap (remembered)').toBe(3);
    expect(await a.countUpTo(roles, marked, 2), 'counted again without the option').toBe(2);
    expect(await a.countUpTo(roles, marked, 1, { rememberOverCap: true }), 'another cap is another count').toBe(2);
    expect(await b.countUpTo(roles, marked, 2, { rememberOverCap: true }), 'another tenant counts its own').toBe(0);
  });

  it("a relation cannot point at another tenant's row (composite foreign key)", async () => {
    await a.insert(users, { id: 'user-a', username: 'user_a' });
    await b.insert(roles, { id: 'role-b', name: 'only-in-b' });
    await expect(a.insert(usersRoles, { userId: 'user-a', roleId: 'role-b' })).rejects.toThrow();
  });
});

describe('tenant isolation in the cloud management API', () => {
  const api = (tenantId: string) => `/m/${tenantId}/api/roles`;

  it("a tenant's token cannot read or change another tenant's data", async () => {
    const defaultToken = await t.token({ tenantId: DEFAULT_TENANT_ID });
    const adminToken = await t.token({ tenantId: ADMIN_TENANT_ID });
    const created = await t.call(api(DEFAULT_TENANT_ID), {
      method: 'POST',
      body: { name: 'cloud-role' },
      headers: { Authorization: `Bearer ${defaultToken}` },
    });
    expect(created.status).toBe(200);
    const id = String(created.json.id);

    const asOther = { headers: { Authorization: `Bearer ${adminToken}` } };
    expect((await t.call(`${api(ADMIN_TENANT_ID)}/${id}`, asOther)).status, 'invisible in the other tenant').toBe(404);
    expect((await t.call(`${api(ADMIN_TENANT_ID)}?search=cloud-role`, asOther)).json).toEqual([]);
    expect(
      (await t.call(`${api(ADMIN_TENANT_ID)}/${id}`, { ...asOther, method: 'DELETE' })).status,
      'cannot delete across tenants',
    ).toBe(404);

    const wrongAudience = await t.call(`${api(ADMIN_TENANT_ID)}/${id}`, {
      headers: { Authorization: `Bearer ${defaultToken}` },
    });
    expect(wrongAudience.status, "a token for tenant default is refused by tenant admin's API").toBe(401);

    const stillThere = await t.call(`${api(DEFAULT_TENANT_ID)}/${id}`, {
      headers: { Authorization: `Bearer ${defaultToken}` },
    });
    expect(stillThere.json.name).toBe('cloud-role');
  });

  it('an unknown tenant is 404 and the OSS /api path does not exist in the cloud edition', async () => {
    const response = await t.call('/m/no-such-tenant/api/roles');
    expect(response.status).toBe(404);
    expect((await t.call('/api/roles')).status).toBe(404);
  });
});

describe('tenant isolation of applications, API resources and role assignments (cloud API)', () => {
  it("a tenant's applications, resources and scopes are invisible and unusable from another tenant", async () => {
    const asDefault = { headers: { Authorization: `Bearer ${await t.token({ tenantId: DEFAULT_TENANT_ID })}` } };
    const asAdmin = { headers: { Authorization: `Bearer ${await t.token({ tenantId: ADMIN_TENANT_ID })}` } };
    const base = (tenantId: string) => `/m/${tenantId}/api`;
    const app = await t.call(`${base(DEFAULT_TENANT_ID)}/applications`, {
      ...asDefault,
      method: 'POST',
      body: { name: 'isolated robot', type: 'MachineToMachine' },
    });
    const resource = await t.call(`${base(DEFAULT_TENANT_ID)}/resources`, {
      ...asDefault,
      method: 'POST',
      body: { name: 'isolated', indicator: 'https://isolated.example.com' },
    });
    const scope = await t.call(`${base(DEFAULT_TENANT_ID)}/resources/${resource.json.id}/scopes`, {
      ...asDefault,
      method: 'POST',
      body: { name: 'read:isolated' },
    });
    expect([app.status, resource.status, scope.status]).toEqual([200, 201, 201]);

    const other = base(ADMIN_TENANT_ID);
    expect((await t.call(`${other}/applications/${app.json.id}`, asAdmin)).status).toBe(404);
    expect((await t.call(`${other}/resources/${resource.json.id}`, asAdmin)).status).toBe(404);
    expect((await t.call(`${other}/applications?search=isolated`, asAdmin)).json).toEqual([]);
    const role = await t.call(`${other}/roles`, {
      ...asAdmin,
      method: 'POST',
      body: { name: 'admin-side', type: 'MachineToMachine' },
    });
    const borrowScope = await t.call(`${other}/roles/${role.json.id}/scopes`, {
      ...asAdmin,
      method: 'POST',
      body: { scopeIds: [scope.json.id] },
    });
    expect(borrowScope.status, "another tenant's scope cannot be assigned").toBe(404);
    const borrowApp = await t.call(`${other}/roles/${role.json.id}/applications`, {
      ...asAdmin,
      method: 'POST',
      body: { applicationIds: [app.json.id] },
    });
    expect(borrowApp.status, "another tenant's application cannot be assigned").toBe(404);
    expect(
      (
        await t.call(`${other}/applications/${app.json.id}/secrets`, {
          ...asAdmin,
          method: 'POST',
          body: { name: 'x' },
        })
      ).status,
    ).toBe(404);
  });
});
