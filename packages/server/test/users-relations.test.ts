import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, users } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
async function newUser(): Promise<string> {
  counter += 1;
  const response = await t.call('/api/users', { method: 'POST', body: { username: `related_${counter}` } });
  expect(response.status).toBe(200);
  return String(response.json.id);
}
async function newRole(name: string, type = 'User'): Promise<string> {
  const response = await t.call('/api/roles', { method: 'POST', body: { name, type } });
  expect(response.status).toBe(200);
  return String(response.json.id);
}
const heldRoles = async (userId: string, query = '') =>
  ((await t.call(`/api/users/${userId}/roles?page_size=100${query}`)).json as { id: string }[]).map((role) => role.id);

describe("a user's roles", () => {
  it('adds user roles (keeping ones already held), lists, searches and removes them', async () => {
    const user = await newUser();
    const editor = await newRole('user-editor');
    const viewer = await newRole('user-viewer');
    const first = await t.call(`/api/users/${user}/roles`, { method: 'POST', body: { roleIds: [editor] } });
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ roleIds: [editor], addedRoleIds: [editor] });
    const second = await t.call(`/api/users/${user}/roles`, { method: 'POST', body: { roleIds: [editor, viewer] } });
    expect(second.status).toBe(201);
    expect(second.json, 'the ids of the request, and the one added').toEqual({
      roleIds: [editor, viewer],
      addedRoleIds: [viewer],
    });

    const list = await t.call(`/api/users/${user}/roles`);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect((list.json as { id: string }[]).map((role) => role.id)).toEqual([viewer, editor]);
    expect(await heldRoles(user, '&search=%25edit%25')).toEqual([editor]);
    expect(((await t.call(`/api/roles/${editor}/users`)).json as { id: string }[]).map((u) => u.id)).toEqual([user]);
    expect(((await t.call(`/api/users?roleId=${editor}`)).json as { id: string }[]).map((u) => u.id)).toEqual([user]);

    expect((await t.call(`/api/users/${user}/roles/${editor}`, { method: 'DELETE' })).status).toBe(204);
    expect(await heldRoles(user)).toEqual([viewer]);
    const again = await t.call(`/api/users/${user}/roles/${editor}`, { method: 'DELETE' });
    expect(again.status, 'a role the user does not hold').toBe(404);
  });

  it('replaces the whole set with PUT, and an empty list removes every role', async () => {
    const user = await newUser();
    const [a, b, c] = [await newRole('put-a'), await newRole('put-b'), await newRole('put-c')];
    await t.call(`/api/users/${user}/roles`, { method: 'POST', body: { roleIds: [a, b] } });
    const replaced = await t.call(`/api/users/${user}/roles`, { method: 'PUT', body: { roleIds: [b, c] } });
    expect(replaced.status).toBe(200);
    expect(replaced.text, 'the reference answers 200 without a body').toBe('');
    expect((await heldRoles(user)).sort()).toEqual([b, c].sort());
    expect((await t.call(`/api/users/${user}/roles`, { method: 'PUT', body: { roleIds: [] } })).status).toBe(200);
    expect(await heldRoles(user)).toEqual([]);
  });

  it('refuses machine roles (422), unknown and foreign roles (404), bad bodies (400), and assigns none of them', async () => {
    const user = await newUser();
    const userRole = await newRole('mixed-user');
    const machine = await newRole('mixed-machine', 'MachineToMachine');
    const foreign = await otherTenant(t).insert(roles, { id: 'foreign-user-role', name: 'foreign' });

    const wrongType = await t.call(`/api/users/${user}/roles`, {
      method: 'POST',
      body: { roleIds: [userRole, machine] },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json).toMatchObject({ code: 'user.invalid_role_type', data: { ids: [machine] } });
    const putWrongType = await t.call(`/api/users/${user}/roles`, { method: 'PUT', body: { roleIds: [machine] } });
    expect(putWrongType.status).toBe(422);
    expect(putWrongType.json.code).toBe('user.invalid_role_type');
    for (const roleIds of [['no-such-role'], [foreign.id]]) {
      const response = await t.call(`/api/users/${user}/roles`, { method: 'POST', body: { roleIds } });
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ code: 'entity.not_exists_with_id', data: { ids: roleIds } });
    }
    for (const body of [{}, { roleIds: [] }, { roleIds: [userRole, userRole] }, { roleIds: 'x' }]) {
      expectInvalid(
        await t.call(`/api/users/${user}/roles`, { method: 'POST', body }),
        'roleIds',
        JSON.stringify(body),
      );
    }
    expectInvalid(await t.call(`/api/users/${user}/roles`, { method: 'PUT', body: { roleIds: [userRole, userRole] } }));
    expect(await heldRoles(user)).toEqual([]);
    expect((await t.call(`/api/users/${user}/roles/${foreign.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('audits each change with the role set before and after', async () => {
    const user = await newUser();
    const role = await newRole('audited-user-role');
    await t.call(`/api/users/${user}/roles`, { method: 'POST', body: { roleIds: [role] } });
    await t.call(`/api/users/${user}/roles/${role}`, { method: 'DELETE' });
    const [removed, added] = await auditEntries(t, user);
    expect(added).toMatchObject({
      key: 'Admin.User.Updated',
      payload: { before: { roleIds: [] }, after: { roleIds: [role] } },
    });
    expect(removed).toMatchObject({ payload: { before: { roleIds: [role] }, after: { roleIds: [] } } });
  });
});

describe("a user's identities", () => {
  it('lists, reads and unlinks identities; audited', async () => {
    const user = await newUser();
    const identities = {
      github: { userId: 'gh-42', details: { login: 'octo' } },
      google: { userId: 'g-7' },
    };
    await ownTenant(t).update(users, eq(users.id, user), { identities });
    expect((await t.call(`/api/users/${user}/identities`)).json).toEqual(identities);
    expect((await t.call(`/api/users/${user}/identities/github`)).json).toEqual(identities.github);
    expect((await t.call(`/api/users/${user}/identities/twitter`)).status).toBe(404);
    expect((await t.call(`/api/users/${user}/identities/toString`)).status, 'only own keys').toBe(404);

    const removed = await t.call(`/api/users/${user}/identities/github`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await t.call(`/api/users/${user}/identities`)).json).toEqual({ google: identities.google });
    expect((await t.call(`/api/users/${user}/identities/github`, { method: 'DELETE' })).status).toBe(404);
    const [entry] = await auditEntries(t, user);
    expect(entry?.payload.changes).toEqual([
      { field: 'identities', before: identities, after: { google: identities.google } },
    ]);
  });

  it('guards the relation routes', async () => {
    await expectGuarded(t, [
      { method: 'GET', path: '/api/users/x/roles' },
      { method: 'POST', path: '/api/users/x/roles', body: { roleIds: ['r'] } },
      { method: 'PUT', path: '/api/users/x/roles', body: { roleIds: [] } },
      { method: 'DELETE', path: '/api/users/x/roles/r' },
      { method: 'GET', path: '/api/users/x/identities' },
      { method: 'GET', path: '/api/users/x/identities/github' },
      { method: 'DELETE', path: '/api/users/x/identities/github' },
    ]);
  });
});
