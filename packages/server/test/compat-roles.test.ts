import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 24: roles as a client written for the reference management API sends and reads them (section 3 of the
 * reference: request bodies, answer shapes, status codes, error codes and pagination headers).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Body = Record<string, unknown>;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

async function created(path: string, body: Body, status = 200): Promise<Body & { id: string }> {
  const response = await t.call(path, { method: 'POST', body });
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  return response.json;
}
const newRole = (body: Body = {}) => created('/api/roles', { name: unique('compat-role'), ...body });
const newUser = () => created('/api/users', { username: unique('compat_role_user').replaceAll('-', '_') });
const newM2mApp = () => created('/api/applications', { name: unique('compat robot'), type: 'MachineToMachine' });
async function newScopes(count: number): Promise<string[]> {
  const resource = await created(
    '/api/resources',
    { name: unique('Compat roles API'), indicator: `https://${unique('roles-api')}.example.com` },
    201,
  );
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await created(`/api/resources/${resource.id}/scopes`, { name: `read:thing-${i}` }, 201)).id);
  }
  return ids;
}
const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();

describe('POST /roles and GET/PATCH/DELETE /roles/{id}', () => {
  it('creates a role from the reference body and answers 200 with the Role fields', async () => {
    const scopeIds = await newScopes(2);
    const role = await newRole({ description: 'Can read', type: 'User', isDefault: false, scopeIds });
    expect(role).toMatchObject({ description: 'Can read', type: 'User', isDefault: false });
    expect(typeof role.id).toBe('string');
    expect(typeof role.name).toBe('string');
    const scopes = await t.call(`/api/roles/${role.id}/scopes`);
    expect(ids(scopes.json), 'scopeIds given at creation are assigned').toEqual([...scopeIds].sort());
  });

  it('defaults type to User and description to empty, as the reference does', async () => {
    const role = await newRole();
    expect(role.type).toBe('User');
    expect(role.isDefault).toBe(false);
    const m2m = await newRole({ type: 'MachineToMachine' });
    expect(m2m.type).toBe('MachineToMachine');
  });

  it('refuses a name already in use with 422 role.name_in_use', async () => {
    const role = await newRole();
    const again = await t.call('/api/roles', { method: 'POST', body: { name: role.name } });
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('role.name_in_use');
    const other = await newRole();
    const renamed = await t.call(`/api/roles/${other.id}`, { method: 'PATCH', body: { name: role.name } });
    expect(renamed.status).toBe(422);
    expect(renamed.json.code).toBe('role.name_in_use');
  });

  it('gets, patches (name, description, isDefault) with 200 and deletes with 204', async () => {
    const role = await newRole({ description: 'before' });
    const got = await t.call(`/api/roles/${role.id}`);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: role.id, name: role.name, description: 'before' });
    const name = unique('renamed');
    const patched = await t.call(`/api/roles/${role.id}`, {
      method: 'PATCH',
      body: { name, description: 'after', isDefault: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ id: role.id, name, description: 'after', isDefault: true });
    const deleted = await t.call(`/api/roles/${role.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const gone = await t.call(`/api/roles/${role.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('entity.not_exists_with_id');
  });

  it('answers an unknown role id with 404 on get, patch and delete', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { description: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await t.call('/api/roles/no-such-role', { method, body });
      expect(response.status, method).toBe(404);
      expect(response.json.code, method).toBe('entity.not_exists_with_id');
    }
  });

  it('refuses a body field the reference does not have with 400 guard.invalid_input', async () => {
    const response = await t.call('/api/roles', { method: 'POST', body: { name: unique('x'), type: 'Robot' } });
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('guard.invalid_input');
  });
});

