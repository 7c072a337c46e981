import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/tables.ts';
import {
  isOrganizationMember,
  memberResourceScopeNames,
  memberScopeNames,
  organizationRequiresMfa,
  userOrganizationClaims,
} from '../src/services/organization-access.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { otherTenant, ownTenant } from './support/scenarios.ts';

/** The reads organization tokens are built from: what a member may do in one organization, and nowhere else. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = async (path: string, body: Record<string, unknown>) => {
  const response = await t.call(path, { method: 'POST', body });
  expect(response.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(300);
  return response.json ? String(response.json.id) : '';
};

describe('organization access', () => {
  it('grants a member the permissions of the roles held in that organization only', async () => {
    const acme = await post('/api/organizations', { name: 'Acme', isMfaRequired: true });
    const globex = await post('/api/organizations', { name: 'Globex' });
    const resource = await post('/api/resources', { name: 'Billing', indicator: 'https://billing.example.com' });
    const other = await post('/api/resources', { name: 'Other', indicator: 'https://other.example.com' });
    const invoicesRead = await post(`/api/resources/${resource}/scopes`, { name: 'invoices:read' });
    const invoicesPay = await post(`/api/resources/${resource}/scopes`, { name: 'invoices:pay' });
    const otherScope = await post(`/api/resources/${other}/scopes`, { name: 'other:all' });
    const read = await post('/api/organization-scopes', { name: 'read:members' });
    const invite = await post('/api/organization-scopes', { name: 'invite:members' });
    await post('/api/organization-scopes', { name: 'delete:org' });
    const admin = await post('/api/organization-roles', {
      name: 'admin',
      organizationScopeIds: [read, invite],
      resourceScopeIds: [invoicesRead, invoicesPay, otherScope],
    });
    const viewer = await post('/api/organization-roles', {
      name: 'viewer',
      organizationScopeIds: [read],
      resourceScopeIds: [invoicesRead],
    });
    const syncer = await post('/api/organization-roles', {
      name: 'syncer',
      type: 'MachineToMachine',
      resourceScopeIds: [invoicesRead],
    });
    const user = await ownTenant(t).insert(users, { id: 'accessuser1', username: 'access' });
    const robot = await post('/api/applications', { name: 'sync-robot', type: 'MachineToMachine' });
    await post(`/api/organizations/${acme}/users`, { userIds: [user.id] });
    await post(`/api/organizations/${globex}/users`, { userIds: [user.id] });
    await post(`/api/organizations/${acme}/users/${user.id}/roles`, { organizationRoleIds: [admin] });
    await post(`/api/organizations/${globex}/users/${user.id}/roles`, { organizationRoleIds: [viewer] });
    await post(`/api/organizations/${globex}/applications`, { applicationIds: [robot] });
    await post(`/api/organizations/${globex}/applications/${robot}/roles`, { organizationRoleIds: [syncer] });

    const tenant = ownTenant(t);
    const member = { userId: user.id };
    expect(await memberScopeNames(tenant, acme, member)).toEqual(['invite:members', 'read:members']);
    expect(await memberScopeNames(tenant, globex, member)).toEqual(['read:members']);
    expect(await memberResourceScopeNames(tenant, acme, member, 'https://billing.example.com')).toEqual([
      'invoices:pay',
      'invoices:read',
    ]);
    expect(await memberResourceScopeNames(tenant, globex, member, 'https://billing.example.com')).toEqual([
      'invoices:read',
    ]);
    expect(await memberResourceScopeNames(tenant, globex, member, 'https://other.example.com')).toEqual([]);
    expect(await memberResourceScopeNames(tenant, acme, member, 'https://unknown.example.com')).toEqual([]);

    const app = { applicationId: robot };
    expect(await isOrganizationMember(tenant, globex, app)).toBe(true);
    expect(await isOrganizationMember(tenant, acme, app)).toBe(false);
    expect(await memberResourceScopeNames(tenant, globex, app, 'https://billing.example.com')).toEqual([
      'invoices:read',
    ]);
    expect(await memberScopeNames(tenant, acme, app)).toEqual([]);

    expect(await userOrganizationClaims(tenant, user.id)).toEqual({
      organizations: [acme, globex].sort(),
      organizationRoles: [`${acme}:admin`, `${globex}:viewer`].sort(),
    });
    expect(await organizationRequiresMfa(tenant, acme)).toBe(true);
    expect(await organizationRequiresMfa(tenant, globex)).toBe(false);
    expect(await organizationRequiresMfa(tenant, 'nope')).toBeUndefined();

    // Leaving takes every permission of that organization away at once.
    await t.call(`/api/organizations/${acme}/users/${user.id}`, { method: 'DELETE' });
    expect(await isOrganizationMember(tenant, acme, member)).toBe(false);
    expect(await memberScopeNames(tenant, acme, member)).toEqual([]);
    expect((await userOrganizationClaims(tenant, user.id)).organizations).toEqual([globex]);

    // Another tenant sees none of it.
    const foreign = otherTenant(t);
    expect(await memberScopeNames(foreign, globex, member)).toEqual([]);
    expect(await userOrganizationClaims(foreign, user.id)).toEqual({ organizations: [], organizationRoles: [] });
  });
});
