import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, organizations, users } from '../src/db/tables.ts';
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

const createOrganization = (body: Record<string, unknown>) => t.call('/api/organizations', { method: 'POST', body });
const names = (list: { name: string }[]) => list.map((item) => item.name);

let userCounter = 0;
const newUser = (name: string) =>
  ownTenant(t).insert(users, { id: `ou${String(++userCounter).padStart(5, '0')}`, username: name, name });

describe('organizations API', () => {
  it('creates, reads, updates and deletes an organization', async () => {
    const created = await createOrganization({
      name: 'Acme',
      description: 'Rockets and anvils',
      customData: { plan: 'gold' },
      isMfaRequired: true,
      color: { primaryColor: '#ff0000', isDarkModeEnabled: true, darkPrimaryColor: '#a00' },
      branding: { logoUrl: 'https://cdn.example.com/acme.png', favicon: 'https://cdn.example.com/favicon.ico' },
      customCss: '.logo { width: 80px; }',
    });
    expect(created.status, 'create answers 201 with the organization').toBe(201);
    expect(created.json).toMatchObject({
      tenantId: 'default',
      name: 'Acme',
      description: 'Rockets and anvils',
      customData: { plan: 'gold' },
      isMfaRequired: true,
      color: { primaryColor: '#ff0000', isDarkModeEnabled: true, darkPrimaryColor: '#a00' },
      branding: { logoUrl: 'https://cdn.example.com/acme.png', favicon: 'https://cdn.example.com/favicon.ico' },
      customCss: '.logo { width: 80px; }',
    });
    const id = String(created.json.id);
    expect(id).toMatch(/^[0-9a-z]{21}$/);
    expect(typeof created.json.createdAt).toBe('number');

    const read = await t.call(`/api/organizations/${id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const patched = await t.call(`/api/organizations/${id}`, {
      method: 'PATCH',
      body: { description: null, customData: { plan: 'silver' }, isMfaRequired: false, branding: {} },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      id,
      name: 'Acme',
      description: null,
      customData: { plan: 'silver' },
      isMfaRequired: false,
      branding: {},
      color: { primaryColor: '#ff0000' },
    });

    const unchanged = await t.call(`/api/organizations/${id}`, { method: 'PATCH', body: {} });
    expect(unchanged.status, 'an empty patch changes nothing').toBe(200);
    expect(unchanged.json).toEqual(patched.json);

    const minimal = await createOrganization({ name: '  Trimmed  ' });
    expect(minimal.json, 'defaults of a bare organization').toMatchObject({
      name: 'Trimmed',
      description: null,
      customData: {},
      isMfaRequired: false,
      color: {},
      branding: {},
      customCss: null,
    });

    const deleted = await t.call(`/api/organizations/${id}`, { method: 'DELETE' });
    expect(deleted.status, 'delete answers 204 without a body').toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.call(`/api/organizations/${id}`)).status, 'a deleted organization is gone').toBe(404);
  });

  it('rejects invalid input with the failing field and saves nothing', async () => {
    const before = Number((await t.call('/api/organizations')).headers.get('Total-Number'));
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(129) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'ok', description: 'd'.repeat(257) }, 'description'],
      [{ name: 'ok', isMfaRequired: 'yes' }, 'isMfaRequired'],
      [{ name: 'ok', customData: [] }, 'customData'],
      [{ name: 'ok', customData: { big: 'x'.repeat(70 * 1024) } }, 'customData'],
      [{ name: 'ok', color: { primaryColor: 'red' } }, 'color.primaryColor'],
      [{ name: 'ok', color: { primaryColor: '#12345' } }, 'color.primaryColor'],
      [{ name: 'ok', branding: { logoUrl: 'javascript:alert(1)' } }, 'branding.logoUrl'],
      [{ name: 'ok', branding: { logoUrl: 'not a url' } }, 'branding.logoUrl'],
      [{ name: 'ok', customCss: 'x'.repeat(64 * 1024 + 1) }, 'customCss'],
    ];
    for (const [body, path] of cases)
      expectInvalid(await createOrganization(body), path, JSON.stringify(body).slice(0, 80));
    expect(Number((await t.call('/api/organizations')).headers.get('Total-Number'))).toBe(before);

    const id = String((await createOrganization({ name: 'valid' })).json.id);
    expectInvalid(await t.call(`/api/organizations/${id}`, { method: 'PATCH', body: { name: '' } }), 'name');
    expectInvalid(
      await t.call(`/api/organizations/${id}`, { method: 'PATCH', body: { description: 'd'.repeat(257) } }),
      'description',
    );
    expect((await t.call(`/api/organizations/${id}`)).json.name, 'a refused patch changes nothing').toBe('valid');
  });

  it('answers 404 for unknown ids on read, update and delete, in the reference’s codes (issue 43)', async () => {
    for (const [method, code] of [
      ['GET', 'entity.not_exists_with_id'],
      ['PATCH', 'entity.not_exists'],
      ['DELETE', 'entity.not_found'],
    ] as const) {
      const response = await t.call('/api/organizations/does-not-exist', {
        method,
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
      });
      expect(response.status, method).toBe(404);
      expect(response.json.code, method).toBe(code);
    }
    // An id that cannot exist is unknown like any other (reference), not a bad request.
    const long = await t.call(`/api/organizations/${'x'.repeat(33)}`);
    expect(long.status, 'an id longer than 32').toBe(404);
    expect(long.json.code).toBe('entity.not_exists_with_id');
  });

  it('lists newest first with pagination and q/search over id and name', async () => {
    for (const name of ['list-alpha', 'list-beta', 'list-gamma']) await createOrganization({ name });
    const all = await t.call('/api/organizations?q=list-');
    expect(names(all.json)).toEqual(['list-gamma', 'list-beta', 'list-alpha']);
    expect(all.headers.get('Total-Number')).toBe('3');
    const page = await t.call('/api/organizations?q=list-&page=2&page_size=2');
    expect(names(page.json)).toEqual(['list-alpha']);
    expect(page.headers.get('Link')).toContain('rel="prev"');
    expect(names((await t.call('/api/organizations?search=BETA')).json), 'search is an alias, any case').toEqual([
      'list-beta',
    ]);
    expect(names((await t.call(`/api/organizations?q=${encodeURIComponent('%t-gam%')}`)).json)).toEqual(['list-gamma']);
    const beta = (await t.call('/api/organizations?q=list-beta')).json[0];
    expect(
      (await t.call(`/api/organizations?q=${beta.id.slice(3, 15)}`)).json.map((o: { id: string }) => o.id),
    ).toEqual([beta.id]);
    for (const query of ['page=0', 'page_size=101']) {
      const response = await t.call(`/api/organizations?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.code).toBe('guard.invalid_pagination');
    }
  });

  it('shows member counts and up to three featured members with showFeatured', async () => {
    const big = String((await createOrganization({ name: 'featured-big' })).json.id);
    const small = String((await createOrganization({ name: 'featured-small' })).json.id);
    await createOrganization({ name: 'featured-empty' });
    const people = [];
    for (const name of ['fa', 'fb', 'fc', 'fd']) people.push(await newUser(name));
    await t.call(`/api/organizations/${big}/users`, { method: 'POST', body: { userIds: people.map((u) => u.id) } });
    await t.call(`/api/organizations/${small}/users`, { method: 'POST', body: { userIds: [people[0]?.id] } });

    const list = await t.call('/api/organizations?q=featured-&showFeatured=1');
    expect(list.status).toBe(200);
    const byName = Object.fromEntries(
      (list.json as { name: string; usersCount: number; featuredUsers: { id: string; name: string }[] }[]).map(
        (org) => [org.name, org],
      ),
    );
    expect(byName['featured-big']?.usersCount).toBe(4);
    expect(byName['featured-big']?.featuredUsers).toHaveLength(3);
    expect(byName['featured-big']?.featuredUsers[0]).toEqual({ id: people[0]?.id, name: 'fa', avatar: null });
    expect(byName['featured-small']).toMatchObject({ usersCount: 1, featuredUsers: [{ id: people[0]?.id }] });
    expect(byName['featured-empty']).toMatchObject({ usersCount: 0, featuredUsers: [] });
    const plain = await t.call('/api/organizations?q=featured-');
    expect(plain.json[0], 'no counts without showFeatured').not.toHaveProperty('usersCount');
  });

  it('audits every write with before/after and queues the Organization events', async () => {
    const created = await createOrganization({ name: 'audited', description: 'v1' });
    const id = String(created.json.id);
    await t.call(`/api/organizations/${id}`, { method: 'PATCH', body: { description: 'v2' } });
    await t.call(`/api/organizations/${id}`, { method: 'DELETE' });

    const entries = await auditEntries(t, id);
    expect(entries.map((entry) => entry.key)).toEqual([
      'Admin.Organization.Deleted',
      'Admin.Organization.Updated',
      'Admin.Organization.Created',
    ]);
    expect(entries[2]?.payload).toMatchObject({
      result: 'Success',
      actor: { type: 'user', id: 'test-admin' },
      entity: { type: 'Organization', id },
      before: null,
      after: { id, name: 'audited', description: 'v1' },
    });
    expect(entries[1]?.payload.changes).toEqual([{ field: 'description', before: 'v1', after: 'v2' }]);
    expect(entries[0]?.payload).toMatchObject({ before: { id, description: 'v2' }, after: null });

    expect((await queuedEvents(t, 'Organization.Created')).filter((e) => e.id === id)).toHaveLength(1);
    const updated = (await queuedEvents(t, 'Organization.Data.Updated')).filter((e) => e.id === id);
    expect(updated).toEqual([expect.objectContaining({ description: 'v2' })]);
    expect((await queuedEvents(t, 'Organization.Deleted')).filter((e) => e.id === id)).toHaveLength(1);
  });

  it('deleting an organization takes its members, roles held there, applications and JIT settings with it', async () => {
    const id = String((await createOrganization({ name: 'doomed' })).json.id);
    const user = await newUser('doomed-member');
    const robot = String(
      (await t.call('/api/applications', { method: 'POST', body: { name: 'doomed-robot', type: 'MachineToMachine' } }))
        .json.id,
    );
    const role = String(
      (await t.call('/api/organization-roles', { method: 'POST', body: { name: 'doomed-role' } })).json.id,
    );
    await t.call(`/api/organizations/${id}/users`, { method: 'POST', body: { userIds: [user.id] } });
    await t.call(`/api/organizations/${id}/users/${user.id}/roles`, {
      method: 'POST',
      body: { organizationRoleIds: [role] },
    });
    await t.call(`/api/organizations/${id}/applications`, { method: 'POST', body: { applicationIds: [robot] } });
    await t.call(`/api/organizations/${id}/jit/email-domains`, {
      method: 'POST',
      body: { emailDomain: 'doomed.example' },
    });
    expect((await t.call(`/api/users/${user.id}/organizations`)).json).toHaveLength(1);

    expect((await t.call(`/api/organizations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/users/${user.id}/organizations`)).json, 'the membership went with it').toEqual([]);
    expect((await t.call(`/api/applications/${robot}/organizations`)).json).toEqual([]);
    expect((await t.call(`/api/users/${user.id}`)).status, 'the user stays').toBe(200);
    expect((await t.call(`/api/organization-roles/${role}`)).status, 'the template role stays').toBe(200);
  });
});

