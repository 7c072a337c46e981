import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

// Issue 24: organizations and the organization template as a client written for the reference product sees them:
// its request shapes, its answers (relation POSTs ignore what is already there; unknown ids are 422).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
const next = () => {
  counter += 1;
  return counter;
};
const post = (path: string, body: unknown) => t.call(`/api${path}`, { method: 'POST', body });
const idOf = (response: { json: unknown }) => String((response.json as { id: string }).id);
const newOrganization = async () => idOf(await post('/organizations', { name: `compat-org-${next()}` }));
const newUser = async () => idOf(await post('/users', { username: `compat_member_${next()}` }));
const newRole = async (type = 'User') =>
  idOf(await post('/organization-roles', { name: `compat-role-${next()}`, type }));

describe('organization members', () => {
  it('POST …/users ignores members already there and answers 201 {userIds}; unknown users are 422', async () => {
    const org = await newOrganization();
    const [ada, bob] = [await newUser(), await newUser()];
    expect((await post(`/organizations/${org}/users`, { userIds: [ada] })).status).toBe(201);
    const again = await post(`/organizations/${org}/users`, { userIds: [ada, bob] });
    expect(again.status).toBe(201);
    expect(again.json).toEqual({ userIds: [ada, bob] });
    const unknown = await post(`/organizations/${org}/users`, { userIds: ['not-a-user'] });
    expect(unknown.status).toBe(422);
    expect(unknown.json.code).toBe('entity.relation_foreign_key_not_found');
  });

  it('POST …/users/{userId}/roles takes organizationRoleIds and organizationRoleNames together', async () => {
    const org = await newOrganization();
    const user = await newUser();
    await post(`/organizations/${org}/users`, { userIds: [user] });
    const [byId, byName] = [await newRole(), await newRole()];
    const name = String((await t.call(`/api/organization-roles/${byName}`)).json.name);
    const path = `/organizations/${org}/users/${user}/roles`;
    const both = await post(path, { organizationRoleIds: [byId], organizationRoleNames: [name] });
    expect(both.status).toBe(201);
    expect(both.json).toEqual({ organizationRoleIds: [byId, byName] });
    const oneEmpty = await post(path, { organizationRoleIds: [byId], organizationRoleNames: [] });
    expect(oneEmpty.status, 'a role already held is ignored').toBe(201);
    expect(oneEmpty.json).toEqual({ organizationRoleIds: [byId] });
    const unknownName = await post(path, { organizationRoleIds: [], organizationRoleNames: ['no such role'] });
    expect(unknownName.status).toBe(422);
    expect(unknownName.json).toMatchObject({
      code: 'organization.role_names_not_found',
      data: { names: ['no such role'] },
    });
    const unknownId = await post(path, { organizationRoleIds: ['not-a-role'] });
    expect(unknownId.status).toBe(422);
    expect(unknownId.json.code).toBe('entity.relation_foreign_key_not_found');
    const outsider = await newUser();
    const notMember = await post(`/organizations/${org}/users/${outsider}/roles`, { organizationRoleIds: [byId] });
    expect(notMember.status).toBe(422);
    expect(notMember.json.code).toBe('organization.require_membership');
  });
});

