import { createHash } from 'node:crypto';
import { PERSONAL_ACCESS_TOKEN_MASK } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalAccessTokens, users } from '../src/db/tables.ts';
import { findActivePersonalAccessToken } from '../src/services/personal-access-tokens.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

/** Personal access tokens of a user (issue 24): the reference's paths, the value shown once, a hash at rest. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type TokenJson = {
  tenantId: string;
  userId: string;
  name: string;
  value: string;
  createdAt: number;
  expiresAt: number | null;
};

async function newUser(username: string): Promise<{ id: string }> {
  const response = await t.call('/api/users', { method: 'POST', body: { username } });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json as { id: string };
}

const path = (userId: string) => `/api/users/${userId}/personal-access-tokens`;
const byName = (userId: string, name: string) => `${path(userId)}/${encodeURIComponent(name)}`;
const create = (userId: string, body: Record<string, unknown>) => t.call(path(userId), { method: 'POST', body });
const list = async (userId: string) => {
  const response = await t.call(path(userId));
  expect(response.status).toBe(200);
  return { tokens: response.json as TokenJson[], text: response.text };
};
const rows = (userId: string) =>
  ownTenant(t).findMany(personalAccessTokens, { where: eq(personalAccessTokens.userId, userId) });
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('create', () => {
  it('answers 201 with the value once; the list masks it and only its hash is stored', async () => {
    const user = await newUser('pat_ada');
    const expiresAt = Date.now() + 86_400_000;
    const created = await create(user.id, { name: 'CI', expiresAt });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const token = created.json as TokenJson;
    expect(token).toEqual({
      tenantId: 'default',
      userId: user.id,
      name: 'CI',
      value: expect.stringMatching(/^pat_[0-9a-z]{32}$/),
      createdAt: expect.any(Number),
      expiresAt,
    });

    const { tokens, text } = await list(user.id);
    expect(tokens).toEqual([{ ...token, value: PERSONAL_ACCESS_TOKEN_MASK }]);
    expect(text, 'the list never shows the value').not.toContain(token.value);

    const [row] = await rows(user.id);
    expect(row?.valueHash).toBe(sha256(token.value));
    expect(JSON.stringify(row), 'the raw row holds no value').not.toContain(token.value);

    // The value is what finds the token (for the exchange); a wrong or foreign one finds nothing.
    expect((await findActivePersonalAccessToken(ownTenant(t), token.value))?.name).toBe('CI');
    expect(await findActivePersonalAccessToken(ownTenant(t), `${token.value}x`)).toBeUndefined();
    expect(await findActivePersonalAccessToken(otherTenant(t), token.value)).toBeUndefined();
  });

  it('makes a token without expiry when expiresAt is null or absent, with a fresh value each time', async () => {
    const user = await newUser('pat_never');
    const one = await create(user.id, { name: 'one' });
    const two = await create(user.id, { name: 'two', expiresAt: null });
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.json.expiresAt).toBeNull();
    expect(two.json.expiresAt).toBeNull();
    expect(one.json.value).not.toBe(two.json.value);
    expect((await list(user.id)).tokens.map((token) => token.name)).toEqual(['one', 'two']);
  });

  it('refuses a name the user already has (422), but not one another user has', async () => {
    const user = await newUser('pat_dup');
    expect((await create(user.id, { name: 'deploy' })).status).toBe(201);
    const again = await create(user.id, { name: 'deploy' });
    expect(again.status).toBe(422);
    expect(again.json).toEqual({ code: 'user.personal_access_token_name_exists', message: expect.any(String) });
    expect(again.json.message).toContain('personal access token');
    const other = await newUser('pat_dup_other');
    expect((await create(other.id, { name: 'deploy' })).status).toBe(201);
  });

  it('answers 400 {code, message} for a bad body', async () => {
    const user = await newUser('pat_bad');
    const cases: [string, unknown, string | undefined][] = [
      ['no name', { expiresAt: null }, 'name'],
      ['empty name', { name: '' }, 'name'],
      ['blank name', { name: '   ' }, 'name'],
      ['name too long', { name: 'x'.repeat(257) }, 'name'],
      ['name not a string', { name: 42 }, 'name'],
      ['expiresAt in the past', { name: 'a', expiresAt: Date.now() - 1000 }, 'expiresAt'],
      ['expiresAt not a number', { name: 'a', expiresAt: '2030-01-01' }, 'expiresAt'],
      ['expiresAt not an integer', { name: 'a', expiresAt: Date.now() + 1000.5 }, 'expiresAt'],
    ];
    for (const [label, body, field] of cases) {
      const response = await create(user.id, body as Record<string, unknown>);
      expectInvalid(response, field, label);
      expect(typeof response.json.message, label).toBe('string');
    }
    const notJson = await t.call(path(user.id), { method: 'POST', rawBody: '{' });
    expect(notJson.status).toBe(400);
    expect(notJson.json.code).toEqual(expect.any(String));
    expect((await list(user.id)).tokens).toEqual([]);
    // A value of the caller's choosing is not a field of the API: dropped (as the reference does), never used.
    const chosen = await create(user.id, { name: 'chosen', value: 'pat_chosen' });
    expect(chosen.status).toBe(201);
    expect(chosen.json.value).not.toBe('pat_chosen');
    expect(chosen.json.value).toMatch(/^pat_/);
  });

  it('a name of 256 characters is accepted, and outer spaces are trimmed', async () => {
    const user = await newUser('pat_long');
    expect((await create(user.id, { name: 'y'.repeat(256) })).status).toBe(201);
    const trimmed = await create(user.id, { name: '  spaced  ' });
    expect(trimmed.json.name).toBe('spaced');
  });
});

describe('rename', () => {
  it('PATCH …/{name} renames (200, value masked), keeping the value', async () => {
    const user = await newUser('pat_rename');
    const created = (await create(user.id, { name: 'old name' })).json as TokenJson;
    const renamed = await t.call(byName(user.id, 'old name'), { method: 'PATCH', body: { name: 'new name' } });
    expect(renamed.status, JSON.stringify(renamed.json)).toBe(200);
    expect(renamed.json).toEqual({ ...created, name: 'new name', value: PERSONAL_ACCESS_TOKEN_MASK });
    expect((await findActivePersonalAccessToken(ownTenant(t), created.value))?.name).toBe('new name');
    expect((await t.call(byName(user.id, 'old name'), { method: 'PATCH', body: { name: 'x' } })).status).toBe(404);
    // Renaming to its own name changes nothing.
    const same = await t.call(byName(user.id, 'new name'), { method: 'PATCH', body: { name: 'new name' } });
    expect(same.status).toBe(200);
  });

  it('PATCH on the collection renames {currentName, name} (the reference form)', async () => {
    const user = await newUser('pat_rename_body');
    await create(user.id, { name: 'first' });
    const renamed = await t.call(path(user.id), { method: 'PATCH', body: { currentName: 'first', name: 'second' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.name).toBe('second');
    expect(renamed.json.value).toBe(PERSONAL_ACCESS_TOKEN_MASK);
    const missing = await t.call(path(user.id), { method: 'PATCH', body: { currentName: 'first', name: 'third' } });
    expect(missing.status).toBe(404);
    expect(missing.json.code, 'the reference’s update miss').toBe('entity.not_exists');
    expectInvalid(await t.call(path(user.id), { method: 'PATCH', body: { name: 'third' } }), 'currentName');
  });

  it('refuses a name in use (422) and a bad name (400)', async () => {
    const user = await newUser('pat_rename_dup');
    await create(user.id, { name: 'a' });
    await create(user.id, { name: 'b' });
    const taken = await t.call(byName(user.id, 'a'), { method: 'PATCH', body: { name: 'b' } });
    expect(taken.status).toBe(422);
    expect(taken.json.code).toBe('user.personal_access_token_name_exists');
    const takenByBody = await t.call(path(user.id), { method: 'PATCH', body: { currentName: 'a', name: 'b' } });
    expect(takenByBody.json.code).toBe('user.personal_access_token_name_exists');
    expectInvalid(await t.call(byName(user.id, 'a'), { method: 'PATCH', body: { name: '' } }), 'name');
    expectInvalid(await t.call(byName(user.id, 'a'), { method: 'PATCH', body: { name: 'z'.repeat(257) } }), 'name');
    expectInvalid(await t.call(byName(user.id, 'a'), { method: 'PATCH', body: {} }), 'name');
    expect((await list(user.id)).tokens.map((token) => token.name)).toEqual(['a', 'b']);
  });
});

describe('delete', () => {
  it('DELETE …/{name} answers 204, then 404; the token no longer finds its user', async () => {
    const user = await newUser('pat_delete');
    const created = (await create(user.id, { name: 'gone' })).json as TokenJson;
    const removed = await t.call(byName(user.id, 'gone'), { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await list(user.id)).tokens).toEqual([]);
    expect(await findActivePersonalAccessToken(ownTenant(t), created.value)).toBeUndefined();
    const again = await t.call(byName(user.id, 'gone'), { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.json.code, 'the reference’s deletion miss').toBe('entity.not_found');
  });

  it('POST …/delete {name} deletes too (the reference form), 404 for an unknown name, 400 without one', async () => {
    const user = await newUser('pat_delete_body');
    await create(user.id, { name: 'keep' });
    await create(user.id, { name: 'drop' });
    const removed = await t.call(`${path(user.id)}/delete`, { method: 'POST', body: { name: 'drop' } });
    expect(removed.status).toBe(204);
    expect((await list(user.id)).tokens.map((token) => token.name)).toEqual(['keep']);
    const missing = await t.call(`${path(user.id)}/delete`, { method: 'POST', body: { name: 'drop' } });
    expect(missing.status).toBe(404);
    expectInvalid(await t.call(`${path(user.id)}/delete`, { method: 'POST', body: {} }), 'name');
  });

  it("answers 404 for another user's token", async () => {
    const owner = await newUser('pat_owner');
    const stranger = await newUser('pat_stranger');
    await create(owner.id, { name: 'mine' });
    expect((await t.call(byName(stranger.id, 'mine'), { method: 'DELETE' })).status).toBe(404);
    expect((await t.call(byName(stranger.id, 'mine'), { method: 'PATCH', body: { name: 'x' } })).status).toBe(404);
    expect((await list(owner.id)).tokens).toHaveLength(1);
  });

  it('goes with the user when the user is deleted', async () => {
    const user = await newUser('pat_deleted_owner');
    await create(user.id, { name: 'a' });
    await create(user.id, { name: 'b' });
    expect((await t.call(`/api/users/${user.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await rows(user.id)).toEqual([]);
  });
});

describe('expiry', () => {
  it('an expired token is listed but no longer finds its user', async () => {
    const user = await newUser('pat_expired');
    const created = (await create(user.id, { name: 'short', expiresAt: Date.now() + 60_000 })).json as TokenJson;
    await ownTenant(t).update(personalAccessTokens, eq(personalAccessTokens.userId, user.id), {
      expiresAt: new Date(Date.now() - 1000),
    });
    expect(await findActivePersonalAccessToken(ownTenant(t), created.value)).toBeUndefined();
    expect((await list(user.id)).tokens).toHaveLength(1);
  });
});

describe('audit', () => {
  it('records one entry per write, as part of the user, never with the value or its hash', async () => {
    const user = await newUser('pat_audited');
    const created = (await create(user.id, { name: 'audited' })).json as TokenJson;
    await t.call(byName(user.id, 'audited'), { method: 'PATCH', body: { name: 'renamed' } });
    await t.call(byName(user.id, 'renamed'), { method: 'DELETE' });
    // Refused writes leave no entry.
    await create(user.id, { name: '' });
    await t.call(byName(user.id, 'renamed'), { method: 'DELETE' });

    const entries = (await auditEntries(t, user.id)).filter((entry) =>
      entry.key.startsWith('Admin.UserPersonalAccessToken'),
    );
    expect(entries.map((entry) => entry.key)).toEqual([
      'Admin.UserPersonalAccessToken.Deleted',
      'Admin.UserPersonalAccessToken.Updated',
      'Admin.UserPersonalAccessToken.Created',
    ]);
    expect(entries[2]?.payload).toMatchObject({ before: null, after: { name: 'audited', expiresAt: null } });
    expect(entries[1]?.payload).toMatchObject({ before: { name: 'audited' }, after: { name: 'renamed' } });
    expect(entries[0]?.payload).toMatchObject({ before: { name: 'renamed' }, after: null });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(created.value);
    expect(text).not.toContain(sha256(created.value));
  });
});

describe('access', () => {
  it('answers 404 for an unknown user, in the code of the reference’s query (issue 43)', async () => {
    // Its user finder (list, create) misses with `entity.not_found`; a rename is its update miss, a deletion its
    // deletion miss: it writes by (user, name) without looking the user up.
    for (const [response, code] of [
      [await t.call(path('nobody')), 'entity.not_found'],
      [await create('nobody', { name: 'a' }), 'entity.not_found'],
      [await t.call(path('nobody'), { method: 'PATCH', body: { currentName: 'a', name: 'b' } }), 'entity.not_exists'],
      [await t.call(`${path('nobody')}/delete`, { method: 'POST', body: { name: 'a' } }), 'entity.not_found'],
      [await t.call(byName('nobody', 'a'), { method: 'PATCH', body: { name: 'b' } }), 'entity.not_exists'],
      [await t.call(byName('nobody', 'a'), { method: 'DELETE' }), 'entity.not_found'],
    ] as const) {
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ code, message: expect.any(String) });
    }
  });

  it("keeps another tenant's users and tokens invisible and unusable", async () => {
    const foreign = await otherTenant(t).insert(users, { id: 'foreignpat', username: 'foreign_pat' });
    const foreignValue = 'pat_foreignforeignforeignforeign00';
    await otherTenant(t).insert(personalAccessTokens, {
      userId: foreign.id,
      name: 'theirs',
      valueHash: sha256(foreignValue),
    });
    expect((await t.call(path(foreign.id))).status).toBe(404);
    expect((await create(foreign.id, { name: 'mine' })).status).toBe(404);
    expect((await t.call(byName(foreign.id, 'theirs'), { method: 'DELETE' })).status).toBe(404);
    expect((await t.call(byName(foreign.id, 'theirs'), { method: 'PATCH', body: { name: 'x' } })).status).toBe(404);
    expect((await t.call(`${path(foreign.id)}/delete`, { method: 'POST', body: { name: 'theirs' } })).status).toBe(404);
    expect(await findActivePersonalAccessToken(ownTenant(t), foreignValue)).toBeUndefined();
    expect((await findActivePersonalAccessToken(otherTenant(t), foreignValue))?.name).toBe('theirs');
    expect(
      await otherTenant(t).findMany(personalAccessTokens, { where: eq(personalAccessTokens.userId, foreign.id) }),
    ).toHaveLength(1);
  });

  it('needs a token (401) with scope all (403)', async () => {
    const user = await newUser('pat_guarded');
    await expectGuarded(t, [
      { method: 'GET', path: path(user.id) },
      { method: 'POST', path: path(user.id), body: { name: 'a' } },
      { method: 'PATCH', path: path(user.id), body: { currentName: 'a', name: 'b' } },
      { method: 'POST', path: `${path(user.id)}/delete`, body: { name: 'a' } },
      { method: 'PATCH', path: byName(user.id, 'a'), body: { name: 'b' } },
      { method: 'DELETE', path: byName(user.id, 'a') },
    ]);
    expect(await rows(user.id)).toEqual([]);
  });
});
