import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/tables.ts';
import { provisionJustInTime } from '../src/services/organization-jit.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, ownTenant } from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const newOrganization = async (name: string) =>
  String((await t.call('/api/organizations', { method: 'POST', body: { name } })).json.id);
const newRole = async (name: string, type = 'User') =>
  String((await t.call('/api/organization-roles', { method: 'POST', body: { name, type } })).json.id);
const domainsOf = async (org: string) =>
  ((await t.call(`/api/organizations/${org}/jit/email-domains`)).json as { emailDomain: string }[]).map(
    (row) => row.emailDomain,
  );

describe('JIT email domains', () => {
  it('adds (normalised), lists, replaces and removes domains, audited on the organization', async () => {
    const org = await newOrganization('jit-domains');
    const path = `/api/organizations/${org}/jit/email-domains`;
    const added = await t.call(path, { method: 'POST', body: { emailDomain: '  @Example.COM ' } });
    expect(added.status).toBe(201);
    expect(added.json).toEqual({ organizationId: org, emailDomain: 'example.com' });
    await t.call(path, { method: 'POST', body: { emailDomain: 'acme.co.uk' } });
    const list = await t.call(`${path}?page=1`);
    expect(
      list.json.map((row: { emailDomain: string }) => row.emailDomain),
      'alphabetical',
    ).toEqual(['acme.co.uk', 'example.com']);
    expect(list.headers.get('Total-Number')).toBe('2');

    const duplicate = await t.call(path, { method: 'POST', body: { emailDomain: 'EXAMPLE.com' } });
    expect(duplicate.status).toBe(422);
    expect(duplicate.json).toMatchObject({
      code: 'organization.jit_email_domain_exists',
      data: { ids: ['example.com'] },
    });
    for (const emailDomain of [
      'localhost',
      'not a domain',
      'user@example.com',
      '-bad.com',
      `${'x'.repeat(64)}.com`,
      '',
    ]) {
      expectInvalid(await t.call(path, { method: 'POST', body: { emailDomain } }), 'emailDomain', emailDomain);
    }
    expectInvalid(
      await t.call(path, { method: 'PUT', body: { emailDomains: ['a.com', 'A.com'] } }),
      'emailDomains',
      'the same domain twice after normalising',
    );

    expect((await t.call(path, { method: 'PUT', body: { emailDomains: ['b.example', 'example.com'] } })).status).toBe(
      204,
    );
    expect(await domainsOf(org)).toEqual(['b.example', 'example.com']);
    expect((await t.call(`${path}/Example.com`, { method: 'DELETE' })).status, 'the path is normalised too').toBe(204);
    expect((await t.call(`${path}/example.com`, { method: 'DELETE' })).status).toBe(404);
    expect(await domainsOf(org)).toEqual(['b.example']);

    const [latest, replaced] = await auditEntries(t, org);
    expect(latest?.payload).toMatchObject({
      before: { jitEmailDomains: ['b.example', 'example.com'] },
      after: { jitEmailDomains: ['b.example'] },
    });
    expect(replaced?.payload).toMatchObject({
      before: { jitEmailDomains: ['acme.co.uk', 'example.com'] },
      after: { jitEmailDomains: ['b.example', 'example.com'] },
    });
  });
});