describe('member roles (issue 43)', () => {
  it('POST …/users/roles with a non-member is 422 entity.relation_foreign_key_not_found, the reference’s foreign-key miss', async () => {
    const org = await newOrganization();
    const [member, outsider] = [await newUser(), await newUser()];
    await post(`/organizations/${org}/users`, { userIds: [member] });
    const role = await newRole();
    const response = await post(`/organizations/${org}/users/roles`, {
      userIds: [member, outsider],
      organizationRoleIds: [role],
    });
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ code: 'entity.relation_foreign_key_not_found', data: { ids: [outsider] } });
    const memberRoles = await t.call(`/api/organizations/${org}/users/${member}/roles`);
    expect(memberRoles.json, 'nothing assigned').toEqual([]);
  });

  it('kept where the reference is silent: an unknown organization in a bulk role POST is 404 entity.not_exists_with_id', async () => {
    // The reference's description gives these routes only their 201 (docs/areas/organizations.md, issue 43).
    const [user, role] = [await newUser(), await newRole()];
    for (const [path, body] of [
      ['/organizations/no-such-org/users/roles', { userIds: [user], organizationRoleIds: [role] }],
      [
        '/organizations/no-such-org/applications/roles',
        { applicationIds: ['no-such-app'], organizationRoleIds: [role] },
      ],
    ] as const) {
      const response = await post(path, body);
      expect(response.status, path).toBe(404);
      expect(response.json.code, path).toBe('entity.not_exists_with_id');
    }
  });

  it('kept where the reference is silent: a second pending invitation is 422 organization_invitation.pending_exists', async () => {
    const org = await newOrganization();
    const body = { organizationId: org, invitee: `pending${next()}@example.com`, expiresAt: Date.now() + 86_400_000 };
    expect((await post('/organization-invitations', body)).status).toBe(201);
    const again = await post('/organization-invitations', body);
    expect(again.status, 'the reference’s status for a unique violation').toBe(422);
    expect(again.json.code).toBe('organization_invitation.pending_exists');
  });

  it('a member’s roles and scopes and an application’s roles are whole without page or page_size (pg?)', async () => {
    const org = await newOrganization();
    const user = await newUser();
    await post(`/organizations/${org}/users`, { userIds: [user] });
    const roles = [await newRole(), await newRole(), await newRole()];
    await post(`/organizations/${org}/users/${user}/roles`, { organizationRoleIds: roles });
    const whole = await t.call(`/api/organizations/${org}/users/${user}/roles`);
    expect(whole.status).toBe(200);
    expect(whole.json).toHaveLength(3);
    expect(whole.headers.get('Total-Number')).toBeNull();
    const paged = await t.call(`/api/organizations/${org}/users/${user}/roles?page=1&page_size=2`);
    expect(paged.json).toHaveLength(2);
    expect(paged.headers.get('Total-Number')).toBe('3');
    const scopes = await t.call(`/api/organizations/${org}/users/${user}/scopes`);
    expect(scopes.status).toBe(200);
    expect(scopes.headers.get('Total-Number')).toBeNull();
    const app = idOf(await post('/applications', { name: `compat-m2m-${next()}`, type: 'MachineToMachine' }));
    await post(`/organizations/${org}/applications`, { applicationIds: [app] });
    const appRoles = await t.call(`/api/organizations/${org}/applications/${app}/roles`);
    expect(appRoles.status).toBe(200);
    expect(appRoles.headers.get('Total-Number')).toBeNull();
  });
});

describe('organization applications', () => {
  it('POST …/applications and …/applications/{id}/roles ignore what is there; unknown ids are 422', async () => {
    const org = await newOrganization();
    const app = idOf(await post('/applications', { name: `compat-m2m-${next()}`, type: 'MachineToMachine' }));
    for (let i = 0; i < 2; i++) {
      const added = await post(`/organizations/${org}/applications`, { applicationIds: [app] });
      expect(added.status, `add #${i + 1}`).toBe(201);
    }
    const role = await newRole('MachineToMachine');
    for (let i = 0; i < 2; i++) {
      const given = await post(`/organizations/${org}/applications/${app}/roles`, { organizationRoleIds: [role] });
      expect(given.status, `give #${i + 1}`).toBe(201);
    }
    const unknown = await post(`/organizations/${org}/applications`, { applicationIds: ['not-an-application'] });
    expect(unknown.status).toBe(422);
    expect(unknown.json.code).toBe('entity.relation_foreign_key_not_found');
  });
});