describe('organizations of a user or an application', () => {
  it("lists a user's organizations with the roles held in each", async () => {
    const user = await newUser('multi-member');
    const first = String((await createOrganization({ name: 'member-of-first' })).json.id);
    const second = String((await createOrganization({ name: 'member-of-second' })).json.id);
    await createOrganization({ name: 'member-of-none' });
    const admin = String(
      (await t.call('/api/organization-roles', { method: 'POST', body: { name: 'uo-admin' } })).json.id,
    );
    const viewer = String(
      (await t.call('/api/organization-roles', { method: 'POST', body: { name: 'uo-viewer' } })).json.id,
    );
    for (const org of [first, second]) {
      await t.call(`/api/organizations/${org}/users`, { method: 'POST', body: { userIds: [user.id] } });
    }
    await t.call(`/api/organizations/${first}/users/${user.id}/roles`, {
      method: 'PUT',
      body: { organizationRoleIds: [viewer, admin] },
    });

    const list = await t.call(`/api/users/${user.id}/organizations?page=1`);
    expect(list.status).toBe(200);
    expect(list.headers.get('Total-Number')).toBe('2');
    expect(list.json).toEqual([
      expect.objectContaining({ id: second, name: 'member-of-second', organizationRoles: [] }),
      expect.objectContaining({
        id: first,
        organizationRoles: [
          { id: admin, name: 'uo-admin' },
          { id: viewer, name: 'uo-viewer' },
        ],
      }),
    ]);
    expect((await t.call('/api/users/nobody/organizations')).status).toBe(404);
  });

  it("lists a machine-to-machine application's organizations with its roles there", async () => {
    const robot = String(
      (await t.call('/api/applications', { method: 'POST', body: { name: 'org-robot', type: 'MachineToMachine' } }))
        .json.id,
    );
    const org = String((await createOrganization({ name: 'robot-home' })).json.id);
    const role = String(
      (
        await t.call('/api/organization-roles', {
          method: 'POST',
          body: { name: 'ao-machine', type: 'MachineToMachine' },
        })
      ).json.id,
    );
    await t.call(`/api/organizations/${org}/applications`, { method: 'POST', body: { applicationIds: [robot] } });
    await t.call(`/api/organizations/${org}/applications/${robot}/roles`, {
      method: 'POST',
      body: { organizationRoleIds: [role] },
    });
    const list = await t.call(`/api/applications/${robot}/organizations`);
    expect(list.json).toEqual([
      expect.objectContaining({ id: org, organizationRoles: [{ id: role, name: 'ao-machine' }] }),
    ]);
    expect((await t.call('/api/applications/no-such-app/organizations')).status).toBe(404);
  });
});

