import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

// Issue 24: the users API as a client written for the reference product sees it. Each request below has the
// reference's shape (only base URL and token differ), and each answer is checked as that client reads it.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
async function newUser(body: Record<string, unknown> = {}): Promise<{ id: string }> {
  counter += 1;
  const response = await t.call('/api/users', { method: 'POST', body: { username: `compat_${counter}`, ...body } });
  expect(response.status).toBe(200);
  return response.json as { id: string };
}

describe('PATCH /users/{userId}/profile and /custom-data (reference bodies)', () => {
  it('takes {profile} and merges the given claims into the stored profile, answering the whole profile', async () => {
    const user = await newUser({ profile: { givenName: 'Ada', address: { country: 'UK' } } });
    const response = await t.call(`/api/users/${user.id}/profile`, {
      method: 'PATCH',
      body: { profile: { familyName: 'Lovelace', address: { locality: 'London' } } },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ givenName: 'Ada', familyName: 'Lovelace', address: { locality: 'London' } });
    expect((await t.call(`/api/users/${user.id}`)).json.profile).toEqual(response.json);
  });

  it('takes {customData} and merges its top-level keys, never storing the wrapper', async () => {
    const user = await newUser({ customData: { plan: 'free', seats: 1 } });
    const response = await t.call(`/api/users/${user.id}/custom-data`, {
      method: 'PATCH',
      body: { customData: { plan: 'pro', region: 'eu' } },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ plan: 'pro', seats: 1, region: 'eu' });
    const stored = (await t.call(`/api/users/${user.id}`)).json.customData;
    expect(stored).toEqual({ plan: 'pro', seats: 1, region: 'eu' });
    expect(stored).not.toHaveProperty('customData');
  });
});

