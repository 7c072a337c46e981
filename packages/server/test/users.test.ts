import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, queuedEvents } from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type UserJson = { id: string; username: string | null; [key: string]: unknown };
const createUser = (body: Record<string, unknown>) => t.call('/api/users', { method: 'POST', body });
const ids = (response: { json: unknown }) => (response.json as UserJson[]).map((user) => user.id);
const total = (response: { headers: Headers }) => Number(response.headers.get('Total-Number'));

async function newUser(body: Record<string, unknown>): Promise<UserJson> {
  const response = await createUser(body);
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json as UserJson;
}

describe('create and read users', () => {
  it('creates a user with every field and reads it back without any password hash', async () => {
    const created = await createUser({
      username: 'ada_lovelace',
      primaryEmail: 'ada@example.com',
      primaryPhone: '+44 (20) 7946-0018',
      name: 'Ada Lovelace',
      avatar: 'https://example.com/ada.png',
      customData: { team: 'engines' },
      profile: { givenName: 'Ada', familyName: 'Lovelace', address: { country: 'GB' } },
      password: 'Analytical-Engine-1843',
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      username: 'ada_lovelace',
      primaryEmail: 'ada@example.com',
      primaryPhone: '442079460018',
      name: 'Ada Lovelace',
      avatar: 'https://example.com/ada.png',
      customData: { team: 'engines' },
      profile: { givenName: 'Ada', familyName: 'Lovelace', address: { country: 'GB' } },
      identities: {},
      isSuspended: false,
      hasPassword: true,
      lastSignInAt: null,
    });
    expect(created.json.id).toMatch(/^[0-9a-z]{12}$/);
    expect(created.text, 'no hash in the answer').not.toMatch(/argon2|passwordEncrypted/i);

    const read = await t.call(`/api/users/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const [row] = await t.db.select().from(users).where(eq(users.id, created.json.id));
    expect(row?.passwordEncryptionMethod, 'stored as Argon2id').toBe('Argon2id');
    expect(row?.passwordEncrypted).toMatch(/^\$argon2id\$/);
  });

  it('needs only one of username, email or phone', async () => {
    expect((await newUser({ username: 'only_username' })).hasPassword).toBe(false);
    expect((await newUser({ primaryEmail: 'only@example.com' })).username).toBeNull();
    expect((await newUser({ primaryPhone: '5550100' })).primaryPhone).toBe('5550100');
    const none = await createUser({ name: 'Nobody' });
    expectInvalid(none, '', 'no identifier');
  });

  it('rejects invalid fields with 400 and the failing field, and saves nothing', async () => {
    const before = total(await t.call('/api/users'));
    const cases: [Record<string, unknown>, string][] = [
      [{ username: '1starts_with_digit' }, 'username'],
      [{ username: 'has space' }, 'username'],
      [{ username: 'x'.repeat(129) }, 'username'],
      [{ primaryEmail: 'not-an-email' }, 'primaryEmail'],
      [{ primaryEmail: 'a@b' }, 'primaryEmail'],
      [{ primaryPhone: 'call me' }, 'primaryPhone'],
      [{ primaryPhone: '+' }, 'primaryPhone'],
      [{ username: 'ok_name', avatar: 'javascript:alert(1)' }, 'avatar'],
      [{ username: 'ok_name', name: 'n'.repeat(129) }, 'name'],
      [{ username: 'ok_name', customData: [] }, 'customData'],
      [{ username: 'ok_name', customData: { big: 'x'.repeat(65 * 1024) } }, 'customData'],
      [
        { username: 'ok_name', password: 'a-Long-password-1', passwordDigest: 'x', passwordAlgorithm: 'MD5' },
        'password',
      ],
      [{ username: 'ok_name', passwordDigest: 'abc' }, 'passwordAlgorithm'],
      [{ username: 'ok_name', passwordAlgorithm: 'MD5' }, 'passwordDigest'],
      [{ username: 'ok_name', passwordDigest: 'not-hex', passwordAlgorithm: 'MD5' }, 'passwordDigest'],
      [{ username: 'ok_name', passwordDigest: 'a'.repeat(40), passwordAlgorithm: 'SHA256' }, 'passwordDigest'],
      [
        {
          username: 'ok_name',
          passwordDigest: '$argon2i$v=19$m=16,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
          passwordAlgorithm: 'Argon2id',
        },
        'passwordDigest',
      ],
      [
        { username: 'ok_name', passwordDigest: '["whirlpool", ["@"], "ab"]', passwordAlgorithm: 'Legacy' },
        'passwordDigest',
      ],
      [
        { username: 'ok_name', passwordDigest: '$2b$10$abcdefghijklmnopqrstuv', passwordAlgorithm: 'Bcrypt' },
        'passwordDigest',
      ],
      [{ username: 'ok_name', passwordDigest: 'x', passwordAlgorithm: 'Scrypt' }, 'passwordAlgorithm'],
    ];
    for (const [body, path] of cases) {
      const response = await createUser(body);
      expectInvalid(response, path, JSON.stringify(body).slice(0, 80));
      expect(typeof response.json.message).toBe('string');
    }
    expect(total(await t.call('/api/users')), 'nothing was saved').toBe(before);
  });

  it('imports a bcrypt hash, and explains a malformed one on the digest', async () => {
    const imported = await createUser({
      username: 'bcrypt_user',
      passwordDigest: '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy',
      passwordAlgorithm: 'Bcrypt',
    });
    expect(imported.status).toBe(200);
    expect(imported.json.hasPassword).toBe(true);
    const malformed = await createUser({
      username: 'bcrypt_bad',
      passwordDigest: '$2b$10$short',
      passwordAlgorithm: 'Bcrypt',
    });
    expectInvalid(malformed, 'passwordDigest');
    expect(JSON.stringify(malformed.json.data)).toContain('A Bcrypt digest looks like');
  });

  it('answers 422 password.rejected when the password breaks the policy', async () => {
    for (const password of ['short', 'aaaaaaaaaaaa', 'policy_user1']) {
      const response = await createUser({ username: 'policy_user', password });
      expect(response.status, password).toBe(422);
      expect(response.json.code).toBe('password.rejected');
      expect(response.json.data.rejections.length).toBeGreaterThan(0);
    }
    expect((await t.call('/api/users?search.username=policy_user')).json).toEqual([]);
  });

  it('answers 422 naming the identifier already in use, whatever its case or phone format', async () => {
    await newUser({ username: 'Taken_Name', primaryEmail: 'taken@example.com', primaryPhone: '15550001111' });
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'taken_name' }, 'user.username_already_in_use'],
      [{ primaryEmail: 'TAKEN@example.com' }, 'user.email_already_in_use'],
      [{ primaryPhone: '+1 555-000-1111' }, 'user.phone_already_in_use'],
    ];
    for (const [body, code] of cases) {
      const response = await createUser(body);
      expect(response.status, code).toBe(422);
      expect(response.json.code).toBe(code);
      expect(response.json.message).toMatch(/already in use/);
    }
  });

  it('answers 404 for an unknown id and for another tenant’s user', async () => {
    expect((await t.call('/api/users/nobody123456')).status).toBe(404);
    const foreign = await otherTenant(t).insert(users, { id: 'foreign0user', username: 'foreign_user' });
    const response = await t.call(`/api/users/${foreign.id}`);
    expect(response.status).toBe(404);
    expect(response.json.code, 'the reference’s user finder (issue 43)').toBe('entity.not_found');
    expect(ids(await t.call('/api/users?search=foreign_user'))).toEqual([]);
  });

  it('audits the creation once, without the password, and queues User.Created', async () => {
    const user = await newUser({ username: 'audited_user', password: 'Audited-Password-42' });
    const entries = await auditEntries(t, user.id);
    expect(entries.map((entry) => entry.key)).toEqual(['Admin.User.Created']);
    const payload = entries[0]?.payload ?? {};
    expect(payload.before).toBeNull();
    expect(payload.after).toMatchObject({ id: user.id, username: 'audited_user', hasPassword: true });
    expect(JSON.stringify(payload), 'no password or hash in the audit log').not.toMatch(/Audited-Password|argon2/);
    const events = await queuedEvents(t, 'User.Created');
    expect(events.find((data) => data.id === user.id)).toMatchObject({ username: 'audited_user' });
    expect(JSON.stringify(events)).not.toMatch(/argon2/);
  });
});

describe('list users', () => {
  let people: UserJson[] = [];
  beforeAll(async () => {
    people = [];
    for (const body of [
      {
        username: 'grace_hopper',
        primaryEmail: 'grace@navy.example',
        name: 'Grace Hopper',
        primaryPhone: '12025550142',
      },
      { username: 'alan_turing', primaryEmail: 'alan@bletchley.example', name: 'Alan Turing' },
      {
        username: 'katherine_j',
        primaryEmail: 'kj@nasa.example',
        name: 'Katherine Johnson',
        primaryPhone: '17575550199',
      },
      { username: 'john_doe', name: 'John Doe' },
    ]) {
      people.push(await newUser(body));
    }
  });
  const find = async (query: string) => ids(await t.call(`/api/users?${query}`));
  const id = (username: string) => people.find((user) => user.username === username)?.id;

  it('lists newest first with an exact Total-Number', async () => {
    const response = await t.call('/api/users?page_size=100');
    expect(response.status).toBe(200);
    const list = response.json as UserJson[];
    expect(total(response)).toBe(list.length);
    const created = list.map((user) => Number(user.createdAt));
    expect(created, 'newest first').toEqual([...created].sort((a, b) => b - a));
    expect(list.slice(0, 4).map((user) => user.username)).toEqual([
      'john_doe',
      'katherine_j',
      'alan_turing',
      'grace_hopper',
    ]);
  });

  it('finds a user by a field in any case: the whole value, or a part with % (the reference’s LIKE, issue 43)', async () => {
    const grace = id('grace_hopper');
    expect(await find('search=GRACE_HOPPER')).toEqual([grace]);
    expect(await find('search=HOPP'), 'without %: the whole value').toEqual([]);
    expect(await find('search=%25HOPP%25')).toEqual([grace]);
    expect(await find('search=%25navy.exam%25')).toEqual([grace]);
    expect(await find('search=%250255501%25')).toEqual([grace]);
    expect(await find(`search=${encodeURIComponent('%+1 (202) 555-01%')}`), 'a phone as typed').toEqual([grace]);
    expect(await find(`search.id=${grace?.toUpperCase()}&mode=exact`)).toEqual([grace]);
    expect(await find(`search.primaryPhone=${encodeURIComponent('+1 202-555-0142')}&mode=exact`)).toEqual([grace]);
    expect(await find('search.primaryPhone=202555&mode=exact'), 'exact is the whole number').toEqual([]);
    expect(await find('search.name=grace%20HOPPER&mode=exact')).toEqual([grace]);
    expect(await find('search.username=GRACE_HOPPER&mode=exact')).toEqual([grace]);
    expect(await find('search=%25ace%20hop%25')).toEqual([grace]);
    expect(await find(`search=%25${grace?.slice(2, 9)}%25`)).toEqual([grace]);
    expect(await find(`search=${encodeURIComponent('%john\\_d%')}`), 'an escaped underscore is literal').toEqual([
      id('john_doe'),
    ]);
    expect(await find(`search=${encodeURIComponent('%turing%')}`), 'the console sends %kw%').toEqual([
      id('alan_turing'),
    ]);
  });
});

describe('list filters and search options', () => {
  const people: Record<string, UserJson> = {};
  let role = '';
  let otherRole = '';
  beforeAll(async () => {
    for (const [key, body] of Object.entries({
      mia: { username: 'mia_filter', primaryEmail: 'mia@filters.example', name: 'Mia Filter' },
      max: { username: 'max_filter', primaryEmail: 'max@filters.example', name: 'Max Filter' },
      zoe: { username: 'zoe_filter', primaryEmail: 'Zoe@Filters.example', name: 'Zoe Filter' },
    })) {
      people[key] = await newUser(body);
    }
    role = String((await t.call('/api/roles', { method: 'POST', body: { name: 'filter-role' } })).json.id);
    otherRole = String((await t.call('/api/roles', { method: 'POST', body: { name: 'filter-other' } })).json.id);
    await t.call(`/api/roles/${role}/users`, { method: 'POST', body: { userIds: [people.mia?.id, people.zoe?.id] } });
    await t.db
      .update(users)
      .set({ isSuspended: true })
      .where(eq(users.id, String(people.max?.id)));
  });
  const find = async (query: string) => {
    const response = await t.call(`/api/users?page_size=100&${query}`);
    expect(response.status, query).toBe(200);
    expect(total(response), `${query}: Total-Number counts the matches`).toBe((response.json as unknown[]).length);
    return ids(response);
  };
  const the = (...keys: string[]) => keys.map((key) => people[key]?.id);

  it('searches one field with search.<field>', async () => {
    expect(await find('search.username=mia%5C_%25')).toEqual(the('mia'));
    expect(await find('search.name=%25filter')).toEqual(the('zoe', 'max', 'mia'));
    expect(await find('search.primaryEmail=%25filter%25')).toEqual(the('zoe', 'max', 'mia'));
    expect(await find('search.primaryEmail=mia_filter'), 'the username is not searched').toEqual([]);
  });

  it('matches whole values in exact mode, any of several, in any case unless asked', async () => {
    expect(await find('search.primaryEmail=zoe@filters.example&mode.primaryEmail=exact')).toEqual(the('zoe'));
    expect(await find('search.primaryEmail=filters.example&mode.primaryEmail=exact')).toEqual([]);
    expect(await find('search.username=mia_filter&search.username=max_filter&mode=exact')).toEqual(the('max', 'mia'));
    expect(await find('search.primaryEmail=zoe@filters.example&mode=exact&isCaseSensitive=true')).toEqual([]);
    expect(await find('search.primaryEmail=Zoe@Filters.example&mode=exact&isCaseSensitive=true')).toEqual(the('zoe'));
    expect(await find('search=ZOE_F%25&isCaseSensitive=true')).toEqual([]);
  });

  it('combines search conditions with joint (or by default)', async () => {
    expect(await find('search.username=mia%5C_%25&search.name=Max%25')).toEqual(the('max', 'mia'));
    expect(await find('search.username=mia%5C_%25&search.name=Max%25&joint=and')).toEqual([]);
    expect(await find('search.username=mia%5C_%25&search.name=Mia%25&joint=and')).toEqual(the('mia'));
  });

  it('filters by suspension and by held or excluded role', async () => {
    expect(await find('search=%25%5C_filter&isSuspended=true')).toEqual(the('max'));
    expect(await find('search=%25%5C_filter&isSuspended=false')).toEqual(the('zoe', 'mia'));
    expect(await find(`roleId=${role}`)).toEqual(the('zoe', 'mia'));
    expect(await find(`roleId=${otherRole}`)).toEqual([]);
    expect(await find(`search=%25%5C_filter&excludeRoleId=${role}`)).toEqual(the('max'));
    expect(await find(`roleId=${role}&isSuspended=false&search=zoe%25`)).toEqual(the('zoe'));
    const suspended = await find('isSuspended=true');
    expect(suspended).toContain(people.max?.id);
    const excluded = await find(`excludeRoleId=${role}`);
    expect(excluded).not.toContain(people.mia?.id);
    expect(excluded).toContain(people.max?.id);
  });

  it('leaves out the members of an organization with an exact total', async () => {
    const organization = await t.call('/api/organizations', { method: 'POST', body: { name: 'Filter org' } });
    const organizationId = String(organization.json.id);
    await t.call(`/api/organizations/${organizationId}/users`, {
      method: 'POST',
      body: { userIds: [people.zoe?.id] },
    });
    expect(await find(`search=%25%5C_filter&excludeOrganizationId=${organizationId}`)).toEqual(the('max', 'mia'));
    const everyone = total(await t.call('/api/users?page_size=1'));
    const outside = await t.call(`/api/users?page_size=1&excludeOrganizationId=${organizationId}`);
    expect(total(outside), 'the tenant total minus the one member').toBe(everyone - 1);
    expect(outside.headers.get('Total-Number-Is-Capped')).toBeNull();
    expectInvalid(await t.call(`/api/users?excludeOrganizationId=${'x'.repeat(33)}`), 'excludeOrganizationId');
  });

  it('pages with exact totals and Link headers', async () => {
    const all = await t.call('/api/users?page_size=100');
    const everyone = ids(all);
    const first = await t.call('/api/users?page_size=2');
    expect(total(first)).toBe(everyone.length);
    expect(ids(first)).toEqual(everyone.slice(0, 2));
    const second = await t.call('/api/users?page=2&page_size=2');
    expect(ids(second)).toEqual(everyone.slice(2, 4));
    expect(second.headers.get('Link')).toContain('rel="prev"');
    const beyond = await t.call('/api/users?page=999&page_size=2');
    expect(beyond.json).toEqual([]);
    expect(total(beyond)).toBe(everyone.length);
    const filtered = await t.call('/api/users?search=%25%5C_filter&page_size=1&page=3');
    expect(total(filtered)).toBe(3);
    expect(ids(filtered)).toEqual(the('mia'));
  });

  it('answers 400 for invalid list parameters', async () => {
    // Search syntax errors are the reference's search-parser code, `request.invalid_input` (issue 43).
    for (const query of [
      'search.password=x',
      'mode.customData=exact',
      'mode=posix',
      'mode=similar_to',
      'joint=xor',
      'isCaseSensitive=1',
      'search.username=a&search.username=b',
      `search=${'x'.repeat(257)}`,
    ]) {
      const response = await t.call(`/api/users?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.code, query).toBe('request.invalid_input');
      expect(Array.isArray(response.json.data), `${query}: data lists the failing fields`).toBe(true);
    }
    // Filters stay input errors.
    for (const query of ['isSuspended=maybe', `roleId=${'r'.repeat(22)}`, 'search=x&isSuspended=maybe']) {
      expectInvalid(await t.call(`/api/users?${query}`), undefined, query);
    }
    const pagination = await t.call('/api/users?page=0');
    expect(pagination.status).toBe(400);
    expect(pagination.json.code).toBe('guard.invalid_pagination');
  });
});

describe('users API guards', () => {
  it('answers 401 without a token and 403 without scope all on every route', async () => {
    await expectGuarded(t, [
      { method: 'GET', path: '/api/users' },
      { method: 'POST', path: '/api/users', body: { username: 'guarded' } },
      { method: 'GET', path: '/api/users/someone' },
    ]);
  });
});
