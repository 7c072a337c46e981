import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcModelInstances, users, usersRoles } from '../src/db/tables.ts';
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

type UserJson = { id: string; [key: string]: unknown };
let counter = 0;
/** A user of its own for each test, with unique identifiers. */
async function newUser(body: Record<string, unknown> = {}): Promise<UserJson> {
  counter += 1;
  const response = await t.call('/api/users', {
    method: 'POST',
    body: { username: `writer_${counter}`, primaryEmail: `writer${counter}@example.com`, ...body },
  });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json as UserJson;
}
const patch = (path: string, body: unknown) => t.call(path, { method: 'PATCH', body });

describe('update users', () => {
  it('patches fields, clears them with null or "", and replaces custom data and profile whole', async () => {
    const user = await newUser({ name: 'Old Name', customData: { a: 1, b: 2 }, profile: { givenName: 'Old' } });
    const response = await patch(`/api/users/${user.id}`, {
      name: 'New Name',
      primaryPhone: '+49 30 1234567',
      avatar: 'https://example.com/new.png',
      customData: { c: 3 },
      profile: { familyName: 'Newman' },
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      id: user.id,
      name: 'New Name',
      primaryPhone: '49301234567',
      avatar: 'https://example.com/new.png',
      customData: { c: 3 },
      profile: { familyName: 'Newman' },
    });
    expect(response.json.updatedAt).toBeGreaterThanOrEqual(Number(user.updatedAt));
    const cleared = await patch(`/api/users/${user.id}`, { name: null, avatar: '', primaryPhone: '' });
    expect(cleared.json).toMatchObject({ name: null, avatar: null, primaryPhone: null });
    expect((await t.call(`/api/users/${user.id}`)).json).toEqual(cleared.json);
  });

  it('keeps at least one identifier', async () => {
    const user = await newUser();
    const response = await patch(`/api/users/${user.id}`, { username: null, primaryEmail: null });
    expectInvalid(response, '');
    expect(response.json.data[0].message).toBe('A user needs a username, an email address or a phone number.');
    expect((await patch(`/api/users/${user.id}`, { username: null })).status, 'the email remains').toBe(200);
  });

  it('rejects invalid patches with the failing field and changes nothing', async () => {
    const user = await newUser({ name: 'Stays' });
    for (const [body, path] of [
      [{}, ''],
      [{ username: '9lives' }, 'username'],
      [{ primaryEmail: 'nope' }, 'primaryEmail'],
      [{ primaryPhone: 'abc' }, 'primaryPhone'],
      [{ avatar: 'ftp://example.com/a.png' }, 'avatar'],
      [{ customData: 'text' }, 'customData'],
      [{ password: 'Sneaky-Password-1' }, ''],
      [{ isSuspended: true }, ''],
    ] as const) {
      expectInvalid(await patch(`/api/users/${user.id}`, body), path, JSON.stringify(body));
    }
    expect((await t.call(`/api/users/${user.id}`)).json.name).toBe('Stays');
  });

  it('answers 422 naming the identifier another user holds', async () => {
    const first = await newUser({ primaryPhone: '4930555000' });
    const second = await newUser();
    for (const [body, code] of [
      [{ username: String(first.username).toUpperCase() }, 'user.username_already_in_use'],
      [{ primaryEmail: first.primaryEmail }, 'user.email_already_in_use'],
      [{ primaryPhone: '+49 30 555000' }, 'user.phone_already_in_use'],
    ] as const) {
      const response = await patch(`/api/users/${second.id}`, body);
      expect(response.status, code).toBe(422);
      expect(response.json.code).toBe(code);
    }
  });

  it('merges the top-level keys of {customData} into the stored object (at most 64 KiB) and reads it back', async () => {
    const user = await newUser({ customData: { keep: false, nested: { old: 1 } } });
    const response = await patch(`/api/users/${user.id}/custom-data`, {
      customData: { plan: 'pro', nested: { seats: 5 } },
    });
    expect(response.status).toBe(200);
    const merged = { keep: false, plan: 'pro', nested: { seats: 5 } };
    expect(response.json).toEqual(merged);
    expect((await t.call(`/api/users/${user.id}/custom-data`)).json).toEqual(merged);
    expectInvalid(await patch(`/api/users/${user.id}/custom-data`, [1, 2]));
    expectInvalid(await patch(`/api/users/${user.id}/custom-data`, { plan: 'bare object' }));
    expectInvalid(await patch(`/api/users/${user.id}/custom-data`, { customData: { big: 'x'.repeat(64 * 1024) } }));
    const half = 'x'.repeat(40 * 1024);
    expect((await patch(`/api/users/${user.id}/custom-data`, { customData: { a: half } })).status).toBe(200);
    expectInvalid(await patch(`/api/users/${user.id}/custom-data`, { customData: { b: half } }), 'customData');
    const invalidJson = await t.call(`/api/users/${user.id}/custom-data`, { method: 'PATCH', rawBody: '{"a":' });
    expect(invalidJson.status).toBe(400);
    expect(invalidJson.json.code).toBe('request.invalid_json');
  });

  it('merges profile fields and reads the profile', async () => {
    const user = await newUser({ profile: { givenName: 'Ada', locale: 'en' } });
    const response = await patch(`/api/users/${user.id}/profile`, {
      profile: { familyName: 'Lovelace', locale: 'en-GB' },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ givenName: 'Ada', familyName: 'Lovelace', locale: 'en-GB' });
    expect((await t.call(`/api/users/${user.id}/profile`)).json).toEqual(response.json);
    expectInvalid(await patch(`/api/users/${user.id}/profile`, { profile: { givenName: 42 } }), 'profile.givenName');
    expectInvalid(
      await patch(`/api/users/${user.id}/profile`, { profile: { nickname: 'n'.repeat(257) } }),
      'profile.nickname',
    );
    expectInvalid(await patch(`/api/users/${user.id}/profile`, { familyName: 'bare claims' }));
  });

  it('audits each update once with before/after and queues User.Data.Updated', async () => {
    const user = await newUser({ name: 'Before' });
    await patch(`/api/users/${user.id}`, { name: 'After' });
    const [entry, ...rest] = await auditEntries(t, user.id);
    expect(rest.map((item) => item.key)).toEqual(['Admin.User.Created']);
    expect(entry?.key).toBe('Admin.User.Updated');
    expect(entry?.payload.before).toMatchObject({ name: 'Before' });
    expect(entry?.payload.after).toMatchObject({ name: 'After' });
    expect(entry?.payload.changes).toEqual([{ field: 'name', before: 'Before', after: 'After' }]);
    const events = await queuedEvents(t, 'User.Data.Updated');
    expect(events.filter((data) => data.id === user.id)).toEqual([expect.objectContaining({ name: 'After' })]);
  });
});

