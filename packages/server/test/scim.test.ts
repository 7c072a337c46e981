import { DEFAULT_TENANT_ID, SCIM_REQUESTS_PER_MINUTE } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/tables.ts';
import { scimThrottleKey } from '../src/routes/scim.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, ownTenant, queuedEvents } from './support/scenarios.ts';
import {
  CORE_GROUP,
  CORE_USER,
  createScimConnection,
  ENTERPRISE,
  expectScimError,
  patch,
  type ScimSetup,
  scimClient,
} from './support/scim.ts';

/**
 * The SCIM service as the directories use it: the request sequences Microsoft Entra ID and Okta document for their
 * SCIM validators, replayed against the real app, with what each does to the Gatehouse account (suspension, custom
 * data, audit with the connection as actor, webhook events) and the SCIM refusals they must get.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const account = async (id: string) => (await ownTenant(t).findOne(users, eq(users.id, id))) ?? null;

describe('Microsoft Entra ID', () => {
  let setup: ScimSetup;
  let scim: ReturnType<typeof scimClient>;
  let userId = '';
  beforeAll(async () => {
    setup = await createScimConnection(t, { domains: ['testuser.com'] });
    scim = scimClient(t, setup.token);
  });

  it('creates a user, finds it by id and userName, and finds none for an unknown userName', async () => {
    const created = await scim('POST', '/Users', {
      schemas: [CORE_USER, ENTERPRISE],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_ab6490ee@testuser.com',
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b@testuser.com' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
      [ENTERPRISE]: { employeeNumber: '701984', department: 'Tour Operations', manager: { value: 'boss-1' } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('Content-Type')).toMatch(/^application\/scim\+json/);
    userId = created.json.id;
    expect(created.headers.get('Location')).toBe(`http://localhost:3001/scim/v2/Users/${userId}`);
    expect(created.json).toMatchObject({
      schemas: [CORE_USER, ENTERPRISE],
      id: userId,
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_ab6490ee@testuser.com',
      active: true,
      name: { familyName: 'familyName', givenName: 'givenName' },
      meta: { resourceType: 'User', location: `http://localhost:3001/scim/v2/Users/${userId}` },
    });

    const row = await account(userId);
    expect(row).toMatchObject({
      primaryEmail: 'Test_User_fd0ea19b@testuser.com',
      primaryEmailVerified: true,
      name: 'givenName familyName',
      isSuspended: false,
      customData: { employeeNumber: '701984', department: 'Tour Operations', manager: 'boss-1' },
      profile: {
        givenName: 'givenName',
        familyName: 'familyName',
        preferredUsername: 'Test_User_ab6490ee@testuser.com',
      },
    });
    const [entry] = await auditEntries(t, userId);
    expect(entry?.key).toBe('Admin.User.Created');
    expect(entry?.payload.actor).toEqual({ type: 'scim', id: setup.connectionId, name: expect.any(String) });
    expect((await queuedEvents(t, 'User.Created')).some((data) => data.id === userId)).toBe(true);

    const read = await scim('GET', `/Users/${userId}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const found = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "test_user_AB6490EE@testuser.com"')}`,
    );
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect(found.json.Resources[0].id).toBe(userId);

    // The query as Entra ID encodes it: spaces as `+`.
    const plus = await scim('GET', '/Users?filter=userName+eq+%22Test_User_ab6490ee%40testuser.com%22');
    expect(plus.json.totalResults).toBe(1);
    const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "non-existent user"')}`);
    expect(none.json).toMatchObject({ totalResults: 0, Resources: [] });
    const byEmail = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('emails[type eq "work"].value eq "Test_User_fd0ea19b@testuser.com"')}`,
    );
    expect(byEmail.json.totalResults).toBe(1);
    const byExternalId = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`,
    );
    expect(byExternalId.json.totalResults).toBe(1);
  });

  it('replaces multi-valued and single-valued attributes, with capitalised ops and no path', async () => {
    const multi = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@testuser.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ),
    );
    expect(multi.status, multi.text).toBe(200);
    expect(multi.json.emails).toEqual([{ primary: true, type: 'work', value: 'updatedEmail@testuser.com' }]);
    expect(multi.json.name).toMatchObject({ familyName: 'updatedFamilyName', givenName: 'givenName' });
    expect((await account(userId))?.primaryEmail).toBe('updatedEmail@testuser.com');

    const single = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch({ op: 'Replace', path: 'userName', value: '5b50642d@testuser.com' }),
    );
    expect(single.json.userName).toBe('5b50642d@testuser.com');

    // Entra ID's form without path: attribute names in any case, a dotted sub-attribute, the extension flattened.
    const noPath = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch({
        op: 'Add',
        value: {
          DisplayName: 'Ada Lovelace',
          'name.givenName': 'Ada',
          [`${ENTERPRISE}:department`]: 'Engines',
          [`${ENTERPRISE}:manager`]: 'boss-2',
        },
      }),
    );
    expect(noPath.status, noPath.text).toBe(200);
    expect(noPath.json).toMatchObject({ displayName: 'Ada Lovelace', name: { givenName: 'Ada' } });
    expect(noPath.json[ENTERPRISE]).toMatchObject({ department: 'Engines', manager: { value: 'boss-2' } });
    expect(await account(userId)).toMatchObject({
      name: 'Ada Lovelace',
      customData: { department: 'Engines', manager: 'boss-2', employeeNumber: '701984' },
    });
    const unchanged = (await auditEntries(t, userId)).length;
    const again = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch({ op: 'replace', path: 'displayName', value: 'Ada Lovelace' }),
    );
    expect(again.status).toBe(200);
    expect((await auditEntries(t, userId)).length, 'a PATCH that changes nothing writes nothing').toBe(unchanged);
  });

  it('disables the user with "False", which suspends the account, then deletes it (suspend by default)', async () => {
    const disabled = await scim('PATCH', `/Users/${userId}`, patch({ op: 'Replace', path: 'active', value: 'False' }));
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.json.active).toBe(false);
    expect((await account(userId))?.isSuspended).toBe(true);
    const enabled = await scim('PATCH', `/Users/${userId}`, patch({ op: 'replace', value: { active: 'True' } }));
    expect(enabled.json.active).toBe(true);
    expect((await account(userId))?.isSuspended).toBe(false);
    const filtered = await scim('GET', `/Users?filter=${encodeURIComponent('active eq true and userName sw "5b50"')}`);
    expect(filtered.json.totalResults).toBe(1);

    const deleted = await scim('DELETE', `/Users/${userId}`);
    expect(deleted.status).toBe(204);
    expectScimError(await scim('GET', `/Users/${userId}`), 404);
    expect((await account(userId))?.isSuspended, 'deprovision suspend keeps the account, suspended').toBe(true);

    // The directory assigns the user again: the same account comes back, active.
    const again = await scim('POST', '/Users', {
      schemas: [CORE_USER],
      userName: '5b50642d@testuser.com',
      emails: [{ primary: true, type: 'work', value: 'updatedEmail@testuser.com' }],
    });
    expect(again.status, again.text).toBe(201);
    expect(again.json.id).toBe(userId);
    expect((await account(userId))?.isSuspended).toBe(false);
  });

  it('creates a group, reads it without members, finds it by displayName, renames it, adds and removes members', async () => {
    const role = await t.call('/api/roles', { method: 'POST', body: { name: 'Engineering', description: 'x' } });
    expect(role.status).toBe(200);
    const created = await scim('POST', '/Groups', {
      schemas: [CORE_GROUP, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/Group'],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: { resourceType: 'Group' },
    });
    expect(created.status, created.text).toBe(201);
    const groupId = created.json.id;
    expect(created.json).toMatchObject({ schemas: [CORE_GROUP], displayName: 'displayName' });

    const read = await scim('GET', `/Groups/${groupId}?excludedAttributes=members`);
    expect(read.status).toBe(200);
    expect(read.json.members).toBeUndefined();
    const byName = await scim(
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`,
    );
    expect(byName.json.totalResults).toBe(1);

    const renamed = await scim(
      'PATCH',
      `/Groups/${groupId}`,
      patch({ op: 'Replace', path: 'displayName', value: 'Engineering' }),
    );
    expect(renamed.status, renamed.text).toBe(204);
    const added = await scim(
      'PATCH',
      `/Groups/${groupId}`,
      patch({ op: 'Add', path: 'members', value: [{ $ref: null, value: userId }] }),
    );
    expect(added.status, added.text).toBe(204);
    const roles = await t.call(`/api/users/${userId}/roles`);
    expect(
      roles.json.map((held: { name: string }) => held.name),
      'the group named like a role grants it',
    ).toEqual(['Engineering']);
    const member = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent(`id eq "${groupId}" and members[value eq "${userId}"]`)}&excludedAttributes=members`,
    );
    expect(member.json.totalResults).toBe(1);
    const user = await scim('GET', `/Users/${userId}`);
    expect(user.json.groups).toEqual([
      {
        value: groupId,
        display: 'Engineering',
        type: 'direct',
        $ref: `http://localhost:3001/scim/v2/Groups/${groupId}`,
      },
    ]);

    const removed = await scim(
      'PATCH',
      `/Groups/${groupId}`,
      patch({ op: 'Remove', path: 'members', value: [{ $ref: null, value: userId }] }),
    );
    expect(removed.status).toBe(204);
    expect((await t.call(`/api/users/${userId}/roles`)).json).toEqual([]);
    const [entry] = await auditEntries(t, groupId);
    expect(entry).toMatchObject({ key: 'Admin.ScimGroup.Updated', payload: { after: { userIds: [] } } });

    expect((await scim('DELETE', `/Groups/${groupId}`)).status).toBe(204);
    expectScimError(await scim('GET', `/Groups/${groupId}`), 404);
  });
});

describe('Okta', () => {
  let setup: ScimSetup;
  let scim: ReturnType<typeof scimClient>;
  let organizationId = '';
  const userIds: string[] = [];
  beforeAll(async () => {
    const organization = await t.call('/api/organizations', { method: 'POST', body: { name: 'Okta customers' } });
    organizationId = organization.json.id;
    const role = await t.call('/api/organization-roles', { method: 'POST', body: { name: 'Test SCIMv2 updated' } });
    expect(role.status, role.text).toBeLessThan(300);
    setup = await createScimConnection(t, {
      groupMapping: { kind: 'organization', organizationId },
      deprovision: 'delete',
    });
    scim = scimClient(t, setup.token);
  });

  const oktaUser = (name: string) => ({
    schemas: [CORE_USER],
    userName: `${name}@okta.local`,
    name: { givenName: 'Test', familyName: name },
    emails: [{ primary: true, value: `${name}@okta.local`, type: 'work' }],
    displayName: `Test ${name}`,
    locale: 'en-US',
    externalId: `00u${name}`,
    groups: [],
    password: '1mz050nq',
    active: true,
  });

  it('lists, creates, refuses a duplicate, finds, misses an unknown id, PUTs and PATCHes users', async () => {
    const first = await scim('GET', '/Users?count=1&startIndex=1');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ totalResults: 0, Resources: [], startIndex: 1 });
    const created = await scim('POST', '/Users', oktaUser('test.user'));
    expect(created.status, created.text).toBe(201);
    userIds.push(created.json.id);
    expect(created.json.password, 'a password is never answered (and not kept)').toBeUndefined();
    expectScimError(await scim('POST', '/Users', oktaUser('test.user')), 409, 'uniqueness');
    const found = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "test.user@okta.local"')}&startIndex=1&count=100`,
    );
    expect(found.json.totalResults).toBe(1);
    expectScimError(await scim('GET', '/Users/010b1d9f-d6f1-4d84-8d9f-8d9e2f3c0e9a'), 404);

    const put = await scim('PUT', `/Users/${userIds[0]}`, {
      ...oktaUser('test.user'),
      displayName: 'Put User',
      active: false,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ displayName: 'Put User', active: false });
    expect(await account(userIds[0] ?? '')).toMatchObject({ isSuspended: true, name: 'Put User' });
    const patched = await scim('PATCH', `/Users/${userIds[0]}`, patch({ op: 'replace', value: { active: true } }));
    expect(patched.json.active).toBe(true);
    const second = await scim('POST', '/Users', oktaUser('second.user'));
    userIds.push(second.json.id);
  });

  it('pushes a group whose members join the mapped organization with the role its name gives, and PUT replaces them', async () => {
    const [firstUser = '', secondUser = ''] = userIds;
    const created = await scim('POST', '/Groups', { schemas: [CORE_GROUP], displayName: 'Test SCIMv2', members: [] });
    expect(created.status, created.text).toBe(201);
    const groupId = created.json.id;
    const found = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "test scimv2"')}`);
    expect(found.json.totalResults).toBe(1);

    // Okta's rename sends the read-only id beside the display name: it is ignored.
    const renamed = await scim(
      'PATCH',
      `/Groups/${groupId}`,
      patch({ op: 'replace', value: { id: groupId, displayName: 'Test SCIMv2 updated' } }),
    );
    expect(renamed.status, renamed.text).toBe(204);
    const added = await scim(
      'PATCH',
      `/Groups/${groupId}`,
      patch({ op: 'add', path: 'members', value: [{ value: firstUser, display: 'test.user@okta.local' }] }),
    );
    expect(added.status, added.text).toBe(204);
    const members = await t.call(`/api/organizations/${organizationId}/users`);
    expect(members.json.map((user: { id: string }) => user.id)).toEqual([firstUser]);
    expect(members.json[0].organizationRoles.map((role: { name: string }) => role.name)).toEqual([
      'Test SCIMv2 updated',
    ]);
    const membership = await queuedEvents(t, 'Organization.Membership.Updated');
    expect(membership.at(-1)).toEqual({ organizationId, addedUserIds: [firstUser], removedUserIds: [] });

    const put = await scim('PUT', `/Groups/${groupId}`, {
      schemas: [CORE_GROUP],
      id: groupId,
      displayName: 'Test SCIMv2 updated',
      members: [{ value: secondUser, display: 'second.user@okta.local' }],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.members.map((member: { value: string }) => member.value)).toEqual([secondUser]);
    const after = await t.call(`/api/organizations/${organizationId}/users`);
    expect(after.json.map((user: { id: string }) => user.id)).toEqual([secondUser]);

    const removed = await scim(
      'PATCH',
      `/Groups/${groupId}`,
      patch({ op: 'remove', path: `members[value eq "${secondUser}"]` }),
    );
    expect(removed.status).toBe(204);
    expect((await t.call(`/api/organizations/${organizationId}/users`)).json).toEqual([]);
    const listed = await t.call(`/api/scim-connections/${setup.connectionId}/groups`);
    expect(listed.json).toEqual([
      expect.objectContaining({ id: groupId, displayName: 'Test SCIMv2 updated', memberCount: 0 }),
    ]);
    expect((await scim('DELETE', `/Groups/${groupId}`)).status).toBe(204);
  });

  it('deletes a user (deprovision delete): the account is gone and User.Deleted is sent', async () => {
    const [firstUser = ''] = userIds;
    expect((await scim('DELETE', `/Users/${firstUser}`)).status).toBe(204);
    expect(await account(firstUser)).toBeNull();
    expect((await queuedEvents(t, 'User.Deleted')).some((data) => data.id === firstUser)).toBe(true);
    expectScimError(await scim('DELETE', `/Users/${firstUser}`), 404);
  });
});

describe('refusals, pages, discovery and limits', () => {
  let setup: ScimSetup;
  let scim: ReturnType<typeof scimClient>;
  let userId = '';
  beforeAll(async () => {
    setup = await createScimConnection(t);
    scim = scimClient(t, setup.token);
    const created = await scim('POST', '/Users', {
      userName: 'grace@navy.test',
      emails: [{ value: 'grace@navy.test' }],
    });
    userId = created.json.id;
  });

  it('answers each kind of bad request with its scimType', async () => {
    expectScimError(await scim('GET', `/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
    expectScimError(await scim('GET', `/Users?filter=${encodeURIComponent('shoeSize eq "9"')}`), 400, 'invalidFilter');
    expectScimError(await scim('GET', `/Users?filter=${encodeURIComponent('active co "t"')}`), 400, 'invalidFilter');
    const badPath = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch({ op: 'replace', path: 'emails[type eq', value: 'x' }),
    );
    expectScimError(badPath, 400, 'invalidPath');
    expectScimError(
      await scim('PATCH', `/Users/${userId}`, patch({ op: 'replace', path: 'id', value: 'x' })),
      400,
      'mutability',
    );
    expectScimError(await scim('PATCH', `/Users/${userId}`, patch({ op: 'remove' })), 400, 'noTarget');
    const noMatch = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch({ op: 'replace', path: 'emails[value sw "nobody"].display', value: 'x' }),
    );
    expectScimError(noMatch, 400, 'noTarget');
    expectScimError(
      await scim('PATCH', `/Users/${userId}`, patch({ op: 'jump', path: 'title' })),
      400,
      'invalidSyntax',
    );
    expectScimError(await scim('PATCH', `/Users/${userId}`, { schemas: [] }), 400, 'invalidSyntax');
    expectScimError(await scim('POST', '/Users', { userName: 'no-email' }), 400, 'invalidValue');
    expectScimError(await scim('POST', '/Users', { userName: 'x@y.test', active: 'maybe' }), 400, 'invalidValue');
    expectScimError(
      await scim('POST', '/Groups', { displayName: 'G', members: [{ value: 'nobody' }] }),
      400,
      'invalidValue',
    );
    const notJson = await t.call('/scim/v2/Users', {
      method: 'POST',
      rawBody: '{"userName":',
      headers: { Authorization: `Bearer ${setup.token}`, 'Content-Type': 'application/scim+json' },
    });
    expectScimError(notJson, 400, 'invalidSyntax');
    const other = await scim('POST', '/Users', {
      userName: 'hopper@navy.test',
      emails: [{ value: 'hopper@navy.test' }],
    });
    expect(other.status).toBe(201);
    const taken = { userName: 'grace@navy.test', emails: [{ value: 'Hopper@navy.test' }] };
    expectScimError(await scim('PUT', `/Users/${userId}`, taken), 409, 'uniqueness');
    const renamed = patch({ op: 'replace', path: 'userName', value: 'HOPPER@navy.test' });
    expectScimError(await scim('PATCH', `/Users/${userId}`, renamed), 409, 'uniqueness');
    // An account no directory provisioned, whose address the connector does not vouch for, is not taken over.
    await t.call('/api/users', { method: 'POST', body: { primaryEmail: 'local@navy.test' } });
    expectScimError(await scim('POST', '/Users', { userName: 'local@navy.test' }), 409, 'uniqueness');
    expectScimError(await scim('GET', '/Unknown'), 404);
    expectScimError(await scim('POST', '/Bulk', {}), 501);

    const requests = await t.call(`/api/scim-connections/${setup.connectionId}/requests`);
    expect(requests.status).toBe(200);
    expect(requests.json[0]).toMatchObject({ method: 'POST', path: '/Bulk', status: 501, scimType: null });
    expect(requests.json.find((entry: { path: string }) => entry.path.startsWith('/Users?filter'))).toMatchObject({
      status: 400,
      scimType: 'invalidFilter',
    });
  });

  it("refuses a request without a valid token, and any other connection's resources", async () => {
    expectScimError(await t.call('/scim/v2/Users', { auth: false }), 401);
    expectScimError(await scimClient(t, 'scim_not-a-token')('GET', '/Users'), 401);
    const other = await createScimConnection(t);
    expectScimError(await scimClient(t, other.token)('GET', `/Users/${userId}`), 404);
    expect((await scimClient(t, other.token)('GET', '/Users')).json.totalResults).toBe(0);
  });

  it('pages with startIndex and count, cutting count to 100', async () => {
    const tenant = ownTenant(t);
    const before = (await scim('GET', '/Users?count=0')).json.totalResults as number;
    // 101 more provisioned users, written directly: pages need rows, not requests.
    await tenant.asTenant((db) =>
      db.execute(sql`
        with made as (
          insert into users (tenant_id, id, primary_email)
          select ${DEFAULT_TENANT_ID}, 'pg' || lpad(n::text, 6, '0'), 'page' || n || '@pages.test' from generate_series(1, 101) as n
          returning id, primary_email)
        insert into scim_users (tenant_id, user_id, connection_id, user_name, resource)
        select ${DEFAULT_TENANT_ID}, id, ${setup.connectionId}, primary_email, jsonb_build_object('userName', primary_email) from made`),
    );
    const all = await scim('GET', '/Users?count=500');
    const total = before + 101;
    expect(all.json).toMatchObject({ totalResults: total, itemsPerPage: 100, startIndex: 1 });
    const last = await scim('GET', '/Users?startIndex=101&count=10');
    expect(last.json).toMatchObject({ totalResults: total, itemsPerPage: total - 100, startIndex: 101 });
    const none = await scim('GET', '/Users?count=0&startIndex=-4');
    expect(none.json).toMatchObject({ totalResults: total, itemsPerPage: 0, startIndex: 1, Resources: [] });
    const projected = await scim('GET', '/Users?count=1&attributes=userName,name.givenName');
    expect(Object.keys(projected.json.Resources[0]).sort()).toEqual(['id', 'schemas', 'userName']);
  });

  it('serves its configuration, resource types and schemas', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.json).toMatchObject({ patch: { supported: true }, filter: { supported: true, maxResults: 100 } });
    const types = await scim('GET', '/ResourceTypes');
    expect(types.json.Resources.map((type: { id: string }) => type.id)).toEqual(['User', 'Group']);
    const schema = await scim('GET', `/Schemas/${CORE_USER}`);
    expect(schema.json.attributes.map((attribute: { name: string }) => attribute.name)).toContain('userName');
  });

  it('throttles a connection: 429 with Retry-After and a SCIM error once its minute is used up', async () => {
    const key = scimThrottleKey(DEFAULT_TENANT_ID, setup.connectionId);
    await t.db.execute(
      sql`insert into failure_windows (key, failures, reset_at) values (${key}, ${SCIM_REQUESTS_PER_MINUTE}, now() + interval '1 minute')
        on conflict (key) do update set failures = excluded.failures, reset_at = excluded.reset_at`,
    );
    try {
      const refused = await scim('GET', '/Users');
      expectScimError(refused, 429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    } finally {
      await t.db.execute(sql`delete from failure_windows where key = ${key}`);
    }
    expect((await scim('GET', '/Users?count=1')).status).toBe(200);
  });
});