describe('GET /users/{userId} and GET /users', () => {
  it('answers 404 entity.not_found for an unknown user, and for an id that cannot exist (issue 43)', async () => {
    // The reference finds a user with a one-row query, whose miss its error handler answers `entity.not_found`.
    for (const id of [
      'unknownuser1',
      'not-an-id',
      'a-much-longer-id-than-twelve',
      '00000000-0000-0000-0000-000000000000',
    ]) {
      const response = await t.call(`/api/users/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.json.code, id).toBe('entity.not_found');
    }
  });

  it('answers entity.not_found on every route of an unknown user, as the reference’s user finder (issue 43)', async () => {
    const calls: [string, string, unknown?][] = [
      ['PATCH', '/api/users/unknownuser1', { name: 'x' }],
      ['DELETE', '/api/users/unknownuser1'],
      ['PATCH', '/api/users/unknownuser1/password', { password: 'Quiet-Harbour-57' }],
      ['PATCH', '/api/users/unknownuser1/is-suspended', { isSuspended: true }],
      ['GET', '/api/users/unknownuser1/custom-data'],
      ['GET', '/api/users/unknownuser1/roles'],
      ['GET', '/api/users/unknownuser1/organizations'],
      ['GET', '/api/users/unknownuser1/personal-access-tokens'],
      ['DELETE', '/api/users/unknownuser1/mfa-verifications/someverification'],
    ];
    for (const [method, path, body] of calls) {
      const response = await t.call(path, { method, ...(body ? { body } : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json.code, `${method} ${path}`).toBe('entity.not_found');
    }
  });

  it('answers a user without that identity 404 user.identity_not_exist on unlink (issue 43)', async () => {
    const user = await newUser();
    const response = await t.call(`/api/users/${user.id}/identities/github`, { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(response.json.code).toBe('user.identity_not_exist');
  });

  it('answers search-syntax errors (mode, field, joint) 400 request.invalid_input, as the reference (issue 43)', async () => {
    for (const query of [
      'search=ada&mode=regex',
      'search.nickname=ada',
      'search.username=ada&mode.username=fuzzy',
      'search=ada&joint=xor',
      'search=ada&jointMode=nand',
    ]) {
      const response = await t.call(`/api/users?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.code, query).toBe('request.invalid_input');
    }
    // Pagination stays the reference's pagination error.
    const page = await t.call('/api/users?search=ada&page=0');
    expect(page.status).toBe(400);
    expect(page.json.code).toBe('guard.invalid_pagination');
  });

  it('refuses an empty search value with 400 request.invalid_input', async () => {
    for (const query of ['search=', 'search.username=', 'search.primaryEmail=&mode.primaryEmail=exact']) {
      const response = await t.call(`/api/users?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.code, query).toBe('request.invalid_input');
    }
  });

  it('adds ssoIdentities when asked and refuses includePasswordHash=true', async () => {
    const user = await newUser();
    const withSso = await t.call(`/api/users/${user.id}?includeSsoIdentities=true`);
    expect(withSso.status).toBe(200);
    expect(withSso.json).toMatchObject({ id: user.id, ssoIdentities: [] });
    expect((await t.call(`/api/users/${user.id}?includePasswordHash=false`)).status).toBe(200);
    for (const path of [`/api/users/${user.id}?includePasswordHash=true`, '/api/users?includePasswordHash=true']) {
      const refused = await t.call(path);
      expect(refused.status, path).toBe(400);
      expect(refused.json.code).toBe('guard.invalid_input');
    }
  });

  it('accepts digits-only phone numbers as the reference stores them (and tolerates +, spaces and dashes)', async () => {
    const user = await newUser({ primaryPhone: '8613912345678' });
    expect((await t.call(`/api/users/${user.id}`)).json.primaryPhone).toBe('8613912345678');
    const found = await t.call('/api/users?search.primaryPhone=8613912345678&mode.primaryPhone=exact');
    expect(found.json.map((u: { id: string }) => u.id)).toEqual([user.id]);
  });
});

describe('POST /users/{userId}/roles', () => {
  it('ignores roles already held and answers 201 {roleIds (as requested), addedRoleIds}', async () => {
    const user = await newUser();
    const role = async (name: string) =>
      String((await t.call('/api/roles', { method: 'POST', body: { name } })).json.id);
    const [a, b] = [await role('compat-a'), await role('compat-b')];
    const first = await t.call(`/api/users/${user.id}/roles`, { method: 'POST', body: { roleIds: [b] } });
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ roleIds: [b], addedRoleIds: [b] });
    const second = await t.call(`/api/users/${user.id}/roles`, { method: 'POST', body: { roleIds: [b, a] } });
    expect(second.status).toBe(201);
    expect(second.json).toEqual({ roleIds: [b, a], addedRoleIds: [a] });
  });

  it('answers an unknown role id with 404 entity.not_exists_with_id, as the reference’s finder does', async () => {
    const user = await newUser();
    const response = await t.call(`/api/users/${user.id}/roles`, {
      method: 'POST',
      body: { roleIds: ['no-such-role'] },
    });
    expect(response.status).toBe(404);
    expect(response.json.code).toBe('entity.not_exists_with_id');
  });

  it('a machine-to-machine role is 422 user.invalid_role_type, the reference’s code (issue 43)', async () => {
    const user = await newUser();
    const m2m = await t.call('/api/roles', { method: 'POST', body: { name: 'compat_m2m', type: 'MachineToMachine' } });
    const response = await t.call(`/api/users/${user.id}/roles`, {
      method: 'POST',
      body: { roleIds: [String(m2m.json.id)] },
    });
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ code: 'user.invalid_role_type', data: { ids: [m2m.json.id] } });
  });

  it('PUT replaces the roles and answers 200 without a body, as the reference (issue 43)', async () => {
    const user = await newUser();
    const role = await t.call('/api/roles', { method: 'POST', body: { name: 'compat_put_role' } });
    const put = await t.call(`/api/users/${user.id}/roles`, { method: 'PUT', body: { roleIds: [role.json.id] } });
    expect(put.status).toBe(200);
    expect(put.text).toBe('');
    expect((await t.call(`/api/users/${user.id}/roles`)).json.map((r: { id: string }) => r.id)).toEqual([role.json.id]);
  });

  it('lists a user’s roles with the reference’s search syntax (issue 43)', async () => {
    const user = await newUser();
    const role = async (name: string, description: string) =>
      String((await t.call('/api/roles', { method: 'POST', body: { name, description } })).json.id);
    const [viewer, editor] = [await role('compat_viewer', 'reads'), await role('compat_editor', 'reads and writes')];
    await t.call(`/api/users/${user.id}/roles`, { method: 'POST', body: { roleIds: [viewer, editor] } });
    const ids = async (query: string) => {
      const response = await t.call(`/api/users/${user.id}/roles?${query}`);
      expect(response.status, `${query}: ${response.text}`).toBe(200);
      return response.json.map((r: { id: string }) => r.id).sort();
    };
    expect(await ids('search.description=%25writes')).toEqual([editor]);
    expect(await ids('search.name=compat_viewer&mode=exact')).toEqual([viewer]);
    expect(await ids('search=reads%25')).toEqual([viewer, editor].sort());
    expect(await ids('search=reads'), 'without %: the whole value (issue 43)').toEqual([viewer]);
    const refused = await t.call(`/api/users/${user.id}/roles?search.username=x`);
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('request.invalid_input');
  });

  it('answers DELETE of a role the user does not hold 404 entity.not_found, the reference’s deletion miss (issue 43)', async () => {
    const user = await newUser();
    const role = await t.call('/api/roles', { method: 'POST', body: { name: 'compat_not_held' } });
    for (const roleId of [String(role.json.id), 'no-such-role']) {
      const response = await t.call(`/api/users/${user.id}/roles/${roleId}`, { method: 'DELETE' });
      expect(response.status, roleId).toBe(404);
      expect(response.json.code, roleId).toBe('entity.not_found');
    }
  });
});

describe('passwords longer than the policy allows', () => {
  const long = `Aa1!${'x9'.repeat(200)}`;
  const expectTooLong = (response: { status: number; json: { code?: string; data?: unknown } }) => {
    expect(response.status).toBe(422);
    expect(response.json.code).toBe('password.rejected');
    expect((response.json.data as { rejections: string[] }).rejections).toContain('password_rejected.too_long');
  };

  it('are refused with password_rejected.too_long on create and on a password change', async () => {
    expectTooLong(await t.call('/api/users', { method: 'POST', body: { username: 'compat_long', password: long } }));
    const user = await newUser();
    expectTooLong(await t.call(`/api/users/${user.id}/password`, { method: 'PATCH', body: { password: long } }));
    const verify = await t.call(`/api/users/${user.id}/password/verify`, { method: 'POST', body: { password: long } });
    expect(verify.status, 'a long password is simply not the user’s').toBe(422);
  });
});

describe('personal access tokens (the reference console’s calls)', () => {
  it('creates, lists, renames both ways and deletes both ways, with the reference shapes', async () => {
    const user = await newUser();
    const base = `/api/users/${user.id}/personal-access-tokens`;
    const expiresAt = Date.now() + 3_600_000;
    const created = await t.call(base, { method: 'POST', body: { name: 'token-a', expiresAt } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json).sort()).toEqual(['createdAt', 'expiresAt', 'name', 'tenantId', 'userId', 'value']);
    expect(created.json).toMatchObject({ userId: user.id, name: 'token-a', expiresAt });
    expect(typeof created.json.value).toBe('string');
    expect((await t.call(base, { method: 'POST', body: { name: 'token-b', expiresAt: null } })).status).toBe(201);

    const listed = await t.call(base);
    expect(listed.status).toBe(200);
    expect(listed.json.map((token: { name: string }) => token.name)).toEqual(['token-a', 'token-b']);
    // Gatehouse difference (README): the value is a mask after the creation's answer.
    expect(listed.text).not.toContain(created.json.value);

    const renamedByBody = await t.call(base, { method: 'PATCH', body: { currentName: 'token-a', name: 'token-c' } });
    expect(renamedByBody.status).toBe(200);
    expect(renamedByBody.json.name).toBe('token-c');
    const renamedByPath = await t.call(`${base}/token-b`, { method: 'PATCH', body: { name: 'token-d' } });
    expect(renamedByPath.status).toBe(200);
    const duplicate = await t.call(`${base}/token-d`, { method: 'PATCH', body: { name: 'token-c' } });
    expect(duplicate.status).toBe(422);
    expect(duplicate.json.code).toBe('user.personal_access_token_name_exists');

    expect((await t.call(`${base}/delete`, { method: 'POST', body: { name: 'token-c' } })).status).toBe(204);
    expect((await t.call(`${base}/token-d`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(base)).json).toEqual([]);
  });
});
