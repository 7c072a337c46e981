import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededIds } from '../src/db/seed.ts';
import { organizationRoles, organizationScopes, resources, scopes } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, queuedEvents } from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const createScope = (body: Record<string, unknown>) => t.call('/api/organization-scopes', { method: 'POST', body });
const createRole = (body: Record<string, unknown>) => t.call('/api/organization-roles', { method: 'POST', body });
const scopeId = async (name: string) => String((await createScope({ name })).json.id);
const names = (list: { name: string }[]) => list.map((item) => item.name);

async function resourceScopes(resourceName: string, scopeNames: string[]) {
  const resource = await t.call('/api/resources', {
    method: 'POST',
    body: { name: resourceName, indicator: `https://${resourceName}.example.com` },
  });
  const ids: string[] = [];
  for (const name of scopeNames) {
    ids.push(
      String((await t.call(`/api/resources/${resource.json.id}/scopes`, { method: 'POST', body: { name } })).json.id),
    );
  }
  return { resourceId: String(resource.json.id), ids };
}

describe('organization scopes (permissions)', () => {
  it('creates, lists, searches, reads, updates and deletes, with audit and events', async () => {
    const created = await createScope({ name: 'read:projects', description: 'Read the projects' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      tenantId: 'default',
      name: 'read:projects',
      description: 'Read the projects',
    });
    const id = String(created.json.id);
    await createScope({ name: 'write:projects' });
    await createScope({ name: 'invite:members' });

    const list = await t.call('/api/organization-scopes?q=projects&page=1');
    expect(names(list.json), 'by name').toEqual(['read:projects', 'write:projects']);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect(names((await t.call('/api/organization-scopes?search=INVITE')).json)).toEqual(['invite:members']);
    expect((await t.call(`/api/organization-scopes/${id}`)).json).toEqual(created.json);

    const patched = await t.call(`/api/organization-scopes/${id}`, {
      method: 'PATCH',
      body: { name: 'read:all-projects', description: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id, name: 'read:all-projects', description: null });
    expect((await t.call(`/api/organization-scopes/${id}`, { method: 'PATCH', body: {} })).json).toEqual(patched.json);
    expect((await t.call(`/api/organization-scopes/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/organization-scopes/${id}`)).status).toBe(404);

    const scopeEntries = await auditEntries(t, id);
    expect(scopeEntries.map((entry) => entry.key)).toEqual([
      'Admin.OrganizationScope.Deleted',
      'Admin.OrganizationScope.Updated',
      'Admin.OrganizationScope.Updated',
      'Admin.OrganizationScope.Created',
    ]);
    expect(scopeEntries[1]?.payload.changes, 'the empty patch changed nothing').toEqual([]);
    for (const event of ['OrganizationScope.Created', 'OrganizationScope.Data.Updated', 'OrganizationScope.Deleted']) {
      expect(
        (await queuedEvents(t, event)).filter((e) => e.id === id),
        event,
      ).toHaveLength(1);
    }
  });

  it('refuses duplicate names (422) and invalid input (400)', async () => {
    await createScope({ name: 'unique:scope' });
    const duplicate = await createScope({ name: 'unique:scope' });
    expect(duplicate.status).toBe(422);
    // The reference's code for a name in use here (its generic unique violation), with its generic message.
    expect(duplicate.json).toMatchObject({
      code: 'entity.unique_integrity_violation',
      message: 'A resource with the same unique value already exists.',
    });
    const other = String((await createScope({ name: 'other:scope' })).json.id);
    const renamed = await t.call(`/api/organization-scopes/${other}`, {
      method: 'PATCH',
      body: { name: 'unique:scope' },
    });
    expect(renamed.json.code, 'renaming onto a taken name').toBe('entity.unique_integrity_violation');
    for (const [body, path] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'has space' }, 'name'],
      [{ name: 'quote"d' }, 'name'],
      [{ name: 'x'.repeat(129) }, 'name'],
      [{ name: 'ok:x', description: 'd'.repeat(257) }, 'description'],
    ] as const) {
      expectInvalid(await createScope(body), path, JSON.stringify(body).slice(0, 60));
    }
    expect((await t.call('/api/organization-scopes?q=ok:x')).json, 'nothing saved').toEqual([]);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const response = await t.call('/api/organization-scopes/nope', {
        method,
        body: method === 'PATCH' ? {} : undefined,
      });
      expect(response.status, method).toBe(404);
    }
  });
});

