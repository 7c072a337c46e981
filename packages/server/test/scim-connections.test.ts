import { createHash } from 'node:crypto';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimConnections, ssoConnectors } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createScimConnection as createConnectionOf } from '../src/services/scim-connections.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';
import { CORE_USER, createScimConnection, expectScimError, scimClient } from './support/scim.ts';

/**
 * The management API of SCIM connections (`/scim-connections`): the token shown once and kept as a hash, rotation and
 * revocation taking effect at once, the lists the console shows, the provisioned marker on users, its refusals, and
 * each tenant's connections, tokens and users its own (OSS and cloud).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('/scim-connections', () => {
  it('creates a connection whose token is answered once, kept as a hash, and works for the SCIM service', async () => {
    const connector = await t.call('/api/sso-connectors', {
      method: 'POST',
      body: { providerName: 'SAML', connectorName: 'Contoso', domains: ['contoso.test'] },
    });
    const created = await t.call('/api/scim-connections', {
      method: 'POST',
      body: { name: 'Contoso Entra ID', ssoConnectorId: connector.json.id },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toEqual({
      tenantId: DEFAULT_TENANT_ID,
      id: expect.stringMatching(/^[0-9a-z]{21}$/),
      name: 'Contoso Entra ID',
      ssoConnectorId: connector.json.id,
      groupMapping: { kind: 'roles' },
      deprovision: 'suspend',
      baseUrl: 'http://localhost:3001/scim/v2',
      hasToken: true,
      tokenCreatedAt: expect.any(Number),
      lastRequestAt: null,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      token: expect.stringMatching(/^scim_[0-9a-z]{40}$/),
    });
    const { token, ...connection } = created.json;
    const [row] = await ownTenant(t).findMany(scimConnections, { where: eq(scimConnections.id, connection.id) });
    expect(row?.tokenHash).toBe(sha256(token));
    const [entry] = await auditEntries(t, connection.id);
    expect(entry?.key).toBe('Admin.ScimConnection.Created');
    expect(JSON.stringify(entry)).not.toContain(token);
    expect(JSON.stringify(entry)).not.toContain(sha256(token));

    expect((await scimClient(t, token)('GET', '/Users')).status).toBe(200);
    const read = await t.call(`/api/scim-connections/${connection.id}`);
    expect(read.json).toEqual({ ...connection, lastRequestAt: expect.any(Number) });
    expect(read.text).not.toContain(token);
    const listed = await t.call(`/api/scim-connections?ssoConnectorId=${connector.json.id}`);
    expect(listed.json).toEqual([read.json]);
    expect((await t.call('/api/scim-connections?ssoConnectorId=nothing')).json).toEqual([]);

    const duplicate = await t.call('/api/scim-connections', {
      method: 'POST',
      body: { name: 'Again', ssoConnectorId: connector.json.id },
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.json).toMatchObject({ code: 'scim_connection.sso_connector_in_use', message: expect.any(String) });
  });

  it('changes the name, group mapping and deprovisioning; refuses an unknown organization or connector', async () => {
    const { connectionId } = await createScimConnection(t);
    const organization = await t.call('/api/organizations', { method: 'POST', body: { name: 'Mapped' } });
    const patched = await t.call(`/api/scim-connections/${connectionId}`, {
      method: 'PATCH',
      body: {
        name: 'Renamed',
        groupMapping: { kind: 'organization', organizationId: organization.json.id },
        deprovision: 'delete',
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({
      name: 'Renamed',
      groupMapping: { kind: 'organization', organizationId: organization.json.id },
      deprovision: 'delete',
    });
    const unknownOrganization = await t.call(`/api/scim-connections/${connectionId}`, {
      method: 'PATCH',
      body: { groupMapping: { kind: 'organization', organizationId: 'no-such-org' } },
    });
    expect(unknownOrganization.status).toBe(404);
    expect(unknownOrganization.json).toMatchObject({
      code: 'entity.relation_foreign_key_not_found',
      data: { ids: ['no-such-org'] },
    });
    const unknownConnector = await t.call('/api/scim-connections', {
      method: 'POST',
      body: { name: 'x', ssoConnectorId: 'no-such-connector' },
    });
    expect(unknownConnector.status).toBe(404);
    expect(unknownConnector.json.code).toBe('entity.relation_foreign_key_not_found');
  });

  it('rotates the token (the old one stops at once), revokes it, and deletes the connection', async () => {
    const { connectionId, token } = await createScimConnection(t);
    const rotated = await t.call(`/api/scim-connections/${connectionId}/token`, { method: 'POST' });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.token).toMatch(/^scim_/);
    expect(rotated.json.token).not.toBe(token);
    expectScimError(await scimClient(t, token)('GET', '/Users'), 401);
    expect((await scimClient(t, rotated.json.token)('GET', '/Users')).status).toBe(200);

    expect((await t.call(`/api/scim-connections/${connectionId}/token`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/scim-connections/${connectionId}`)).json).toMatchObject({
      hasToken: false,
      tokenCreatedAt: null,
    });
    expectScimError(await scimClient(t, rotated.json.token)('GET', '/Users'), 401);
    const keys = (await auditEntries(t, connectionId)).map((entry) => entry.key);
    expect(keys).toEqual([
      'Admin.ScimConnection.TokenRevoked',
      'Admin.ScimConnection.TokenRotated',
      'Admin.ScimConnection.Created',
    ]);

    const fresh = await t.call(`/api/scim-connections/${connectionId}/token`, { method: 'POST' });
    expect((await t.call(`/api/scim-connections/${connectionId}`, { method: 'DELETE' })).status).toBe(204);
    expectScimError(await scimClient(t, fresh.json.token)('GET', '/Users'), 401);
    expect((await t.call(`/api/scim-connections/${connectionId}`)).status).toBe(404);
  });

  it('lists the users and groups a connection provisioned, and marks the users', async () => {
    const { connectionId, token } = await createScimConnection(t);
    const scim = scimClient(t, token);
    const user = await scim('POST', '/Users', {
      schemas: [CORE_USER],
      userName: 'linus@kernel.test',
      externalId: 'ext-1',
      emails: [{ value: 'linus@kernel.test' }],
    });
    await scim('POST', '/Groups', { displayName: 'Maintainers', members: [{ value: user.json.id }] });
    const users = await t.call(`/api/scim-connections/${connectionId}/users?search=kernel`);
    expect(users.status).toBe(200);
    expect(users.headers.get('Total-Number')).toBe('1');
    expect(users.json).toEqual([
      {
        userName: 'linus@kernel.test',
        externalId: 'ext-1',
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
        user: expect.objectContaining({ id: user.json.id, primaryEmail: 'linus@kernel.test' }),
      },
    ]);
    const groups = await t.call(`/api/scim-connections/${connectionId}/groups`);
    expect(groups.json).toEqual([expect.objectContaining({ displayName: 'Maintainers', memberCount: 1 })]);
    const marker = await t.call(`/api/users/${user.json.id}/scim`);
    expect(marker.json).toEqual({
      provisioning: {
        connectionId,
        connectionName: expect.any(String),
        ssoConnectorId: expect.any(String),
        userName: 'linus@kernel.test',
        externalId: 'ext-1',
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      },
    });
    const plain = await t.call('/api/users', { method: 'POST', body: { username: 'not_provisioned' } });
    expect((await t.call(`/api/users/${plain.json.id}/scim`)).json).toEqual({ provisioning: null });
    expect((await t.call('/api/users/nobody/scim')).status).toBe(404);
  });

  it('refuses bad input with 400 {code, message}', async () => {
    expectInvalid(await t.call('/api/scim-connections', { method: 'POST', body: { name: '' } }), 'name');
    expectInvalid(
      await t.call('/api/scim-connections', {
        method: 'POST',
        body: { name: 'x', ssoConnectorId: 'a', groupMapping: { kind: 'organization' } },
      }),
    );
    expectInvalid(
      await t.call('/api/scim-connections', {
        method: 'POST',
        body: { name: 'x', ssoConnectorId: 'a', deprovision: 'shred' },
      }),
      'deprovision',
    );
    const { connectionId } = await createScimConnection(t);
    expectInvalid(await t.call(`/api/scim-connections/${connectionId}`, { method: 'PATCH', body: {} }));
    const page = await t.call(`/api/scim-connections/${connectionId}/users?page=0`);
    expect(page.status).toBe(400);
    expect(page.json).toMatchObject({ code: 'guard.invalid_pagination', message: expect.any(String) });
  });

  it('answers 401 without a token, 403 without scope all, 404 for unknown ids', async () => {
    await expectGuarded(t, [
      { method: 'GET', path: '/api/scim-connections' },
      { method: 'POST', path: '/api/scim-connections', body: { name: 'x', ssoConnectorId: 'y' } },
      { method: 'GET', path: '/api/scim-connections/x' },
      { method: 'PATCH', path: '/api/scim-connections/x', body: { name: 'y' } },
      { method: 'DELETE', path: '/api/scim-connections/x' },
      { method: 'POST', path: '/api/scim-connections/x/token' },
      { method: 'DELETE', path: '/api/scim-connections/x/token' },
      { method: 'GET', path: '/api/scim-connections/x/requests' },
      { method: 'GET', path: '/api/scim-connections/x/users' },
      { method: 'GET', path: '/api/scim-connections/x/groups' },
      { method: 'GET', path: '/api/users/x/scim' },
    ]);
    const missing: [string, string, unknown?][] = [
      ['GET', '/api/scim-connections/nothing'],
      ['PATCH', '/api/scim-connections/nothing', { name: 'y' }],
      ['DELETE', '/api/scim-connections/nothing'],
      ['POST', '/api/scim-connections/nothing/token'],
      ['DELETE', '/api/scim-connections/nothing/token'],
      ['GET', '/api/scim-connections/nothing/requests'],
      ['GET', '/api/scim-connections/nothing/users'],
      ['GET', '/api/scim-connections/nothing/groups'],
    ];
    for (const [method, path, body] of missing) {
      const answer = await t.call(path, { method, body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.json).toMatchObject({ code: expect.stringMatching(/^entity\./), message: expect.any(String) });
    }
  });

  it("never shows or touches another tenant's connection", async () => {
    const admin = otherTenant(t);
    const connector = await admin.insert(ssoConnectors, {
      id: 'adminsso',
      providerName: 'OIDC',
      connectorName: 'Admin IdP',
      config: {},
    });
    const foreign = await createConnectionOf(
      { tenant: admin, actor: { type: 'system', id: 'test' } },
      { name: 'Foreign', ssoConnectorId: connector.id },
      'http://localhost:3001/t/admin/scim/v2',
    );
    expect((await t.call(`/api/scim-connections/${foreign.id}`)).status).toBe(404);
    expect((await t.call(`/api/scim-connections/${foreign.id}/token`, { method: 'POST' })).status).toBe(404);
    expect((await t.call(`/api/scim-connections/${foreign.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await t.call('/api/scim-connections')).json.map((row: { id: string }) => row.id)).not.toContain(foreign.id);
    expect(
      (await t.call('/api/scim-connections', { method: 'POST', body: { name: 'x', ssoConnectorId: connector.id } }))
        .status,
    ).toBe(404);
    // The admin tenant's token is no token at the default tenant's SCIM service.
    expectScimError(await scimClient(t, foreign.token)('GET', '/Users'), 401);
    expect(await admin.findOne(scimConnections, eq(scimConnections.id, foreign.id))).toBeTruthy();
  });
});

describe('the SCIM service per tenant (cloud)', () => {
  let cloud: TestApp;
  beforeAll(async () => {
    cloud = await createTestApp({ EDITION: 'cloud' });
  });
  afterAll(() => cloud.close());

  async function connectionIn(tenantId: string) {
    const tenant = new TenantDb(cloud.db, tenantId);
    const connector = await tenant.insert(ssoConnectors, {
      id: `sso${tenantId}`.slice(0, 21),
      providerName: 'OIDC',
      connectorName: `IdP of ${tenantId}`,
      config: {},
    });
    return createConnectionOf(
      { tenant, actor: { type: 'system', id: 'test' } },
      { name: tenantId, ssoConnectorId: connector.id },
      `http://localhost:3001/t/${tenantId}/scim/v2`,
    );
  }

  it("serves the default tenant at /scim/v2 and the others at /t/{id}/scim/v2, where another tenant's token reads nothing", async () => {
    const mine = await connectionIn(DEFAULT_TENANT_ID);
    const theirs = await connectionIn(ADMIN_TENANT_ID);
    const mineScim = scimClient(cloud, mine.token, '/scim/v2');
    const user = await mineScim('POST', '/Users', {
      userName: 'cloud@tenant.test',
      emails: [{ value: 'cloud@tenant.test' }],
    });
    expect(user.status, user.text).toBe(201);
    expect(user.json.meta.location).toBe(`http://localhost:3001/scim/v2/Users/${user.json.id}`);

    const theirsScim = scimClient(cloud, theirs.token, `/t/${ADMIN_TENANT_ID}/scim/v2`);
    const theirUser = await theirsScim('POST', '/Users', {
      userName: 'admin@tenant.test',
      emails: [{ value: 'admin@tenant.test' }],
    });
    expect(theirUser.json.meta.location).toBe(
      `http://localhost:3001/t/${ADMIN_TENANT_ID}/scim/v2/Users/${theirUser.json.id}`,
    );
    expectScimError(await scimClient(cloud, theirs.token, '/scim/v2')('GET', '/Users'), 401);
    expectScimError(await scimClient(cloud, mine.token, `/t/${ADMIN_TENANT_ID}/scim/v2`)('GET', '/Users'), 401);
    expectScimError(await theirsScim('GET', `/Users/${user.json.id}`), 404);
    expect((await theirsScim('GET', '/Users')).json.Resources.map((found: { id: string }) => found.id)).toEqual([
      theirUser.json.id,
    ]);
    expectScimError(await scimClient(cloud, mine.token, '/t/no-such-tenant/scim/v2')('GET', '/Users'), 404);
  });
});