describe('organization template', () => {
  it('a name in use is 422 entity.unique_integrity_violation, the reference’s code (issue 43)', async () => {
    const name = `compat-taken-${next()}`;
    expect((await post('/organization-roles', { name })).status).toBe(201);
    const role = await post('/organization-roles', { name });
    expect(role.status).toBe(422);
    expect(role.json.code).toBe('entity.unique_integrity_violation');
    const scopeName = `compat:taken-${next()}`;
    expect((await post('/organization-scopes', { name: scopeName })).status).toBe(201);
    const scope = await post('/organization-scopes', { name: scopeName });
    expect(scope.status).toBe(422);
    expect(scope.json.code).toBe('entity.unique_integrity_violation');
  });

  it('GET /organization-roles/{id} has the shape of the create answer', async () => {
    const scope = idOf(await post('/organization-scopes', { name: `compat:scope${next()}` }));
    const created = await post('/organization-roles', {
      name: `compat-shape-${next()}`,
      organizationScopeIds: [scope],
    });
    expect(created.status).toBe(201);
    const read = await t.call(`/api/organization-roles/${idOf(created)}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
  });

  it('POST …/scopes and …/resource-scopes ignore permissions already there; unknown ids are 422', async () => {
    const role = await newRole();
    const scope = idOf(await post('/organization-scopes', { name: `compat:perm${next()}` }));
    const resource = idOf(
      await post('/resources', { name: `compat-api-${next()}`, indicator: `https://compat-${counter}.example.com` }),
    );
    const apiScope = idOf(await post(`/resources/${resource}/scopes`, { name: 'compat:read' }));
    for (let i = 0; i < 2; i++) {
      expect((await post(`/organization-roles/${role}/scopes`, { organizationScopeIds: [scope] })).status).toBe(201);
      expect((await post(`/organization-roles/${role}/resource-scopes`, { scopeIds: [apiScope] })).status).toBe(201);
    }
    for (const [path, body] of [
      [`/organization-roles/${role}/scopes`, { organizationScopeIds: ['not-a-scope'] }],
      [`/organization-roles/${role}/resource-scopes`, { scopeIds: ['not-a-scope'] }],
    ] as const) {
      const response = await post(path, body);
      expect(response.status, path).toBe(422);
      expect(response.json.code).toBe('entity.relation_foreign_key_not_found');
    }
  });

  it('POST /organizations/{id}/jit/roles ignores roles already set', async () => {
    const org = await newOrganization();
    const role = await newRole();
    for (let i = 0; i < 2; i++) {
      expect((await post(`/organizations/${org}/jit/roles`, { organizationRoleIds: [role] })).status).toBe(201);
    }
  });
});

describe('404 codes by how the reference misses (issue 43)', () => {
  it('GET of an unknown organization, role or scope is entity.not_exists_with_id; PATCH entity.not_exists; DELETE entity.not_found', async () => {
    // The reference's generic routes: its finder, its update (`UpdateError`) and its deletion (`DeletionError`).
    for (const base of ['/api/organizations', '/api/organization-roles', '/api/organization-scopes']) {
      for (const [method, body, code] of [
        ['GET', undefined, 'entity.not_exists_with_id'],
        ['PATCH', { description: 'x' }, 'entity.not_exists'],
        ['DELETE', undefined, 'entity.not_found'],
      ] as const) {
        const response = await t.call(`${base}/no-such-entity`, { method, body });
        expect(response.status, `${method} ${base}`).toBe(404);
        expect(response.json.code, `${method} ${base}`).toBe(code);
      }
    }
  });

  it('DELETE of an organization invitation that does not exist is entity.not_found; GET is entity.not_exists_with_id', async () => {
    const deleted = await t.call('/api/organization-invitations/no-such-invitation', { method: 'DELETE' });
    expect(deleted.status).toBe(404);
    expect(deleted.json.code).toBe('entity.not_found');
    const read = await t.call('/api/organization-invitations/no-such-invitation');
    expect(read.status).toBe(404);
    expect(read.json.code).toBe('entity.not_exists_with_id');
  });

  it('DELETE /organizations/{id}/users/{userId}/roles/{unknown} is 404 entity.not_found', async () => {
    const org = await newOrganization();
    const user = await newUser();
    await post(`/organizations/${org}/users`, { userIds: [user] });
    const held = await newRole();
    for (const roleId of ['no-such-role', held]) {
      const response = await t.call(`/api/organizations/${org}/users/${user}/roles/${roleId}`, { method: 'DELETE' });
      expect(response.status, roleId).toBe(404);
      expect(response.json.code, roleId).toBe('entity.not_found');
    }
  });

  it('DELETE of a link not there, or under an unknown organization, is 404 entity.not_found', async () => {
    const org = await newOrganization();
    for (const path of [
      `/organizations/${org}/users/nosuchuser12`,
      `/organizations/no-such-org/users/nosuchuser12`,
      `/organizations/${org}/applications/no-such-app`,
      `/organizations/${org}/jit/roles/no-such-role`,
      `/organization-roles/no-such-role/scopes/no-such-scope`,
    ]) {
      const response = await t.call(`/api${path}`, { method: 'DELETE' });
      expect(response.status, path).toBe(404);
      expect(response.json.code, path).toBe('entity.not_found');
    }
  });
});