describe('organization routes and tenants', () => {
  it("answer 404 for another tenant's organization, user or application", async () => {
    const foreign = await otherTenant(t).insert(organizations, { id: 'foreign-org', name: 'foreign-org' });
    const foreignUser = await otherTenant(t).insert(users, { id: 'foreignusr1', username: 'foreign' });
    const foreignApp = await otherTenant(t).insert(applications, {
      id: 'foreign-robot',
      name: 'foreign',
      secret: 'x',
      type: 'MachineToMachine',
    });
    for (const [method, path, body] of [
      ['GET', `/api/organizations/${foreign.id}`, undefined],
      ['PATCH', `/api/organizations/${foreign.id}`, { name: 'mine' }],
      ['DELETE', `/api/organizations/${foreign.id}`, undefined],
      ['GET', `/api/organizations/${foreign.id}/users`, undefined],
      ['POST', `/api/organizations/${foreign.id}/users`, { userIds: ['someone'] }],
      ['PUT', `/api/organizations/${foreign.id}/users`, { userIds: [] }],
      ['GET', `/api/organizations/${foreign.id}/applications`, undefined],
      ['GET', `/api/organizations/${foreign.id}/jit/email-domains`, undefined],
      ['GET', `/api/organizations/${foreign.id}/jit/roles`, undefined],
      ['GET', `/api/users/${foreignUser.id}/organizations`, undefined],
      ['GET', `/api/applications/${foreignApp.id}/organizations`, undefined],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      // The reference's codes: its finder, its update miss, its deletion miss, its user finder (issue 43).
      const code =
        path === `/api/organizations/${foreign.id}` && method !== 'GET'
          ? method === 'PATCH'
            ? 'entity.not_exists'
            : 'entity.not_found'
          : path.startsWith('/api/users/')
            ? 'entity.not_found'
            : 'entity.not_exists_with_id';
      expect(response.json.code, `${method} ${path}`).toBe(code);
    }
    expect((await t.call('/api/organizations?q=foreign-org')).json, 'not listed either').toEqual([]);
    expect((await otherTenant(t).findMany(organizations)).map((org) => org.name)).toEqual(['foreign-org']);
  });

  it('require a token with scope all', async () => {
    const id = String((await createOrganization({ name: 'guarded' })).json.id);
    await expectGuarded(t, [
      { method: 'GET', path: '/api/organizations' },
      { method: 'POST', path: '/api/organizations', body: { name: 'x' } },
      { method: 'GET', path: `/api/organizations/${id}` },
      { method: 'PATCH', path: `/api/organizations/${id}`, body: { name: 'x' } },
      { method: 'DELETE', path: `/api/organizations/${id}` },
      { method: 'GET', path: '/api/users/x/organizations' },
      { method: 'GET', path: '/api/applications/x/organizations' },
    ]);
  });
});