describe('JIT roles', () => {
  it('adds, lists, replaces and removes default user roles, refusing machine roles and duplicates', async () => {
    const org = await newOrganization('jit-roles');
    const path = `/api/organizations/${org}/jit/roles`;
    const member = await newRole('jit-member');
    const guest = await newRole('jit-guest');
    const machine = await newRole('jit-machine', 'MachineToMachine');
    expect((await t.call(path, { method: 'POST', body: { organizationRoleIds: [member] } })).status).toBe(201);
    const duplicate = await t.call(path, { method: 'POST', body: { organizationRoleIds: [member, guest] } });
    expect(duplicate.status, 'a role already set is ignored, the other added').toBe(201);
    const wrongType = await t.call(path, { method: 'POST', body: { organizationRoleIds: [machine] } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json).toMatchObject({ code: 'organization_role.invalid_type', data: { ids: [machine] } });
    const unknown = await t.call(path, { method: 'PUT', body: { organizationRoleIds: ['nope'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.json.code).toBe('entity.relation_foreign_key_not_found');
    expectInvalid(await t.call(path, { method: 'POST', body: { organizationRoleIds: [] } }), 'organizationRoleIds');

    expect((await t.call(path, { method: 'PUT', body: { organizationRoleIds: [guest, member] } })).status).toBe(204);
    expect((await t.call(path)).json.map((role: { name: string }) => role.name)).toEqual(['jit-guest', 'jit-member']);
    expect((await t.call(`${path}/${guest}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`${path}/${guest}`, { method: 'DELETE' })).status).toBe(404);
    expect((await t.call(path)).json.map((role: { id: string }) => role.id)).toEqual([member]);
    expect((await auditEntries(t, org))[0]?.payload).toMatchObject({
      before: { jitOrganizationRoleIds: [guest, member].sort() },
      after: { jitOrganizationRoleIds: [member] },
    });
  });

  it('require a token with scope all and an existing organization', async () => {
    for (const path of ['/api/organizations/nope/jit/email-domains', '/api/organizations/nope/jit/roles']) {
      expect((await t.call(path)).status, path).toBe(404);
    }
    await expectGuarded(t, [
      { method: 'GET', path: '/api/organizations/x/jit/email-domains' },
      { method: 'POST', path: '/api/organizations/x/jit/email-domains', body: { emailDomain: 'a.com' } },
      { method: 'PUT', path: '/api/organizations/x/jit/email-domains', body: { emailDomains: [] } },
      { method: 'DELETE', path: '/api/organizations/x/jit/email-domains/a.com' },
      { method: 'GET', path: '/api/organizations/x/jit/roles' },
      { method: 'POST', path: '/api/organizations/x/jit/roles', body: { organizationRoleIds: ['r'] } },
      { method: 'PUT', path: '/api/organizations/x/jit/roles', body: { organizationRoleIds: [] } },
      { method: 'DELETE', path: '/api/organizations/x/jit/roles/r' },
    ]);
  });
});

describe('just-in-time provisioning', () => {
  it('puts a new user into every organization of their email domain with its JIT roles', async () => {
    const first = await newOrganization('jit-first');
    const second = await newOrganization('jit-second');
    const unrelated = await newOrganization('jit-unrelated');
    const role = await newRole('jit-default');
    await t.call(`/api/organizations/${first}/jit/email-domains`, {
      method: 'POST',
      body: { emailDomain: 'corp.example' },
    });
    await t.call(`/api/organizations/${first}/jit/roles`, { method: 'POST', body: { organizationRoleIds: [role] } });
    await t.call(`/api/organizations/${second}/jit/email-domains`, {
      method: 'POST',
      body: { emailDomain: 'corp.example' },
    });
    await t.call(`/api/organizations/${unrelated}/jit/email-domains`, {
      method: 'POST',
      body: { emailDomain: 'other.example' },
    });

    const tenant = ownTenant(t);
    const outcome = await tenant.transaction(async (tx) => {
      const user = await tx.insert(users, {
        id: 'jituser0001',
        username: 'newcomer',
        primaryEmail: 'New@Corp.Example',
      });
      return provisionJustInTime(tx, { id: user.id, verifiedEmail: 'New@Corp.Example' });
    });
    expect(outcome.organizationIds).toEqual([first, second].sort());
    expect(outcome.events).toEqual(
      [first, second].sort().map((organizationId) => ({
        event: 'Organization.Membership.Updated',
        data: { organizationId, addedUserIds: ['jituser0001'], removedUserIds: [] },
      })),
    );
    const organizations = (await t.call('/api/users/jituser0001/organizations')).json as {
      id: string;
      organizationRoles: { id: string }[];
    }[];
    expect(organizations.map((org) => org.id).sort()).toEqual([first, second].sort());
    expect(organizations.find((org) => org.id === first)?.organizationRoles).toEqual([
      { id: role, name: 'jit-default' },
    ]);
    expect(organizations.find((org) => org.id === second)?.organizationRoles).toEqual([]);

    const again = await tenant.transaction((tx) =>
      provisionJustInTime(tx, { id: 'jituser0001', verifiedEmail: 'new@corp.example' }),
    );
    expect(again.events, 'provisioning twice changes nothing').toEqual([]);
    const nobody = await tenant.transaction(async (tx) => {
      const user = await tx.insert(users, {
        id: 'jituser0002',
        username: 'outsider',
        primaryEmail: 'a@elsewhere.example',
      });
      return provisionJustInTime(tx, { id: user.id, verifiedEmail: 'a@elsewhere.example' });
    });
    expect(nobody).toEqual({ organizationIds: [], events: [] });
  });
});