describe('passwords', () => {
  it('sets a password under the policy, audits it without any secret, and reports has-password', async () => {
    const user = await newUser();
    expect((await t.call(`/api/users/${user.id}/has-password`)).json).toEqual({ hasPassword: false });
    const weak = await patch(`/api/users/${user.id}/password`, { password: 'abc' });
    expect(weak.status).toBe(422);
    expect(weak.json.code).toBe('password.rejected');
    expect(weak.json.data.rejections).toContain('password_rejected.too_short');
    const ownName = await patch(`/api/users/${user.id}/password`, { password: `${user.username}1` });
    expect(ownName.json.data.rejections).toContain('password_rejected.restricted.user_info');
    expectInvalid(await patch(`/api/users/${user.id}/password`, {}), 'password');

    const response = await patch(`/api/users/${user.id}/password`, { password: 'Brand-New-Secret-77' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id: user.id, hasPassword: true });
    expect((await t.call(`/api/users/${user.id}/has-password`)).json).toEqual({ hasPassword: true });
    const [entry] = await auditEntries(t, user.id);
    expect(entry?.key).toBe('Admin.User.Updated');
    expect(entry?.payload.changes).toEqual([{ field: 'password', before: 'none', after: 'changed' }]);
    expect(JSON.stringify(entry), 'no password or hash in the audit log').not.toMatch(/Brand-New|argon2/);
    const [row] = await ownTenant(t).findMany(users, { where: eq(users.id, user.id) });
    expect(row?.passwordEncryptionMethod).toBe('Argon2id');
  });

  it('verifies a password: 204 when right, 422 when wrong or when none is set', async () => {
    const user = await newUser({ password: 'Verify-Me-Please-9' });
    const verify = (password: string, id = user.id) =>
      t.call(`/api/users/${id}/password/verify`, { method: 'POST', body: { password } });
    expect((await verify('Verify-Me-Please-9')).status).toBe(204);
    const wrong = await verify('verify-me-please-9');
    expect(wrong.status).toBe(422);
    expect(wrong.json.code).toBe('session.invalid_credentials');
    const withoutPassword = await newUser();
    expect((await verify('anything', withoutPassword.id)).status).toBe(422);
    expectInvalid(await t.call(`/api/users/${user.id}/password/verify`, { method: 'POST', body: {} }), 'password');
  });
});

describe('suspension', () => {
  it('suspends and reactivates, ending the user’s provider sessions, grants and tokens', async () => {
    const user = await newUser();
    const provider = ownTenant(t);
    const stored = ['Session', 'Grant', 'RefreshToken', 'AuthorizationCode'];
    for (const modelName of stored) {
      await provider.insert(oidcModelInstances, {
        modelName,
        id: `${modelName}-${user.id}`,
        payload: { accountId: user.id, grantId: `grant-${user.id}` },
      });
    }
    await provider.insert(oidcModelInstances, {
      modelName: 'Session',
      id: 'someone-else',
      payload: { accountId: 'x' },
    });

    const suspended = await patch(`/api/users/${user.id}/is-suspended`, { isSuspended: true });
    expect(suspended.status).toBe(200);
    expect(suspended.json).toMatchObject({ id: user.id, isSuspended: true });
    const left = await provider.findMany(oidcModelInstances);
    expect(
      left.filter((row) => row.payload.accountId === user.id),
      'nothing of the user is left',
    ).toEqual([]);
    expect(left.map((row) => row.id)).toContain('someone-else');

    const [entry] = await auditEntries(t, user.id);
    expect(entry?.payload.changes).toEqual([{ field: 'isSuspended', before: false, after: true }]);
    const reactivated = await patch(`/api/users/${user.id}/is-suspended`, { isSuspended: false });
    expect(reactivated.json.isSuspended).toBe(false);
    expectInvalid(await patch(`/api/users/${user.id}/is-suspended`, { isSuspended: 'yes' }), 'isSuspended');
  });
});

