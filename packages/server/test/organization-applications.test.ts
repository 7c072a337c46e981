import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, organizations } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, queuedEvents } from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const newOrganization = async (name: string) =>
  String((await t.call('/api/organizations', { method: 'POST', body: { name } })).json.id);
const newApp = async (name: string, type = 'MachineToMachine') =>
  String((await t.call('/api/applications', { method: 'POST', body: { name, type } })).json.id);
const newRole = async (name: string, type = 'MachineToMachine') =>
  String((await t.call('/api/organization-roles', { method: 'POST', body: { name, type } })).json.id);
const ids = (list: { id: string }[]) => list.map((item) => item.id);
const appsOf = async (org: string, query = '') => (await t.call(`/api/organizations/${org}/applications${query}`)).json;

describe('organization applications', () => {
  it('adds, lists, searches, replaces and removes machine-to-machine apps, with audit and events', async () => {
    const org = await newOrganization('apps-main');
    const one = await newApp('robot-one');
    const two = await newApp('robot-two');
    const three = await newApp('robot-three');
    const added = await t.call(`/api/organizations/${org}/applications`, {
      method: 'POST',
      body: { applicationIds: [one, two] },
    });
    expect(added.status).toBe(201);
    const list = await t.call(`/api/organizations/${org}/applications`);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect(list.json).toEqual([
      expect.objectContaining({ id: two, name: 'robot-two', type: 'MachineToMachine', organizationRoles: [] }),
      expect.objectContaining({ id: one }),
    ]);
    expect(list.json[0], 'never the internal secret').not.toHaveProperty('secret');
    expect(ids(await appsOf(org, '?q=TWO'))).toEqual([two]);

    expect(
      (
        await t.call(`/api/organizations/${org}/applications`, {
          method: 'PUT',
          body: { applicationIds: [two, three] },
        })
      ).status,
    ).toBe(204);
    expect(ids(await appsOf(org)).sort()).toEqual([two, three].sort());
    expect((await t.call(`/api/organizations/${org}/applications/${two}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/organizations/${org}/applications/${two}`, { method: 'DELETE' })).status).toBe(404);
    expect(ids(await appsOf(org))).toEqual([three]);

    const entries = await auditEntries(t, org);
    expect(entries.slice(0, 3).map((entry) => [entry.payload.before, entry.payload.after])).toEqual([
      [{ applicationIds: [two] }, { applicationIds: [] }],
      [{ applicationIds: [one] }, { applicationIds: [three] }],
      [{ applicationIds: [] }, { applicationIds: [one, two].sort() }],
    ]);
    const events = (await queuedEvents(t, 'Organization.Membership.Updated')).filter((e) => e.organizationId === org);
    expect(events[1]).toEqual({
      organizationId: org,
      addedApplicationIds: [three],
      removedApplicationIds: [one],
    });

    expect((await t.call(`/api/applications/${three}`, { method: 'DELETE' })).status).toBe(204);
    expect(await appsOf(org), 'deleting the app removes it from the organization').toEqual([]);
  });

  it('refuses other application types, duplicates, unknown and foreign apps', async () => {
    const org = await newOrganization('apps-refusals');
    const robot = await newApp('robot-refused');
    const spa = await newApp('web-app', 'SPA');
    const foreign = await otherTenant(t).insert(applications, {
      id: 'foreign-oapp',
      name: 'foreign',
      secret: 'x',
      type: 'MachineToMachine',
    });
    const path = `/api/organizations/${org}/applications`;
    const wrongType = await t.call(path, { method: 'POST', body: { applicationIds: [robot, spa] } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json).toMatchObject({ code: 'application.invalid_type', data: { ids: [spa] } });
    expect((await t.call(path, { method: 'PUT', body: { applicationIds: [spa] } })).json.code).toBe(
      'application.invalid_type',
    );
    await t.call(path, { method: 'POST', body: { applicationIds: [robot] } });
    const duplicate = await t.call(path, { method: 'POST', body: { applicationIds: [robot, robot] } });
    expect(duplicate.status, 'an application already there (and a repeat) is ignored').toBe(201);
    for (const unknown of ['no-such-app', foreign.id]) {
      const response = await t.call(path, { method: 'POST', body: { applicationIds: [unknown] } });
      expect(response.status, unknown).toBe(422);
      expect(response.json).toMatchObject({ code: 'entity.relation_foreign_key_not_found', data: { ids: [unknown] } });
    }
    for (const body of [{}, { applicationIds: [] }, { applicationIds: 'x' }]) {
      expectInvalid(await t.call(path, { method: 'POST', body }), 'applicationIds', JSON.stringify(body));
    }
    expect(ids(await appsOf(org))).toEqual([robot]);
  });
});

describe('organization application roles', () => {
  it("gives, lists, replaces and removes an app's machine-to-machine organization roles", async () => {
    const org = await newOrganization('app-roles');
    const robot = await newApp('robot-with-roles');
    const other = await newApp('robot-bulk');
    const outsider = await newApp('robot-outside');
    await t.call(`/api/organizations/${org}/applications`, {
      method: 'POST',
      body: { applicationIds: [robot, other] },
    });
    const sync = await newRole('ar-sync');
    const report = await newRole('ar-report');
    const human = await newRole('ar-human', 'User');
    const rolesOf = `/api/organizations/${org}/applications/${robot}/roles`;

    expect((await t.call(rolesOf, { method: 'POST', body: { organizationRoleIds: [sync] } })).status).toBe(201);
    const held = await t.call(rolesOf, { method: 'POST', body: { organizationRoleIds: [sync] } });
    expect(held.status, 'a role already held is ignored').toBe(201);
    const wrongType = await t.call(rolesOf, { method: 'POST', body: { organizationRoleIds: [human] } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json).toMatchObject({ code: 'organization_role.invalid_type', data: { ids: [human] } });
    expect((await t.call(rolesOf, { method: 'PUT', body: { organizationRoleIds: [report, sync] } })).status).toBe(204);
    const list = await t.call(rolesOf);
    expect(list.json.map((role: { name: string }) => role.name)).toEqual(['ar-report', 'ar-sync']);
    expect((await appsOf(org, '?q=with-roles'))[0].organizationRoles).toEqual([
      { id: report, name: 'ar-report' },
      { id: sync, name: 'ar-sync' },
    ]);
    expect((await t.call(`${rolesOf}/${report}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`${rolesOf}/${report}`, { method: 'DELETE' })).status).toBe(404);
    expect((await auditEntries(t, org))[0]?.payload).toMatchObject({
      before: { applicationId: robot, organizationRoleIds: [report, sync].sort() },
      after: { applicationId: robot, organizationRoleIds: [sync] },
    });

    const bulk = await t.call(`/api/organizations/${org}/applications/roles`, {
      method: 'POST',
      body: { applicationIds: [robot, other], organizationRoleIds: [sync, report] },
    });
    expect(bulk.status).toBe(201);
    expect(ids((await t.call(`/api/organizations/${org}/applications/${other}/roles`)).json).sort()).toEqual(
      [sync, report].sort(),
    );
    const notIn = await t.call(`/api/organizations/${org}/applications/roles`, {
      method: 'POST',
      body: { applicationIds: [outsider], organizationRoleIds: [sync] },
    });
    expect(notIn.status).toBe(422);
    expect(notIn.json).toMatchObject({ code: 'entity.relation_foreign_key_not_found', data: { ids: [outsider] } });
    const outsiderRoles = await t.call(`/api/organizations/${org}/applications/${outsider}/roles`);
    expect(outsiderRoles.status, 'an app outside the organization holds no roles (reference)').toBe(422);
    expect(outsiderRoles.json.code).toBe('organization.require_membership');

    await t.call(`/api/organizations/${org}/applications/${robot}`, { method: 'DELETE' });
    await t.call(`/api/organizations/${org}/applications`, { method: 'POST', body: { applicationIds: [robot] } });
    expect((await t.call(rolesOf)).json, 'leaving drops the roles held there').toEqual([]);
  });

  it("answer 404 for another tenant's organization and guard every route", async () => {
    const foreign = await otherTenant(t).insert(organizations, { id: 'foreign-aorg', name: 'foreign' });
    for (const [method, path, body] of [
      ['GET', `/api/organizations/${foreign.id}/applications`, undefined],
      ['POST', `/api/organizations/${foreign.id}/applications`, { applicationIds: ['a'] }],
      ['PUT', `/api/organizations/${foreign.id}/applications`, { applicationIds: [] }],
      ['DELETE', `/api/organizations/${foreign.id}/applications/a`, undefined],
      ['GET', `/api/organizations/${foreign.id}/applications/a/roles`, undefined],
      [
        'POST',
        `/api/organizations/${foreign.id}/applications/roles`,
        { applicationIds: ['a'], organizationRoleIds: ['r'] },
      ],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      // A link's DELETE is the reference's deletion miss, which does not look the organization up (issue 43).
      expect(response.json.code, `${method} ${path}`).toBe(
        method === 'DELETE' ? 'entity.not_found' : 'entity.not_exists_with_id',
      );
    }
    const org = await newOrganization('apps-guarded');
    await expectGuarded(t, [
      { method: 'GET', path: `/api/organizations/${org}/applications` },
      { method: 'POST', path: `/api/organizations/${org}/applications`, body: { applicationIds: ['a'] } },
      { method: 'PUT', path: `/api/organizations/${org}/applications`, body: { applicationIds: [] } },
      { method: 'DELETE', path: `/api/organizations/${org}/applications/a` },
      {
        method: 'POST',
        path: `/api/organizations/${org}/applications/roles`,
        body: { applicationIds: ['a'], organizationRoleIds: ['r'] },
      },
      { method: 'GET', path: `/api/organizations/${org}/applications/a/roles` },
      { method: 'POST', path: `/api/organizations/${org}/applications/a/roles`, body: { organizationRoleIds: ['r'] } },
      { method: 'PUT', path: `/api/organizations/${org}/applications/a/roles`, body: { organizationRoleIds: [] } },
      { method: 'DELETE', path: `/api/organizations/${org}/applications/a/roles/r` },
    ]);
  });
});