describe('GET /roles (paginated; search, type, excludeUserId, excludeApplicationId)', () => {
  it('is paginated by default with Total-Number and a Link header', async () => {
    for (let i = 0; i < 3; i++) await newRole({ name: unique('paged') });
    const page = await t.call('/api/roles?page=1&page_size=2');
    expect(page.status).toBe(200);
    expect(page.json).toHaveLength(2);
    const total = Number(page.headers.get('Total-Number'));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(page.headers.get('Link')).toMatch(/rel="next"/);
    const whole = await t.call('/api/roles');
    expect(whole.headers.get('Total-Number'), 'pagination is mandatory on /roles').toBe(String(total));
  });

  it('answers 400 guard.invalid_pagination for a bad page or page_size', async () => {
    for (const query of ['page=0', 'page_size=0', 'page_size=101', 'page=abc']) {
      const response = await t.call(`/api/roles?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.code, query).toBe('guard.invalid_pagination');
    }
  });

  it('searches with the console’s search=%keyword% and filters by type', async () => {
    const marker = unique('zebra');
    const user = await newRole({ name: `${marker}-user`, description: 'striped' });
    const m2m = await newRole({ name: `${marker}-m2m`, type: 'MachineToMachine' });
    const found = await t.call(`/api/roles?search=${encodeURIComponent(`%${marker}%`)}`);
    expect(found.status).toBe(200);
    expect(ids(found.json)).toEqual([user.id, m2m.id].sort());
    expect(found.headers.get('Total-Number')).toBe('2');
    const machines = await t.call(`/api/roles?search=${encodeURIComponent(`%${marker}%`)}&type=MachineToMachine`);
    expect(ids(machines.json)).toEqual([m2m.id]);
    const users = await t.call(`/api/roles?search=${encodeURIComponent(`%${marker}%`)}&type=User`);
    expect(ids(users.json)).toEqual([user.id]);
  });

  it('leaves out the roles a user or an application already holds', async () => {
    const marker = unique('holder');
    const [a, b] = [await newRole({ name: `${marker}-a` }), await newRole({ name: `${marker}-b` })];
    const user = await newUser();
    expect((await t.call(`/api/roles/${a.id}/users`, { method: 'POST', body: { userIds: [user.id] } })).status).toBe(
      201,
    );
    const left = await t.call(`/api/roles?search=${encodeURIComponent(`%${marker}%`)}&excludeUserId=${user.id}`);
    expect(ids(left.json)).toEqual([b.id]);

    const [c, d] = [
      await newRole({ name: `${marker}-c`, type: 'MachineToMachine' }),
      await newRole({ name: `${marker}-d`, type: 'MachineToMachine' }),
    ];
    const app = await newM2mApp();
    const assigned = await t.call(`/api/roles/${c.id}/applications`, {
      method: 'POST',
      body: { applicationIds: [app.id] },
    });
    expect(assigned.status).toBe(201);
    const apps = await t.call(
      `/api/roles?search=${encodeURIComponent(`%${marker}%`)}&type=MachineToMachine&excludeApplicationId=${app.id}`,
    );
    expect(ids(apps.json)).toEqual([d.id]);
  });
});

describe('GET /roles answers the reference’s counts and featured holders (issue 43)', () => {
  it('adds usersCount, featuredUsers, applicationsCount and featuredApplications to each role', async () => {
    const marker = unique('counted');
    const role = await newRole({ name: `${marker}-user` });
    const m2m = await newRole({ name: `${marker}-m2m`, type: 'MachineToMachine' });
    const [u1, u2] = [await newUser(), await newUser()];
    await t.call(`/api/roles/${role.id}/users`, { method: 'POST', body: { userIds: [u1.id, u2.id] } });
    const app = await newM2mApp();
    await t.call(`/api/roles/${m2m.id}/applications`, { method: 'POST', body: { applicationIds: [app.id] } });
    const list = await t.call(`/api/roles?search=${encodeURIComponent(`%${marker}%`)}`);
    expect(list.status).toBe(200);
    const byId = new Map((list.json as Body[]).map((item) => [item.id, item]));
    expect(byId.get(role.id)).toMatchObject({ usersCount: 2, applicationsCount: 0, featuredApplications: [] });
    const featured = (byId.get(role.id)?.featuredUsers ?? []) as (Body & { id: string })[];
    expect(ids(featured)).toEqual([u1.id, u2.id].sort());
    for (const user of featured) {
      expect(Object.keys(user).sort()).toEqual(['avatar', 'id', 'name']);
    }
    expect(byId.get(m2m.id)).toMatchObject({
      usersCount: 0,
      featuredUsers: [],
      applicationsCount: 1,
      featuredApplications: [{ id: app.id, name: app.name, type: 'MachineToMachine' }],
    });
  });
});

describe('the reference’s search syntax on role lists (issue 43)', () => {
  const query = (params: Record<string, string | string[]>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) for (const one of [value].flat()) search.append(key, one);
    return search.toString();
  };

  it('GET /roles takes search.<field>, mode, joint and isCaseSensitive over id, name and description', async () => {
    const marker = unique('fieldsearch');
    const alpha = await newRole({ name: `${marker}-Alpha`, description: 'first one' });
    const beta = await newRole({ name: `${marker}-beta`, description: `mentions ${marker}-alpha` });
    const found = async (params: Record<string, string | string[]>) => {
      const response = await t.call(`/api/roles?${query(params)}`);
      expect(response.status, `${JSON.stringify(params)}: ${response.text}`).toBe(200);
      return ids(response.json);
    };
    // `search` looks in every field; `search.name` in the name only.
    expect(await found({ search: `%${marker}-alpha%` })).toEqual([alpha.id, beta.id].sort());
    expect(await found({ 'search.name': `%${marker}-alpha%` })).toEqual([alpha.id]);
    expect(await found({ 'search.description': 'first%' })).toEqual([alpha.id]);
    expect(await found({ 'search.description': 'first' }), 'without %: the whole value (issue 43)').toEqual([]);
    expect(await found({ 'search.description': 'FIRST ONE' }), 'in any case').toEqual([alpha.id]);
    // Exact mode takes several values (any of them); case is ignored unless asked.
    expect(await found({ 'search.name': [`${marker}-alpha`, `${marker}-beta`], mode: 'exact' })).toEqual(
      [alpha.id, beta.id].sort(),
    );
    expect(await found({ 'search.name': `${marker}-alpha`, 'mode.name': 'exact', isCaseSensitive: 'true' })).toEqual(
      [],
    );
    expect(await found({ 'search.id': alpha.id, 'mode.id': 'exact' })).toEqual([alpha.id]);
    // joint=and: every condition; the default or: any.
    const both = { 'search.name': `%${marker}%`, 'search.description': '%mentions%' };
    expect(await found({ ...both, joint: 'and' })).toEqual([beta.id]);
    expect(await found({ ...both, jointMode: 'or' })).toEqual([alpha.id, beta.id].sort());
  });

  it('answers a search it cannot parse 400 request.invalid_input; regular-expression modes stay refused', async () => {
    for (const params of [
      { 'search.username': 'x' } as Record<string, string | string[]>,
      { search: 'x', mode: 'similar_to' },
      { search: 'x', mode: 'posix' },
      { 'search.name': 'x', joint: 'xor' },
      { 'search.name': ['a', 'b'] },
      { search: '' },
    ]) {
      const response = await t.call(`/api/roles?${query(params)}`);
      expect(response.status, JSON.stringify(params)).toBe(400);
      expect(response.json.code, JSON.stringify(params)).toBe('request.invalid_input');
    }
  });

  it('role scopes, users and applications take it too, each over its own fields', async () => {
    const role = await newRole();
    const scopeIds = await newScopes(3);
    await t.call(`/api/roles/${role.id}/scopes`, { method: 'POST', body: { scopeIds } });
    const scopes = await t.call(
      `/api/roles/${role.id}/scopes?${query({ 'search.name': 'read:thing-1', mode: 'exact' })}`,
    );
    expect(scopes.status, scopes.text).toBe(200);
    expect(ids(scopes.json)).toEqual([scopeIds[1]]);

    const [u1, u2] = [await newUser(), await newUser()];
    await t.call(`/api/roles/${role.id}/users`, { method: 'POST', body: { userIds: [u1.id, u2.id] } });
    const users = await t.call(
      `/api/roles/${role.id}/users?${query({ 'search.username': String(u2.username), 'mode.username': 'exact' })}`,
    );
    expect(users.status, users.text).toBe(200);
    expect(ids(users.json)).toEqual([u2.id]);
    const wrongField = await t.call(`/api/roles/${role.id}/users?${query({ 'search.description': 'x' })}`);
    expect(wrongField.status).toBe(400);
    expect(wrongField.json.code).toBe('request.invalid_input');

    const m2m = await newRole({ type: 'MachineToMachine' });
    const [a1, a2] = [await newM2mApp(), await newM2mApp()];
    await t.call(`/api/roles/${m2m.id}/applications`, { method: 'POST', body: { applicationIds: [a1.id, a2.id] } });
    const apps = await t.call(
      `/api/roles/${m2m.id}/applications?${query({ 'search.name': String(a1.name), mode: 'exact' })}`,
    );
    expect(apps.status, apps.text).toBe(200);
    expect(ids(apps.json)).toEqual([a1.id]);
  });
});

describe('role scopes, users and applications (reference relation routes)', () => {
  it('POST /roles/{id}/scopes {scopeIds} is 201; the list carries each scope’s resource; DELETE is 204', async () => {
    const role = await newRole();
    const scopeIds = await newScopes(3);
    const added = await t.call(`/api/roles/${role.id}/scopes`, { method: 'POST', body: { scopeIds } });
    expect(added.status).toBe(201);
    const whole = await t.call(`/api/roles/${role.id}/scopes`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('Total-Number'), 'pagination is optional on role scopes').toBeNull();
    expect(ids(whole.json)).toEqual([...scopeIds].sort());
    for (const scope of whole.json) {
      expect(scope).toMatchObject({ resourceId: scope.resource.id, name: expect.any(String) });
      expect(scope).toHaveProperty('description');
      expect(scope).toHaveProperty('createdAt');
      expect(scope.resource).toMatchObject({ indicator: expect.stringMatching(/^https:\/\//) });
    }
    const paged = await t.call(`/api/roles/${role.id}/scopes?page=1&page_size=2`);
    expect(paged.headers.get('Total-Number')).toBe('3');
    expect(paged.json).toHaveLength(2);

    const removed = await t.call(`/api/roles/${role.id}/scopes/${scopeIds[0]}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(ids((await t.call(`/api/roles/${role.id}/scopes`)).json)).toEqual(scopeIds.slice(1).sort());
  });

  it('POST /roles/{id}/scopes answers 201 with every scope of the role after the assignment (issue 43)', async () => {
    const role = await newRole();
    const [first, ...rest] = await newScopes(3);
    if (!first) throw new Error('no scope');
    const one = await t.call(`/api/roles/${role.id}/scopes`, { method: 'POST', body: { scopeIds: [first] } });
    expect(one.status, one.text).toBe(201);
    expect(ids(one.json)).toEqual([first]);
    const more = await t.call(`/api/roles/${role.id}/scopes`, { method: 'POST', body: { scopeIds: rest } });
    expect(more.status, more.text).toBe(201);
    expect(Array.isArray(more.json)).toBe(true);
    expect(ids(more.json), 'the scopes assigned before are in the answer too').toEqual([first, ...rest].sort());
    for (const scope of more.json) {
      // The reference's Scope: its fields, without the resource the list adds.
      expect(Object.keys(scope).sort()).toEqual(['createdAt', 'description', 'id', 'name', 'resourceId', 'tenantId']);
      expect(scope).toMatchObject({ id: expect.any(String), name: expect.stringMatching(/^read:thing-/) });
    }
    const again = await t.call(`/api/roles/${role.id}/scopes`, { method: 'POST', body: { scopeIds: [first] } });
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('role.scope_exists');
  });

  it('POST /roles/{id}/users and /applications answer 201 with no body, as the reference', async () => {
    const role = await newRole();
    const users = await t.call(`/api/roles/${role.id}/users`, {
      method: 'POST',
      body: { userIds: [(await newUser()).id] },
    });
    expect(users.status).toBe(201);
    expect(users.text).toBe('');
    const m2m = await newRole({ type: 'MachineToMachine' });
    const apps = await t.call(`/api/roles/${m2m.id}/applications`, {
      method: 'POST',
      body: { applicationIds: [(await newM2mApp()).id] },
    });
    expect(apps.status).toBe(201);
    expect(apps.text).toBe('');
  });

  it('POST /roles/{id}/users {userIds} is 201, the list is paginated by default, DELETE is 204', async () => {
    const role = await newRole();
    const [u1, u2] = [await newUser(), await newUser()];
    const added = await t.call(`/api/roles/${role.id}/users`, { method: 'POST', body: { userIds: [u1.id, u2.id] } });
    expect(added.status).toBe(201);
    const list = await t.call(`/api/roles/${role.id}/users`);
    expect(list.status).toBe(200);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect(ids(list.json)).toEqual([u1.id, u2.id].sort());
    expect(list.json[0]).toHaveProperty('username');
    expect(list.json[0]).not.toHaveProperty('passwordEncrypted');
    const searched = await t.call(`/api/roles/${role.id}/users?search=${encodeURIComponent(`%${u2.username}%`)}`);
    expect(ids(searched.json)).toEqual([u2.id]);
    const removed = await t.call(`/api/roles/${role.id}/users/${u1.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(ids((await t.call(`/api/roles/${role.id}/users`)).json)).toEqual([u2.id]);
    expect((await t.call(`/api/users/${u1.id}/roles`)).json).toEqual([]);
  });

  it('POST /roles/{id}/applications {applicationIds} is 201, the list is paginated, DELETE is 204', async () => {
    const role = await newRole({ type: 'MachineToMachine' });
    const [a1, a2] = [await newM2mApp(), await newM2mApp()];
    const added = await t.call(`/api/roles/${role.id}/applications`, {
      method: 'POST',
      body: { applicationIds: [a1.id, a2.id] },
    });
    expect(added.status).toBe(201);
    const list = await t.call(`/api/roles/${role.id}/applications`);
    expect(list.status).toBe(200);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect(ids(list.json)).toEqual([a1.id, a2.id].sort());
    expect(list.json[0]).toMatchObject({ type: 'MachineToMachine' });
    const removed = await t.call(`/api/roles/${role.id}/applications/${a1.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(ids((await t.call(`/api/roles/${role.id}/applications`)).json)).toEqual([a2.id]);
  });

  it('answers 404 for an unknown role on every relation route', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/roles/no-such-role/scopes', undefined],
      ['POST', '/api/roles/no-such-role/scopes', { scopeIds: ['some-scope'] }],
      ['GET', '/api/roles/no-such-role/users', undefined],
      ['POST', '/api/roles/no-such-role/users', { userIds: ['some-user'] }],
      ['GET', '/api/roles/no-such-role/applications', undefined],
      ['POST', '/api/roles/no-such-role/applications', { applicationIds: ['some-app'] }],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  });

  it('answers an unknown scope, user or application id with 404, in the code of the reference’s finder', async () => {
    const role = await newRole();
    const m2m = await newRole({ type: 'MachineToMachine' });
    for (const [path, body, code] of [
      [`/api/roles/${role.id}/scopes`, { scopeIds: ['no-such-scope'] }, 'entity.not_exists_with_id'],
      // Its user finder is a one-row query: `entity.not_found` (issue 43).
      [`/api/roles/${role.id}/users`, { userIds: ['no-such-user'] }, 'entity.not_found'],
      [`/api/roles/${m2m.id}/applications`, { applicationIds: ['no-such-app'] }, 'entity.not_exists_with_id'],
    ] as const) {
      const response = await t.call(path, { method: 'POST', body });
      expect(response.status, path).toBe(404);
      expect(response.json.code, path).toBe(code);
    }
  });

  it('answers DELETE of a link that is not there 404 entity.not_found, even under an unknown role (issue 43)', async () => {
    // The reference deletes the link without looking the role up: its deletion miss either way.
    const role = await newRole();
    for (const path of [
      `/api/roles/${role.id}/scopes/no-such-scope`,
      `/api/roles/${role.id}/users/nosuchuser12`,
      `/api/roles/${role.id}/applications/no-such-app`,
      '/api/roles/no-such-role/scopes/no-such-scope',
      '/api/roles/no-such-role/users/nosuchuser12',
    ]) {
      const response = await t.call(path, { method: 'DELETE' });
      expect(response.status, path).toBe(404);
      expect(response.json.code, path).toBe('entity.not_found');
    }
  });

  it('refuses a role of the other type on the role’s side with 422 role.invalid_type (kept: README)', async () => {
    // The reference links them unchecked; a machine-to-machine role may hold the management API's scopes.
    const m2m = await newRole({ type: 'MachineToMachine' });
    const toUser = await t.call(`/api/roles/${m2m.id}/users`, {
      method: 'POST',
      body: { userIds: [(await newUser()).id] },
    });
    expect(toUser.status).toBe(422);
    expect(toUser.json).toMatchObject({ code: 'role.invalid_type', data: { ids: [m2m.id] } });
    const userRole = await newRole();
    const toApp = await t.call(`/api/roles/${userRole.id}/applications`, {
      method: 'POST',
      body: { applicationIds: [(await newM2mApp()).id] },
    });
    expect(toApp.status).toBe(422);
    expect(toApp.json.code).toBe('role.invalid_type');
  });

  it('refuses an empty id list with 400 guard.invalid_input', async () => {
    const role = await newRole();
    const response = await t.call(`/api/roles/${role.id}/users`, { method: 'POST', body: { userIds: [] } });
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('guard.invalid_input');
  });
});