describe('delete users', () => {
  it('deletes the user with their role assignments and sessions, audited, with User.Deleted', async () => {
    const user = await newUser();
    const role = (await t.call('/api/roles', { method: 'POST', body: { name: `doomed-${user.id}` } })).json;
    await t.call(`/api/users/${user.id}/roles`, { method: 'POST', body: { roleIds: [role.id] } });
    await ownTenant(t).insert(oidcModelInstances, {
      modelName: 'Session',
      id: `s-${user.id}`,
      payload: { accountId: user.id },
    });

    const deleted = await t.call(`/api/users/${user.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.call(`/api/users/${user.id}`)).status).toBe(404);
    expect(await ownTenant(t).findMany(usersRoles, { where: eq(usersRoles.userId, user.id) })).toEqual([]);
    expect(
      await ownTenant(t).findMany(oidcModelInstances, { where: eq(oidcModelInstances.id, `s-${user.id}`) }),
    ).toEqual([]);
    expect((await t.call(`/api/roles/${role.id}`)).status, 'the role stays').toBe(200);

    const [entry] = await auditEntries(t, user.id);
    expect(entry?.key).toBe('Admin.User.Deleted');
    expect(entry?.payload.before).toMatchObject({ id: user.id, username: user.username });
    expect(entry?.payload.after).toBeNull();
    expect((await queuedEvents(t, 'User.Deleted')).find((data) => data.id === user.id)).toBeTruthy();
    expect((await t.call(`/api/users/${user.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('keeps the tenant user count exact through creates and deletes', async () => {
    const before = Number((await t.call('/api/users')).headers.get('Total-Number'));
    const user = await newUser();
    expect(Number((await t.call('/api/users')).headers.get('Total-Number'))).toBe(before + 1);
    await t.call(`/api/users/${user.id}`, { method: 'DELETE' });
    expect(Number((await t.call('/api/users')).headers.get('Total-Number'))).toBe(before);
    const rows = await ownTenant(t).count(users);
    expect(before, 'the counter agrees with count(*)').toBe(rows);
  });
});

describe('another tenant’s users and unknown ids', () => {
  it('answers 404 on every route for a user of another tenant and for an unknown id, changing nothing', async () => {
    const foreign = await otherTenant(t).insert(users, { id: 'foreignwrite', username: 'foreign_writer' });
    for (const id of [foreign.id, 'unknown00000']) {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['PATCH', '', { name: 'hijacked' }],
        ['DELETE', '', undefined],
        ['GET', '/custom-data', undefined],
        ['PATCH', '/custom-data', { customData: { a: 1 } }],
        ['GET', '/profile', undefined],
        ['PATCH', '/profile', { profile: { nickname: 'x' } }],
        ['PATCH', '/password', { password: 'Hijack-Password-1' }],
        ['POST', '/password/verify', { password: 'x' }],
        ['GET', '/has-password', undefined],
        ['PATCH', '/is-suspended', { isSuspended: true }],
        ['GET', '/roles', undefined],
        ['POST', '/roles', { roleIds: ['x'] }],
        ['PUT', '/roles', { roleIds: [] }],
        ['DELETE', '/roles/x', undefined],
        ['GET', '/identities', undefined],
        ['GET', '/identities/github', undefined],
        ['DELETE', '/identities/github', undefined],
      ] as const) {
        const response = await t.call(`/api/users/${id}${path}`, { method, body });
        expect(response.status, `${method} ${path} for ${id}`).toBe(404);
      }
    }
    const [row] = await otherTenant(t).findMany(users, { where: and(eq(users.id, foreign.id)) });
    expect(row).toMatchObject({ username: 'foreign_writer', name: null, isSuspended: false, passwordEncrypted: null });
    expect(row?.tenantId).not.toBe(DEFAULT_TENANT_ID);
  });

  it('guards every write route with a token and scope all', async () => {
    await expectGuarded(t, [
      { method: 'PATCH', path: '/api/users/x', body: { name: 'x' } },
      { method: 'DELETE', path: '/api/users/x' },
      { method: 'GET', path: '/api/users/x/custom-data' },
      { method: 'PATCH', path: '/api/users/x/custom-data', body: {} },
      { method: 'GET', path: '/api/users/x/profile' },
      { method: 'PATCH', path: '/api/users/x/profile', body: {} },
      { method: 'PATCH', path: '/api/users/x/password', body: { password: 'x' } },
      { method: 'POST', path: '/api/users/x/password/verify', body: { password: 'x' } },
      { method: 'GET', path: '/api/users/x/has-password' },
      { method: 'PATCH', path: '/api/users/x/is-suspended', body: { isSuspended: true } },
    ]);
  });
});
