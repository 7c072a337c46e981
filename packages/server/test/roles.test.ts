import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seededIds } from '../src/db/seed.ts';
import { applications, resources, roles, scopes, users } from '../src/db/tables.ts';
import { withCounts } from '../src/services/roles.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import {
  auditEntries,
  expectGuarded,
  expectInvalid,
  otherTenant,
  ownTenant,
  queuedEvents,
} from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const createRole = (body: Record<string, unknown>) => t.call('/api/roles', { method: 'POST', body });

describe('roles API', () => {
  it('creates, reads, updates and deletes a role', async () => {
    const created = await createRole({ name: 'editor', description: 'Edits content' });
    expect(created.status, 'create answers 200 with the role').toBe(200);
    expect(created.json).toMatchObject({
      name: 'editor',
      description: 'Edits content',
      type: 'User',
      isDefault: false,
    });
    const id = String(created.json.id);
    expect(id).toMatch(/^[0-9a-z]{21}$/);

    const read = await t.call(`/api/roles/${id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const patched = await t.call(`/api/roles/${id}`, { method: 'PATCH', body: { description: 'Edits everything' } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id, name: 'editor', description: 'Edits everything' });

    const empty = await t.call(`/api/roles/${id}`, { method: 'PATCH', body: {} });
    expect(empty.status, 'an empty patch changes nothing and is not an error').toBe(200);
    expect(empty.json).toEqual(patched.json);
    expect((await t.call('/api/roles/missing', { method: 'PATCH', body: {} })).status).toBe(404);

    const deleted = await t.call(`/api/roles/${id}`, { method: 'DELETE' });
    expect(deleted.status, 'delete answers 204 without a body').toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.call(`/api/roles/${id}`)).status, 'a deleted role is gone').toBe(404);
  });

  it('answers 422 role.name_in_use for a duplicate name and keeps the first role', async () => {
    expect((await createRole({ name: 'duplicate' })).status).toBe(200);
    const second = await createRole({ name: 'duplicate', description: 'second' });
    expect(second.status).toBe(422);
    expect(second.json).toMatchObject({ code: 'role.name_in_use', message: 'A role with this name already exists.' });
    const list = await t.call('/api/roles?search=duplicate');
    expect(list.json, 'only the first role exists').toHaveLength(1);
  });

  it('rejects invalid input with the failing fields and saves nothing', async () => {
    const before = Number((await t.call('/api/roles')).headers.get('Total-Number'));
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(129) },
      { name: 'ok', description: 'd'.repeat(129) },
      { name: 'ok', type: 'Robot' },
      { name: 42 },
    ]) {
      const response = await createRole(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
      expect(Array.isArray(response.json.data), 'data lists the failing fields').toBe(true);
    }
    const response = await createRole({ name: 'x'.repeat(129) });
    expect(response.json.data).toEqual([expect.objectContaining({ path: 'name' })]);
    expect(Number((await t.call('/api/roles')).headers.get('Total-Number'))).toBe(before);
  });

  it('answers 404 entity.not_exists_with_id for unknown ids on read, update and delete', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const response = await t.call('/api/roles/does-not-exist', {
        method,
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
      });
      expect(response.status, method).toBe(404);
      expect(response.json.code).toBe('entity.not_exists_with_id');
    }
  });

  it('lists newest first with search and type filters', async () => {
    await createRole({ name: 'search-alpha' });
    await createRole({ name: 'search-beta', type: 'MachineToMachine' });
    const all = await t.call('/api/roles?search=search-%25');
    expect(all.json.map((role: { name: string }) => role.name)).toEqual(['search-beta', 'search-alpha']);
    const machine = await t.call('/api/roles?search=search-%25&type=MachineToMachine');
    expect(machine.json.map((role: { name: string }) => role.name)).toEqual(['search-beta']);
    const wildcard = await t.call(`/api/roles?search=${encodeURIComponent('%alpha%')}`);
    expect(wildcard.json.map((role: { name: string }) => role.name)).toEqual(['search-alpha']);
    const literal = await t.call(`/api/roles?search=${encodeURIComponent('search_')}`);
    expect(literal.status).toBe(200);
  });

  it('audits every write with actor, before/after and the changed fields, and queues events', async () => {
    const created = await createRole({ name: 'audited', description: 'v1' });
    const id = String(created.json.id);
    await t.call(`/api/roles/${id}`, { method: 'PATCH', body: { description: 'v2' } });
    await t.call(`/api/roles/${id}`, { method: 'DELETE' });

    const logs = await t.call('/api/logs?page_size=100');
    const entries = (logs.json as { key: string; payload: Record<string, unknown> }[]).filter(
      (log) => (log.payload.entity as { id: string } | undefined)?.id === id,
    );
    expect(entries.map((log) => log.key)).toEqual(['Admin.Role.Deleted', 'Admin.Role.Updated', 'Admin.Role.Created']);
    const [deleted, updated, createdLog] = entries;
    expect(createdLog?.payload).toMatchObject({
      result: 'Success',
      actor: { type: 'user', id: 'test-admin' },
      before: null,
      after: { id, description: 'v1' },
    });
    expect(updated?.payload.changes).toEqual([{ field: 'description', before: 'v1', after: 'v2' }]);
    expect(deleted?.payload).toMatchObject({ before: { id, description: 'v2' }, after: null });
  });
});

describe('role permissions (scopes)', () => {
  async function resourceWithScopes(name: string, scopeNames: string[]) {
    const resource = await t.call('/api/resources', {
      method: 'POST',
      body: { name, indicator: `https://${name}.example.com` },
    });
    const ids: string[] = [];
    for (const scopeName of scopeNames) {
      const scope = await t.call(`/api/resources/${resource.json.id}/scopes`, {
        method: 'POST',
        body: { name: scopeName },
      });
      ids.push(String(scope.json.id));
    }
    return { resourceId: String(resource.json.id), scopeIds: ids };
  }
  const roleScopes = async (roleId: string, query = '') =>
    (await t.call(`/api/roles/${roleId}/scopes${query}`)).json as {
      id: string;
      name: string;
      resource: { id: string };
    }[];

  it('creates a role with initial scopes, then adds, searches and removes scopes', async () => {
    const { resourceId, scopeIds } = await resourceWithScopes('shop', ['read:items', 'write:items', 'delete:items']);
    const created = await createRole({ name: 'shopkeeper', scopeIds: [scopeIds[0]] });
    expect(created.status).toBe(200);
    const id = String(created.json.id);
    expect(await roleScopes(id)).toEqual([
      expect.objectContaining({
        id: scopeIds[0],
        name: 'read:items',
        resource: expect.objectContaining({ id: resourceId }),
      }),
    ]);

    const added = await t.call(`/api/roles/${id}/scopes`, { method: 'POST', body: { scopeIds: scopeIds.slice(1) } });
    expect(added.status, 'assignment answers 201').toBe(201);
    const all = await t.call(`/api/roles/${id}/scopes?page=1`);
    expect(all.headers.get('Total-Number')).toBe('3');
    expect((await roleScopes(id, '?search=write%25')).map((scope) => scope.name)).toEqual(['write:items']);

    const removed = await t.call(`/api/roles/${id}/scopes/${scopeIds[1]}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await roleScopes(id)).map((scope) => scope.name).sort()).toEqual(['delete:items', 'read:items']);
    const again = await t.call(`/api/roles/${id}/scopes/${scopeIds[1]}`, { method: 'DELETE' });
    expect(again.status, 'removing a scope the role lacks is 404').toBe(404);

    const events = await queuedEvents(t, 'Role.Scopes.Updated');
    const forRole = events.filter((event) => event.roleId === id);
    expect(forRole, 'one event per change, with the scopes after it').toHaveLength(3);
    expect(((forRole[2]?.scopes ?? []) as { name: string }[]).map((scope) => scope.name)).toEqual([
      'delete:items',
      'read:items',
    ]);
    const entries = await auditEntries(t, id);
    expect(entries.map((entry) => entry.key)).toEqual([
      'Admin.Role.Updated',
      'Admin.Role.Updated',
      'Admin.Role.Created',
    ]);
    expect(entries[2]?.payload.after).toMatchObject({ id, scopeIds: [scopeIds[0]] });
    expect(entries[1]?.payload.changes).toEqual([
      { field: 'scopeIds', before: [scopeIds[0]], after: [...scopeIds].sort() },
    ]);
    expect(entries[0]?.payload).toMatchObject({
      before: { scopeIds: [...scopeIds].sort() },
      after: { scopeIds: [scopeIds[0], scopeIds[2]].sort() },
    });
  });

  it('refuses duplicates, unknown and foreign scopes, and bad bodies, changing nothing', async () => {
    const { scopeIds } = await resourceWithScopes('refusals', ['a', 'b']);
    const id = String((await createRole({ name: 'refusing', scopeIds: [scopeIds[0]] })).json.id);
    const foreignResource = await otherTenant(t).insert(resources, {
      id: 'foreign-res',
      name: 'foreign',
      indicator: 'https://foreign-roles.example.com',
    });
    await otherTenant(t).insert(scopes, { id: 'foreign-scope', resourceId: foreignResource.id, name: 'x' });

    const duplicate = await t.call(`/api/roles/${id}/scopes`, { method: 'POST', body: { scopeIds } });
    expect(duplicate.status).toBe(422);
    expect(duplicate.json).toMatchObject({ code: 'role.scope_exists', data: { ids: [scopeIds[0]] } });
    for (const unknown of ['no-such-scope', 'foreign-scope']) {
      const response = await t.call(`/api/roles/${id}/scopes`, {
        method: 'POST',
        body: { scopeIds: [scopeIds[1], unknown] },
      });
      expect(response.status, unknown).toBe(404);
      expect(response.json).toMatchObject({ code: 'entity.not_exists_with_id', data: { ids: [unknown] } });
    }
    for (const body of [{}, { scopeIds: [] }, { scopeIds: [scopeIds[1], scopeIds[1]] }, { scopeIds: 'a' }]) {
      expectInvalid(
        await t.call(`/api/roles/${id}/scopes`, { method: 'POST', body }),
        'scopeIds',
        JSON.stringify(body),
      );
    }
    const withUnknown = await createRole({ name: 'never-created', scopeIds: ['no-such-scope'] });
    expect(withUnknown.status).toBe(404);
    expect((await t.call('/api/roles?search=never-created')).json, 'the role was rolled back').toEqual([]);
    expect((await t.call(`/api/roles/${id}/scopes`)).json.map((s: { id: string }) => s.id)).toEqual([scopeIds[0]]);
  });

  it('gives management API permissions only to machine-to-machine roles', async () => {
    const managementScope = seededIds.managementScopeAll;
    const userRole = await createRole({ name: 'would-be-admins' });
    const refused = await t.call(`/api/roles/${userRole.json.id}/scopes`, {
      method: 'POST',
      body: { scopeIds: [managementScope] },
    });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({
      code: 'role.management_api_scope_for_user_role',
      data: { ids: [managementScope] },
    });
    const atCreation = await createRole({ name: 'admins-at-birth', scopeIds: [managementScope] });
    expect(atCreation.status).toBe(422);
    const machineRole = await createRole({ name: 'robots', type: 'MachineToMachine', scopeIds: [managementScope] });
    expect(machineRole.status).toBe(200);
  });

  it('loses a scope when the scope or its whole resource is deleted', async () => {
    const { resourceId, scopeIds } = await resourceWithScopes('cascade', ['one', 'two']);
    const other = await resourceWithScopes('cascade-other', ['three']);
    const id = String((await createRole({ name: 'cascading', scopeIds: [...scopeIds, ...other.scopeIds] })).json.id);
    await t.call(`/api/resources/${resourceId}/scopes/${scopeIds[0]}`, { method: 'DELETE' });
    expect((await roleScopes(id)).map((scope) => scope.name).sort()).toEqual(['three', 'two']);
    await t.call(`/api/resources/${other.resourceId}`, { method: 'DELETE' });
    expect((await roleScopes(id)).map((scope) => scope.name)).toEqual(['two']);
  });
});

describe('role users', () => {
  let userCounter = 0;
  const newUser = async (name: string) =>
    ownTenant(t).insert(users, { id: `u${String(++userCounter).padStart(5, '0')}`, username: name, name });

  it('assigns a user role to users, lists, searches and removes them', async () => {
    const ada = await newUser('ada');
    const bob = await newUser('bob');
    const id = String((await createRole({ name: 'readers' })).json.id);
    const assigned = await t.call(`/api/roles/${id}/users`, { method: 'POST', body: { userIds: [ada.id, bob.id] } });
    expect(assigned.status).toBe(201);
    const list = await t.call(`/api/roles/${id}/users`);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect(list.json).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: ada.id, username: 'ada', isSuspended: false })]),
    );
    expect(list.json[0]).not.toHaveProperty('passwordEncrypted');
    expect((await t.call(`/api/roles/${id}/users?search=bo%25`)).json.map((u: { id: string }) => u.id)).toEqual([
      bob.id,
    ]);

    expect((await t.call(`/api/roles/${id}/users/${ada.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/roles/${id}/users`)).json.map((u: { id: string }) => u.id)).toEqual([bob.id]);
    expect((await t.call(`/api/roles/${id}/users/${ada.id}`, { method: 'DELETE' })).status).toBe(404);

    const entries = await auditEntries(t, id);
    expect(entries[0]?.payload).toMatchObject({ before: { userIds: [ada.id] }, after: { userIds: [] } });
    expect(entries[1]?.payload).toMatchObject({ before: { userIds: [] }, after: { userIds: [ada.id, bob.id].sort() } });
  });

  it('refuses machine roles, duplicates, unknown and foreign users', async () => {
    const cy = await newUser('cy');
    const foreign = await otherTenant(t).insert(users, { id: 'foreignuser', username: 'foreign' });
    const machine = String((await createRole({ name: 'machines-only', type: 'MachineToMachine' })).json.id);
    const wrongType = await t.call(`/api/roles/${machine}/users`, { method: 'POST', body: { userIds: [cy.id] } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json.code).toBe('role.invalid_type');

    const id = String((await createRole({ name: 'people' })).json.id);
    await t.call(`/api/roles/${id}/users`, { method: 'POST', body: { userIds: [cy.id] } });
    const duplicate = await t.call(`/api/roles/${id}/users`, { method: 'POST', body: { userIds: [cy.id] } });
    expect(duplicate.status).toBe(422);
    expect(duplicate.json).toMatchObject({ code: 'role.user_exists', data: { ids: [cy.id] } });
    for (const unknown of ['nobody', foreign.id]) {
      const response = await t.call(`/api/roles/${id}/users`, { method: 'POST', body: { userIds: [unknown] } });
      expect(response.status, unknown).toBe(404);
      expect(response.json.code, 'the reference’s user finder').toBe('entity.not_found');
    }
    expectInvalid(await t.call(`/api/roles/${id}/users`, { method: 'POST', body: { userIds: ['x'.repeat(13)] } }));
    expect((await t.call(`/api/roles/${id}/users`)).json.map((u: { id: string }) => u.id)).toEqual([cy.id]);
  });

  it('lists roles a user does not hold yet (excludeUserId)', async () => {
    const dee = await newUser('dee');
    const held = String((await createRole({ name: 'exclude-held' })).json.id);
    await createRole({ name: 'exclude-free' });
    await t.call(`/api/roles/${held}/users`, { method: 'POST', body: { userIds: [dee.id] } });
    const list = await t.call(`/api/roles?search=exclude-%25&excludeUserId=${dee.id}`);
    expect(list.json.map((role: { name: string }) => role.name)).toEqual(['exclude-free']);
  });
});

describe('role applications', () => {
  const newApp = async (name: string, type = 'MachineToMachine') =>
    String((await t.call('/api/applications', { method: 'POST', body: { name, type } })).json.id);

  it('assigns a machine role to machine apps, lists, searches and removes them', async () => {
    const robot = await newApp('robot-one');
    const other = await newApp('robot-two');
    const id = String((await createRole({ name: 'robot-role', type: 'MachineToMachine' })).json.id);
    const assigned = await t.call(`/api/roles/${id}/applications`, {
      method: 'POST',
      body: { applicationIds: [robot, other] },
    });
    expect(assigned.status).toBe(201);
    const list = await t.call(`/api/roles/${id}/applications`);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect(list.json[0]).not.toHaveProperty('secret');
    expect(
      (await t.call(`/api/roles/${id}/applications?search=%25two%25`)).json.map((a: { id: string }) => a.id),
    ).toEqual([other]);
    expect((await t.call(`/api/applications/${robot}/roles`)).json.map((r: { id: string }) => r.id)).toEqual([id]);
    expect((await t.call(`/api/roles/${id}/applications/${robot}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/roles/${id}/applications/${robot}`, { method: 'DELETE' })).status).toBe(404);
    const entries = await auditEntries(t, id);
    expect(entries[0]?.payload).toMatchObject({ before: { applicationIds: [robot] }, after: { applicationIds: [] } });

    const listed = await t.call(`/api/roles?search=robot-role&excludeApplicationId=${other}`);
    expect(listed.json, 'excludeApplicationId leaves out the roles the app holds').toEqual([]);
  });

  it('refuses user roles, non-machine apps, duplicates, unknown and foreign apps', async () => {
    const robot = await newApp('robot-three');
    const spa = await newApp('web-app', 'SPA');
    const userRole = String((await createRole({ name: 'humans' })).json.id);
    const wrongRole = await t.call(`/api/roles/${userRole}/applications`, {
      method: 'POST',
      body: { applicationIds: [robot] },
    });
    expect(wrongRole.status).toBe(422);
    expect(wrongRole.json.code).toBe('role.invalid_type');

    const id = String((await createRole({ name: 'robots-only', type: 'MachineToMachine' })).json.id);
    const wrongApp = await t.call(`/api/roles/${id}/applications`, {
      method: 'POST',
      body: { applicationIds: [robot, spa] },
    });
    expect(wrongApp.status).toBe(422);
    expect(wrongApp.json).toMatchObject({ code: 'application.invalid_type', data: { ids: [spa] } });
    await t.call(`/api/roles/${id}/applications`, { method: 'POST', body: { applicationIds: [robot] } });
    const duplicate = await t.call(`/api/roles/${id}/applications`, {
      method: 'POST',
      body: { applicationIds: [robot] },
    });
    expect(duplicate.json).toMatchObject({ code: 'role.application_exists', data: { ids: [robot] } });
    const foreign = await otherTenant(t).insert(applications, {
      id: 'foreign-app',
      name: 'foreign',
      secret: 'x',
      type: 'MachineToMachine',
    });
    for (const unknown of ['no-such-app', foreign.id]) {
      const response = await t.call(`/api/roles/${id}/applications`, {
        method: 'POST',
        body: { applicationIds: [unknown] },
      });
      expect(response.status, unknown).toBe(404);
    }
    expect((await t.call(`/api/roles/${id}/applications`)).json.map((a: { id: string }) => a.id)).toEqual([robot]);
  });
});

describe('role routes and tenants', () => {
  it("answer 404 for another tenant's role on every relation route", async () => {
    const foreign = await otherTenant(t).insert(roles, { id: 'foreign-role', name: 'foreign-role' });
    for (const [method, path, body] of [
      ['GET', `/api/roles/${foreign.id}/scopes`, undefined],
      ['POST', `/api/roles/${foreign.id}/scopes`, { scopeIds: [seededIds.managementScopeAll] }],
      ['DELETE', `/api/roles/${foreign.id}/scopes/${seededIds.managementScopeAll}`, undefined],
      ['GET', `/api/roles/${foreign.id}/users`, undefined],
      ['POST', `/api/roles/${foreign.id}/users`, { userIds: ['someone'] }],
      ['DELETE', `/api/roles/${foreign.id}/users/someone`, undefined],
      ['GET', `/api/roles/${foreign.id}/applications`, undefined],
      ['POST', `/api/roles/${foreign.id}/applications`, { applicationIds: ['something'] }],
      ['DELETE', `/api/roles/${foreign.id}/applications/something`, undefined],
      ['GET', `/api/roles/${foreign.id}`, undefined],
      ['PATCH', `/api/roles/${foreign.id}`, { name: 'mine' }],
      ['DELETE', `/api/roles/${foreign.id}`, undefined],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      // A link's DELETE is the reference's deletion miss, which does not look the role up (issue 43).
      const code = method === 'DELETE' && path.split('/').length > 5 ? 'entity.not_found' : 'entity.not_exists_with_id';
      expect(response.json.code, `${method} ${path}`).toBe(code);
    }
    expect((await otherTenant(t).findMany(roles)).map((role) => role.name)).toContain('foreign-role');
  });

  it('require a token with scope all', async () => {
    const id = String((await createRole({ name: 'guarded-role' })).json.id);
    await expectGuarded(t, [
      { method: 'GET', path: '/api/roles' },
      { method: 'POST', path: '/api/roles', body: { name: 'x' } },
      { method: 'GET', path: `/api/roles/${id}` },
      { method: 'PATCH', path: `/api/roles/${id}`, body: { name: 'x' } },
      { method: 'DELETE', path: `/api/roles/${id}` },
      { method: 'GET', path: `/api/roles/${id}/scopes` },
      { method: 'POST', path: `/api/roles/${id}/scopes`, body: { scopeIds: ['x'] } },
      { method: 'DELETE', path: `/api/roles/${id}/scopes/x` },
      { method: 'GET', path: `/api/roles/${id}/users` },
      { method: 'POST', path: `/api/roles/${id}/users`, body: { userIds: ['x'] } },
      { method: 'DELETE', path: `/api/roles/${id}/users/x` },
      { method: 'GET', path: `/api/roles/${id}/applications` },
      { method: 'POST', path: `/api/roles/${id}/applications`, body: { applicationIds: ['x'] } },
      { method: 'DELETE', path: `/api/roles/${id}/applications/x` },
    ]);
  });
});

describe('role list counts', () => {
  it('lists each role with its users, machine apps and permissions counted, three grouped queries a page', async () => {
    const tenant = ownTenant(t);
    const readers = String((await createRole({ name: 'counted-readers' })).json.id);
    const robots = String((await createRole({ name: 'counted-robots', type: 'MachineToMachine' })).json.id);
    const empty = String((await createRole({ name: 'counted-empty' })).json.id);
    for (const name of ['cnt-a', 'cnt-b', 'cnt-c']) {
      const user = await tenant.insert(users, { id: `cnt${name.slice(-1)}0000000`.slice(0, 12), username: name });
      await t.call(`/api/roles/${readers}/users`, { method: 'POST', body: { userIds: [user.id] } });
    }
    const app = await t.call('/api/applications', {
      method: 'POST',
      body: { name: 'cnt-robot', type: 'MachineToMachine' },
    });
    await t.call(`/api/roles/${robots}/applications`, { method: 'POST', body: { applicationIds: [app.json.id] } });
    const resource = await t.call('/api/resources', {
      method: 'POST',
      body: { name: 'counted', indicator: 'https://counted.example.com' },
    });
    for (const name of ['read:cnt', 'write:cnt']) {
      const scope = await t.call(`/api/resources/${resource.json.id}/scopes`, { method: 'POST', body: { name } });
      await t.call(`/api/roles/${readers}/scopes`, { method: 'POST', body: { scopeIds: [scope.json.id] } });
    }

    const listed = (await t.call('/api/roles?search=counted-%25')).json as Record<string, unknown>[];
    const counts = Object.fromEntries(
      listed.map((role) => [role.name, [role.usersCount, role.applicationsCount, role.scopesCount]]),
    );
    expect(counts).toEqual({
      'counted-readers': [3, 0, 2],
      'counted-robots': [0, 1, 0],
      'counted-empty': [0, 0, 0],
    });
    expect(listed.map((role) => role.id)).toEqual([empty, robots, readers]);
    // Up to three holders each, as the reference answers (featuredUsers, featuredApplications).
    const featured = Object.fromEntries(
      listed.map((role) => [
        role.name,
        [
          (role.featuredUsers as { id: string }[]).map((user) => user.id),
          (role.featuredApplications as { name: string; type: string }[]).map((app) => [app.name, app.type]),
        ],
      ]),
    );
    expect(featured).toEqual({
      'counted-readers': [['cnta0000000', 'cntb0000000', 'cntc0000000'].map((id) => id.slice(0, 12)), []],
      'counted-robots': [[], [['cnt-robot', 'MachineToMachine']]],
      'counted-empty': [[], []],
    });
    for (const name of ['cnt-d', 'cnt-e']) {
      const user = await tenant.insert(users, { id: `cnt${name.slice(-1)}0000000`.slice(0, 12), username: name });
      await t.call(`/api/roles/${readers}/users`, { method: 'POST', body: { userIds: [user.id] } });
    }
    const five = ((await t.call('/api/roles?search=counted-readers')).json as Record<string, unknown>[])[0];
    expect(five?.usersCount).toBe(5);
    expect(five?.featuredUsers).toHaveLength(3);

    // One grouped count per relation for the whole page, however many roles it has.
    const rows = await tenant.findMany(roles, {});
    const aggregate = vi.spyOn(tenant, 'aggregate');
    await withCounts(tenant, rows);
    expect(rows.length).toBeGreaterThan(3);
    expect(aggregate).toHaveBeenCalledTimes(3);
    aggregate.mockRestore();
  });
});
