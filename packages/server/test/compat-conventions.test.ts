import { acceptedHookEvents, reservedHookEvents } from '@gatehouse/schemas';
import { Validator } from '@seriousme/openapi-schema-validator';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaTo30 } from '../src/http/openapi-30.ts';
import { UNPAGINATED_ROW_LIMIT } from '../src/http/route-kit.ts';
import { WebhookWorker } from '../src/services/webhooks-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Requests sent as a client written for the reference management API sends them (issue 24): no page parameters
 * where the reference makes them optional, its webhook event names, its error codes, its `/api/swagger.json`.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = async (path: string, body: unknown) => {
  const response = await t.call(path, { method: 'POST', body });
  expect(response.status, `${path}: ${response.text}`).toBeLessThan(300);
  return response.json as { id: string };
};

describe('optional pagination (the reference returns these lists whole without page parameters)', () => {
  let fixtures: Record<string, string>;

  beforeAll(async () => {
    // 25 rows of each: more than one default page (20).
    const resource = await post('/api/resources', { name: 'Compat API', indicator: 'https://compat.example.com' });
    const role = await post('/api/roles', { name: 'compat-role' });
    const organization = await post('/api/organizations', { name: 'Compat org' });
    const organizationRole = await post('/api/organization-roles', { name: 'compat-org-role' });
    const application = await post('/api/applications', { name: 'Compat M2M', type: 'MachineToMachine' });
    const scopeIds: string[] = [];
    const organizationScopeIds: string[] = [];
    for (let i = 0; i < 25; i++) {
      const n = String(i).padStart(2, '0');
      await post('/api/applications', {
        name: `compat-app-${n}`,
        type: 'Traditional',
        oidcClientMetadata: { redirectUris: ['https://app.example.com/cb'], postLogoutRedirectUris: [] },
      });
      await post('/api/resources', { name: `compat-resource-${n}`, indicator: `https://compat-${n}.example.com` });
      await post('/api/hooks', {
        name: `compat-hook-${n}`,
        events: ['User.Created'],
        config: { url: 'https://hooks.example.com/in' },
      });
      scopeIds.push((await post(`/api/resources/${resource.id}/scopes`, { name: `compat:${n}` })).id);
      organizationScopeIds.push((await post('/api/organization-scopes', { name: `compat-org-scope-${n}` })).id);
      await post(`/api/organizations/${organization.id}/jit/email-domains`, { emailDomain: `compat-${n}.example.com` });
    }
    const linked = [
      [`/api/roles/${role.id}/scopes`, { scopeIds }],
      [`/api/organization-roles/${organizationRole.id}/scopes`, { organizationScopeIds }],
      [`/api/organization-roles/${organizationRole.id}/resource-scopes`, { scopeIds }],
      [`/api/organizations/${organization.id}/applications`, { applicationIds: [application.id] }],
    ] as const;
    for (const [path, body] of linked) expect((await t.call(path, { method: 'POST', body })).status, path).toBe(201);
    fixtures = {
      role: role.id,
      organization: organization.id,
      organizationRole: organizationRole.id,
      application: application.id,
    };
  });

  const optionalLists = () =>
    [
      ['/api/applications', 26],
      ['/api/resources', 26],
      ['/api/hooks', 25],
      [`/api/roles/${fixtures.role}/scopes`, 25],
      ['/api/organization-scopes', 25],
      [`/api/organization-roles/${fixtures.organizationRole}/scopes`, 25],
      [`/api/organization-roles/${fixtures.organizationRole}/resource-scopes`, 25],
      [`/api/organizations/${fixtures.organization}/jit/email-domains`, 25],
      [`/api/applications/${fixtures.application}/organizations`, 1],
    ] as const;

  it('answers every row and no Total-Number when neither page nor page_size is given', async () => {
    for (const [path, atLeast] of optionalLists()) {
      const response = await t.call(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('Total-Number'), `${path}: no Total-Number`).toBeNull();
      expect(response.headers.get('Link'), `${path}: no Link`).toBeNull();
      expect((response.json as unknown[]).length, `${path}: every row`).toBeGreaterThanOrEqual(atLeast);
    }
  });

  it('stays paginated when page or page_size is given', async () => {
    for (const [path, atLeast] of optionalLists()) {
      for (const query of ['page=1', 'page_size=20', 'page=1&page_size=20']) {
        const response = await t.call(`${path}?${query}`);
        expect(response.status, path).toBe(200);
        expect(Number(response.headers.get('Total-Number')), `${path}?${query}`).toBeGreaterThanOrEqual(atLeast);
        expect((response.json as unknown[]).length).toBe(Math.min(20, Number(response.headers.get('Total-Number'))));
      }
    }
  });

  it("keeps the reference's mandatory lists paginated by default (users, roles, logs, organizations)", async () => {
    for (const path of ['/api/users', '/api/roles', '/api/logs', '/api/organizations', '/api/organization-roles']) {
      const response = await t.call(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('Total-Number'), path).not.toBeNull();
      expect((response.json as unknown[]).length, path).toBeLessThanOrEqual(20);
    }
  });

  it(`refuses an unpaginated answer longer than ${UNPAGINATED_ROW_LIMIT} rows with guard.pagination_required`, async () => {
    const organization = await post('/api/organizations', { name: 'Many domains' });
    await t.db.execute(sql`insert into organization_jit_email_domains (tenant_id, organization_id, email_domain)
      select 'default', ${organization.id}, 'd' || g || '.example.com' from generate_series(1, ${UNPAGINATED_ROW_LIMIT + 1}) g`);
    const path = `/api/organizations/${organization.id}/jit/email-domains`;
    const whole = await t.call(path);
    expect(whole.status).toBe(400);
    expect(whole.json).toMatchObject({ code: 'guard.pagination_required', data: { maxRows: UNPAGINATED_ROW_LIMIT } });
    const paged = await t.call(`${path}?page=2&page_size=100`);
    expect(paged.status).toBe(200);
    expect(paged.headers.get('Total-Number')).toBe(String(UNPAGINATED_ROW_LIMIT + 1));
    await t.call(`${path}/d1.example.com`, { method: 'DELETE' });
    const atTheLimit = await t.call(path);
    expect(atTheLimit.status, 'exactly the limit is answered whole').toBe(200);
    expect(atTheLimit.json).toHaveLength(UNPAGINATED_ROW_LIMIT);
  });
});