describe('organization roles', () => {
  it('creates a role with organization and API permissions, lists them with names, updates and deletes', async () => {
    const read = await scopeId('r:docs');
    const write = await scopeId('w:docs');
    const api = await resourceScopes('docs-api', ['docs:read', 'docs:write']);
    const created = await createRole({
      name: 'Editor',
      description: 'Edits documents',
      organizationScopeIds: [write, read],
      resourceScopeIds: [api.ids[1]],
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'Editor', description: 'Edits documents', type: 'User' });
    const id = String(created.json.id);

    const detail = await t.call(`/api/organization-roles/${id}`);
    expect(detail.json, 'the shape of the create answer').toEqual(created.json);
    expect(names((await t.call(`/api/organization-roles/${id}/scopes`)).json)).toEqual(['r:docs', 'w:docs']);
    expect(names((await t.call(`/api/organization-roles/${id}/resource-scopes`)).json)).toEqual(['docs:write']);
    await createRole({ name: 'Viewer', organizationScopeIds: [read] });
    await createRole({ name: 'Robot', type: 'MachineToMachine' });
    const list = await t.call('/api/organization-roles?page_size=100');
    expect(names(list.json).filter((name) => ['Editor', 'Viewer', 'Robot'].includes(name))).toEqual([
      'Editor',
      'Robot',
      'Viewer',
    ]);
    expect(list.json.find((role: { name: string }) => role.name === 'Viewer').scopes).toEqual([
      { id: read, name: 'r:docs' },
    ]);
    expect(names((await t.call('/api/organization-roles?q=view')).json)).toEqual(['Viewer']);
    expect(names((await t.call('/api/organization-roles?type=MachineToMachine&q=o')).json)).toEqual(['Robot']);

    const patched = await t.call(`/api/organization-roles/${id}`, { method: 'PATCH', body: { name: 'Writer' } });
    expect(patched.json).toMatchObject({ id, name: 'Writer', description: 'Edits documents', type: 'User' });
    const empty = await t.call(`/api/organization-roles/${id}`, { method: 'PATCH', body: {} });
    expect(empty.status, 'an empty patch changes nothing').toBe(200);
    expect(empty.json).toEqual(patched.json);
    // The type is fixed: a PATCH naming it changes nothing (an undeclared field, dropped as the reference does).
    const typed = await t.call(`/api/organization-roles/${id}`, {
      method: 'PATCH',
      body: { type: 'MachineToMachine' },
    });
    expect(typed.status).toBe(200);
    expect(typed.json.type, 'the type is fixed').toBe('User');
    expect((await t.call(`/api/organization-roles/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/organization-roles/${id}`)).status).toBe(404);

    const entries = await auditEntries(t, id);
    expect(entries.map((entry) => entry.key)).toEqual([
      'Admin.OrganizationRole.Deleted',
      'Admin.OrganizationRole.Updated',
      'Admin.OrganizationRole.Updated',
      'Admin.OrganizationRole.Updated',
      'Admin.OrganizationRole.Created',
    ]);
    expect(entries[4]?.payload.after).toMatchObject({
      name: 'Editor',
      organizationScopeIds: [read, write].sort(),
      resourceScopeIds: [api.ids[1]],
    });
    expect((await queuedEvents(t, 'OrganizationRole.Created')).filter((e) => e.id === id)).toHaveLength(1);
    expect((await queuedEvents(t, 'OrganizationRole.Data.Updated')).filter((e) => e.id === id)).toHaveLength(1);
    expect((await queuedEvents(t, 'OrganizationRole.Deleted')).filter((e) => e.id === id)).toHaveLength(1);
    const scopesEvent = (await queuedEvents(t, 'OrganizationRole.Scopes.Updated')).filter(
      (e) => e.organizationRoleId === id,
    );
    expect(scopesEvent, 'creating with permissions reports them').toEqual([
      {
        organizationRoleId: id,
        scopes: [
          { id: read, name: 'r:docs' },
          { id: write, name: 'w:docs' },
        ],
        resourceScopes: [{ id: api.ids[1], name: 'docs:write', resource: { id: api.resourceId, name: 'docs-api' } }],
      },
    ]);
  });

  it('refuses duplicate names, unknown permissions, bad input and management API permissions for user roles', async () => {
    await createRole({ name: 'Taken' });
    const duplicate = await createRole({ name: 'Taken', type: 'MachineToMachine' });
    expect(duplicate.status).toBe(422);
    expect(duplicate.json.code).toBe('entity.unique_integrity_violation');

    const unknownScope = await createRole({ name: 'never-1', organizationScopeIds: ['nope'] });
    expect(unknownScope.status).toBe(422);
    expect(unknownScope.json).toMatchObject({ code: 'entity.relation_foreign_key_not_found', data: { ids: ['nope'] } });
    const unknownResourceScope = await createRole({ name: 'never-2', resourceScopeIds: ['nope'] });
    expect(unknownResourceScope.status).toBe(422);
    const management = await createRole({ name: 'never-3', resourceScopeIds: [seededIds.managementScopeAll] });
    expect(management.status).toBe(422);
    expect(management.json).toMatchObject({
      code: 'role.management_api_scope_for_user_role',
      data: { ids: [seededIds.managementScopeAll] },
    });
    expect((await t.call('/api/organization-roles?q=never-')).json, 'rolled back').toEqual([]);
    const machine = await createRole({
      name: 'machine-admin',
      type: 'MachineToMachine',
      resourceScopeIds: [seededIds.managementScopeAll],
    });
    expect(machine.status, 'a machine-to-machine role may hold them').toBe(201);

    for (const [body, path] of [
      [{}, 'name'],
      [{ name: 'x'.repeat(129) }, 'name'],
      [{ name: 'ok', description: 'd'.repeat(257) }, 'description'],
      [{ name: 'ok', type: 'Robot' }, 'type'],
      [{ name: 'ok', organizationScopeIds: [] }, 'organizationScopeIds'],
      [{ name: 'ok', resourceScopeIds: ['a', 'a'] }, 'resourceScopeIds'],
    ] as const) {
      expectInvalid(await createRole(body), path, JSON.stringify(body).slice(0, 60));
    }
  });

  it('adds, lists, replaces and removes organization permissions and API permissions of a role', async () => {
    const role = String((await createRole({ name: 'permissions-role' })).json.id);
    const a = await scopeId('p:a');
    const b = await scopeId('p:b');
    const c = await scopeId('p:c');
    const api = await resourceScopes('perm-api', ['x:read', 'x:write']);
    const scopesPath = `/api/organization-roles/${role}/scopes`;
    const resourcePath = `/api/organization-roles/${role}/resource-scopes`;

    expect((await t.call(scopesPath, { method: 'POST', body: { organizationScopeIds: [a, b] } })).status).toBe(201);
    const duplicate = await t.call(scopesPath, { method: 'POST', body: { organizationScopeIds: [b, c, c] } });
    expect(duplicate.status, 'a permission already there (and a repeat) is ignored, the others added').toBe(201);
    expect(names((await t.call(scopesPath)).json)).toEqual(['p:a', 'p:b', 'p:c']);
    expect(names((await t.call(`${scopesPath}?q=b`)).json)).toEqual(['p:b']);
    expect((await t.call(scopesPath, { method: 'PUT', body: { organizationScopeIds: [c] } })).status).toBe(204);
    expect(names((await t.call(scopesPath)).json)).toEqual(['p:c']);
    expect((await t.call(`${scopesPath}/${c}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`${scopesPath}/${c}`, { method: 'DELETE' })).status).toBe(404);

    expect((await t.call(resourcePath, { method: 'POST', body: { scopeIds: api.ids } })).status).toBe(201);
    const again = await t.call(resourcePath, { method: 'POST', body: { scopeIds: [api.ids[0]] } });
    expect(again.status, 'a permission already there is ignored').toBe(201);
    const listed = await t.call(resourcePath);
    expect(listed.json).toEqual([
      expect.objectContaining({
        id: api.ids[0],
        name: 'x:read',
        resource: expect.objectContaining({ id: api.resourceId }),
      }),
      expect.objectContaining({ id: api.ids[1], name: 'x:write' }),
    ]);
    expect((await t.call(resourcePath, { method: 'PUT', body: { scopeIds: [] } })).status).toBe(204);
    expect((await t.call(resourcePath)).json).toEqual([]);
    const forbidden = await t.call(resourcePath, { method: 'PUT', body: { scopeIds: [seededIds.managementScopeAll] } });
    expect(forbidden.json.code).toBe('role.management_api_scope_for_user_role');

    const entries = await auditEntries(t, role);
    expect(entries[0]?.payload, 'refused writes leave no entry').toMatchObject({
      before: { organizationScopeIds: [], resourceScopeIds: [...api.ids].sort() },
      after: { organizationScopeIds: [], resourceScopeIds: [] },
    });
    const events = (await queuedEvents(t, 'OrganizationRole.Scopes.Updated')).filter(
      (e) => e.organizationRoleId === role,
    );
    // One per successful write, also a POST whose permissions were all there already (the reference's hook fires too).
    expect(events, 'one event per write').toHaveLength(7);
  });

  it('loses permissions when the organization scope, the API scope or the whole API resource is deleted', async () => {
    const keep = await scopeId('c:keep');
    const drop = await scopeId('c:drop');
    const api = await resourceScopes('cascade-api', ['c:one', 'c:two']);
    const other = await resourceScopes('cascade-other', ['c:three']);
    const role = String(
      (
        await createRole({
          name: 'cascade-role',
          organizationScopeIds: [keep, drop],
          resourceScopeIds: [...api.ids, ...other.ids],
        })
      ).json.id,
    );
    await t.call(`/api/organization-scopes/${drop}`, { method: 'DELETE' });
    await t.call(`/api/resources/${api.resourceId}/scopes/${api.ids[0]}`, { method: 'DELETE' });
    await t.call(`/api/resources/${other.resourceId}`, { method: 'DELETE' });
    expect(names((await t.call(`/api/organization-roles/${role}/scopes`)).json)).toEqual(['c:keep']);
    expect(names((await t.call(`/api/organization-roles/${role}/resource-scopes`)).json)).toEqual(['c:two']);
  });

  it('deleting a role takes it from members, applications, invitations and JIT settings', async () => {
    const org = String(
      (await t.call('/api/organizations', { method: 'POST', body: { name: 'role-cascade' } })).json.id,
    );
    const role = String((await createRole({ name: 'short-lived' })).json.id);
    const user = await t.call('/api/users', {
      method: 'POST',
      body: { username: 'cascade_user', primaryEmail: 'cascade@example.com' },
    });
    const userId = String(user.json.id);
    await t.call(`/api/organizations/${org}/users`, { method: 'POST', body: { userIds: [userId] } });
    await t.call(`/api/organizations/${org}/users/${userId}/roles`, {
      method: 'POST',
      body: { organizationRoleIds: [role] },
    });
    await t.call(`/api/organizations/${org}/jit/roles`, { method: 'POST', body: { organizationRoleIds: [role] } });
    const invitation = await t.call('/api/organization-invitations', {
      method: 'POST',
      body: {
        organizationId: org,
        invitee: 'later@example.com',
        organizationRoleIds: [role],
        expiresAt: Date.now() + 60_000,
      },
    });
    expect(invitation.json.organizationRoles).toEqual([{ id: role, name: 'short-lived' }]);

    expect((await t.call(`/api/organization-roles/${role}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/organizations/${org}/users/${userId}/roles`)).json).toEqual([]);
    expect((await t.call(`/api/organizations/${org}/jit/roles`)).json).toEqual([]);
    expect((await t.call(`/api/organization-invitations/${invitation.json.id}`)).json.organizationRoles).toEqual([]);
    expect(
      (await t.call(`/api/organizations/${org}/users`)).json.map((u: { id: string }) => u.id),
      'still a member',
    ).toEqual([userId]);
  });
});

describe('template routes and tenants', () => {
  it("answer 404 for another tenant's roles and scopes, also inside bodies", async () => {
    const foreignRole = await otherTenant(t).insert(organizationRoles, { id: 'foreign-trole', name: 'foreign' });
    const foreignScope = await otherTenant(t).insert(organizationScopes, { id: 'foreign-tscope', name: 'foreign' });
    const foreignResource = await otherTenant(t).insert(resources, {
      id: 'foreign-tres',
      name: 'foreign',
      indicator: 'https://foreign-template.example.com',
    });
    await otherTenant(t).insert(scopes, { id: 'foreign-rscope', resourceId: foreignResource.id, name: 'x' });
    for (const [method, path, body] of [
      ['GET', `/api/organization-roles/${foreignRole.id}`, undefined],
      ['PATCH', `/api/organization-roles/${foreignRole.id}`, { name: 'mine' }],
      ['DELETE', `/api/organization-roles/${foreignRole.id}`, undefined],
      ['GET', `/api/organization-roles/${foreignRole.id}/scopes`, undefined],
      ['PUT', `/api/organization-roles/${foreignRole.id}/scopes`, { organizationScopeIds: [] }],
      ['GET', `/api/organization-roles/${foreignRole.id}/resource-scopes`, undefined],
      ['GET', `/api/organization-scopes/${foreignScope.id}`, undefined],
      ['PATCH', `/api/organization-scopes/${foreignScope.id}`, { name: 'mine' }],
      ['DELETE', `/api/organization-scopes/${foreignScope.id}`, undefined],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      // The reference's generic routes: its finder, its update miss, its deletion miss (issue 43).
      const ownRoute = path.split('/').length === 4;
      const code =
        ownRoute && method === 'PATCH'
          ? 'entity.not_exists'
          : ownRoute && method === 'DELETE'
            ? 'entity.not_found'
            : 'entity.not_exists_with_id';
      expect(response.json.code, `${method} ${path}`).toBe(code);
    }
    const role = String((await createRole({ name: 'tenant-role' })).json.id);
    for (const [path, body] of [
      [`/api/organization-roles/${role}/scopes`, { organizationScopeIds: [foreignScope.id] }],
      [`/api/organization-roles/${role}/resource-scopes`, { scopeIds: ['foreign-rscope'] }],
    ] as const) {
      const response = await t.call(path, { method: 'POST', body });
      expect(response.status, path).toBe(422);
      expect(response.json.code).toBe('entity.relation_foreign_key_not_found');
    }
    expect((await t.call('/api/organization-roles?q=foreign')).json).toEqual([]);
    expect((await t.call('/api/organization-scopes?q=foreign')).json).toEqual([]);
  });

  it('require a token with scope all', async () => {
    await expectGuarded(t, [
      { method: 'GET', path: '/api/organization-roles' },
      { method: 'POST', path: '/api/organization-roles', body: { name: 'x' } },
      { method: 'GET', path: '/api/organization-roles/x' },
      { method: 'PATCH', path: '/api/organization-roles/x', body: { name: 'y' } },
      { method: 'DELETE', path: '/api/organization-roles/x' },
      { method: 'GET', path: '/api/organization-roles/x/scopes' },
      { method: 'POST', path: '/api/organization-roles/x/scopes', body: { organizationScopeIds: ['s'] } },
      { method: 'PUT', path: '/api/organization-roles/x/scopes', body: { organizationScopeIds: [] } },
      { method: 'DELETE', path: '/api/organization-roles/x/scopes/s' },
      { method: 'GET', path: '/api/organization-roles/x/resource-scopes' },
      { method: 'POST', path: '/api/organization-roles/x/resource-scopes', body: { scopeIds: ['s'] } },
      { method: 'PUT', path: '/api/organization-roles/x/resource-scopes', body: { scopeIds: [] } },
      { method: 'DELETE', path: '/api/organization-roles/x/resource-scopes/s' },
      { method: 'GET', path: '/api/organization-scopes' },
      { method: 'POST', path: '/api/organization-scopes', body: { name: 'x' } },
      { method: 'GET', path: '/api/organization-scopes/x' },
      { method: 'PATCH', path: '/api/organization-scopes/x', body: { name: 'y' } },
      { method: 'DELETE', path: '/api/organization-scopes/x' },
    ]);
  });
});