describe('webhooks as the reference accepts them', () => {
  // The cloud edition's outbound policy (private addresses refused at send time), on the OSS test tenant.
  let cloudPolicy: TestApp;
  beforeAll(async () => {
    cloudPolicy = await createTestApp({ OUTBOUND_PRIVATE_ADDRESSES: 'deny' });
  });
  afterAll(() => cloudPolicy.close());

  it('accepts every event name of the reference at create and update, fired yet or not', async () => {
    const reference = [
      'PostRegister',
      'PostSignIn',
      'PostSignInAdaptiveMfaTriggered',
      'PostResetPassword',
      'User.Created',
      'User.Deleted',
      'User.Data.Updated',
      'User.SuspensionStatus.Updated',
      'Role.Created',
      'Role.Deleted',
      'Role.Data.Updated',
      'Role.Scopes.Updated',
      'Scope.Created',
      'Scope.Deleted',
      'Scope.Data.Updated',
      'Organization.Created',
      'Organization.Deleted',
      'Organization.Data.Updated',
      'Organization.Membership.Updated',
      'OrganizationRole.Created',
      'OrganizationRole.Deleted',
      'OrganizationRole.Data.Updated',
      'OrganizationRole.Scopes.Updated',
      'OrganizationScope.Created',
      'OrganizationScope.Deleted',
      'OrganizationScope.Data.Updated',
      'TrustedDevice.Created',
      'TrustedDevice.Deleted',
      'Identifier.Lockout',
      'Message.RateLimited',
      'Grant.LimitExceeded',
    ];
    expect([...acceptedHookEvents].sort()).toEqual([...reference].sort());
    const created = await t.call('/api/hooks', {
      method: 'POST',
      body: { name: 'Everything', events: reference, config: { url: 'https://hooks.example.com/all' } },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.events).toEqual(reference);
    const patched = await t.call(`/api/hooks/${created.json.id}`, {
      method: 'PATCH',
      body: { events: [...reservedHookEvents] },
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(patched.json.events).toEqual([...reservedHookEvents]);
    expect(
      (
        await t.call('/api/hooks', {
          method: 'POST',
          body: { name: 'x', events: ['No.Such.Event'], config: { url: 'https://hooks.example.com' } },
        })
      ).status,
    ).toBe(400);
  });

  it('creates a hook to a private address, and the refused delivery is a failed attempt in its logs', async () => {
    const created = await cloudPolicy.call('/api/hooks', {
      method: 'POST',
      body: {
        name: 'Internal',
        events: ['User.Created', 'Identifier.Lockout'],
        config: { url: 'http://127.0.0.1:9/internal', retries: 0 },
      },
    });
    expect(created.status, 'the reference validates only the URL format at creation').toBe(201);
    const reservedOnly = await cloudPolicy.call('/api/hooks', {
      method: 'POST',
      body: { name: 'Never fires', events: ['Identifier.Lockout'], config: { url: 'http://10.0.0.1/x', retries: 0 } },
    });
    expect(reservedOnly.status).toBe(201);
    expect((await cloudPolicy.call('/api/users', { method: 'POST', body: { username: 'compat_probe' } })).status).toBe(
      200,
    );
    await new WebhookWorker({
      db: cloudPolicy.db,
      backoffMs: () => 0,
      timeoutMs: 2000,
      outbound: cloudPolicy.config.outbound,
    }).drain();
    const logs = await cloudPolicy.call(`/api/hooks/${created.json.id}/recent-logs`);
    expect(logs.status).toBe(200);
    expect(logs.json).toHaveLength(1);
    expect(logs.json[0]).toMatchObject({ event: 'User.Created', success: false, responseStatus: null });
    expect(logs.json[0].error).toMatch(/private, loopback, link-local or reserved range/);
    const none = await cloudPolicy.call(`/api/hooks/${reservedOnly.json.id}/recent-logs`);
    expect(none.json, 'an event not fired yet never sends anything').toEqual([]);
  });
});

describe('/api/swagger.json (where the reference serves its document)', () => {
  it('is a valid OpenAPI 3.0 document with the same operations as the 3.1 one', async () => {
    const response = await t.call('/api/swagger.json', { auth: false });
    expect(response.status).toBe(200);
    const document = response.json as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\.0\./);
    const validator = new Validator();
    const validation = await validator.validate(document as unknown as Parameters<Validator['validate']>[0]);
    expect(validation.errors ?? [], JSON.stringify(validation.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(validator.version, 'validated against the 3.0 schema').toBe('3.0');

    const full = (await t.call('/api/openapi.json', { auth: false })).json as typeof document;
    const operations = (doc: typeof document) =>
      Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(operations(document).sort()).toEqual(operations(full).sort());

    const text = JSON.stringify(document);
    expect(text, 'no 3.1 type arrays').not.toMatch(/"type":\[/);
    expect(text, 'no const').not.toContain('"const":');
    expect(text, 'nullable fields say so the 3.0 way').toContain('"nullable":true');
    expect(text).not.toMatch(/"exclusiveMinimum":\d/);
  });

  it('writes exclusive bounds as inclusive ones, never the boolean flag validators of later drafts refuse', async () => {
    const document = (await t.call('/api/swagger.json', { auth: false })).json;
    const full = (await t.call('/api/openapi.json', { auth: false })).json;
    const flagged: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') flagged.push(`${path}/${key}`);
        walk(value, `${path}/${key}`);
      }
    };
    walk(document, '');
    expect(flagged, 'no exclusiveMinimum/exclusiveMaximum left').toEqual([]);
    expect(JSON.stringify(full), 'the 3.1 document does have exclusive bounds').toContain('"exclusiveMinimum":0');

    // A secret's `expiresAt` (a positive integer): `minimum: 1`, as the issue asks.
    const body = document.paths['/api/applications/{id}/secrets'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body;
    expect(schema.properties.expiresAt).toMatchObject({ type: 'integer', minimum: 1, nullable: true });
  });
});

describe('the 3.1 → 3.0 conversion of exclusive bounds', () => {
  it('moves integer bounds inside the range and excludes the bound of other numbers', () => {
    expect(schemaTo30({ type: 'integer', exclusiveMinimum: 0 })).toEqual({ type: 'integer', minimum: 1 });
    expect(schemaTo30({ type: 'integer', exclusiveMaximum: 10, maximum: 5 })).toEqual({ type: 'integer', maximum: 5 });
    expect(schemaTo30({ type: 'integer', exclusiveMinimum: 0.5 })).toEqual({ type: 'integer', minimum: 1 });
    expect(schemaTo30({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 })).toEqual({
      type: 'number',
      minimum: 0,
      maximum: 1,
      allOf: [{ not: { enum: [0, 1] } }],
    });
    expect(schemaTo30({ type: 'number', exclusiveMinimum: 0, minimum: 2 })).toEqual({ type: 'number', minimum: 2 });
  });
});

describe('path ids are any text of 1–256 characters (issue 43)', () => {
  it('answers an id longer than Gatehouse generates with 404 on every id route, as an unknown one; over 256 is 400', async () => {
    const long = 'an-id-that-is-longer-than-any-we-generate';
    const paths = [
      `/api/applications/${long}`,
      `/api/applications/${long}/sign-in-experience`,
      `/api/applications/${long}/secrets`,
      `/api/applications/${long}/roles`,
      `/api/roles/${long}`,
      `/api/roles/${long}/scopes`,
      `/api/resources/${long}`,
      `/api/resources/${long}/scopes`,
      `/api/domains/${long}`,
      `/api/logs/${long}`,
      `/api/organizations/${long}`,
      `/api/organization-roles/${long}`,
      `/api/organization-scopes/${long}`,
      `/api/organization-invitations/${long}`,
      `/api/users/${long}`,
      `/api/users/${long}/roles`,
      `/api/users/${long}/organizations`,
    ];
    for (const path of paths) {
      const response = await t.call(path);
      expect(response.status, path).toBe(404);
    }
    for (const path of [
      `/api/roles/${long}/scopes/${long}`,
      `/api/users/${long}/roles/${long}`,
      `/api/users/${long}/mfa-verifications/${long}`,
      `/api/organizations/${long}/users/${long}`,
    ]) {
      const response = await t.call(path, { method: 'DELETE' });
      expect(response.status, `DELETE ${path}`).toBe(404);
    }
    const tooLong = await t.call(`/api/applications/${'x'.repeat(257)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.code).toBe('guard.invalid_input');
  });
});
