import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADMIN_TENANT_ID,
  CLOUD_API_RESOURCE,
  DEFAULT_TENANT_ID,
  ORGANIZATIONS_SCOPE,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issuerUrl, ME_RESOURCE, managementResource } from '../src/auth/issuers.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { logs, organizations, roles, signingKeys, tenantSubscriptions, tenants, users } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createFirstConsoleAdmin } from '../src/services/console-admin.ts';
import { EmailService } from '../src/services/email.ts';
import { MailWorker } from '../src/services/mail-worker.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD } from '../src/services/passwords.ts';
import { LocalAssetStorage } from '../src/services/user-assets.ts';
import { call as callApi } from './support/cloud-accounts.ts';
import { deliveryOf } from './support/delivery.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { consoleClient } from './support/oidc-flow.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';

/**
 * The cloud API over HTTP with real tokens: console accounts sign in at the admin issuer for the cloud
 * API, create tenants, invite each other (the email goes through SMTP), and reach each tenant's
 * management API with organization tokens of `t-{tenant}`, checked against the database per request.
 */

let dataDir: string;
let base: string;
let db: Database;
let close: () => Promise<void>;
let sink: SmtpSink;
let email: EmailService;
let worker: MailWorker;

type Account = { id: string; username: string; password: string; email: string; cloud: string; refresh: string };
const accounts: Record<'alice' | 'bob' | 'carol' | 'root', Account> = {
  alice: {
    id: 'aliceuser001',
    username: 'alice',
    password: 'Alice-Pass-4242',
    email: 'Alice@Example.com',
    cloud: '',
    refresh: '',
  },
  bob: {
    id: 'bobuser00001',
    username: 'bob',
    password: 'Bob-Pass-424242',
    email: 'bob@example.com',
    cloud: '',
    refresh: '',
  },
  carol: {
    id: 'caroluser001',
    username: 'carol',
    password: 'Carol-Pass-4242',
    email: 'carol@example.com',
    cloud: '',
    refresh: '',
  },
  root: { id: '', username: 'root', password: 'Root-Pass-424242', email: '', cloud: '', refresh: '' },
};

type TokenResponse = { access_token: string; refresh_token?: string; scope?: string; error?: string };

/** The console's sign-in: code + PKCE at the admin issuer, redeemed for the cloud API. */
async function signIn(account: Account): Promise<void> {
  const flow = consoleClient(base);
  const jar = new CookieJar();
  const { verifier, signInPage } = await flow.startAuthorization(jar, {
    resources: [CLOUD_API_RESOURCE, ME_RESOURCE, managementResource(DEFAULT_TENANT_ID)],
    scope: `openid offline_access ${ORGANIZATIONS_SCOPE} all create:tenant manage:tenant:self`,
  });
  const callback = await flow.followToCallback(
    jar,
    await flow.submit(jar, signInPage, account.username, account.password),
  );
  const response = await flow.redeemCode(callback.searchParams.get('code') ?? '', verifier, {
    resource: CLOUD_API_RESOURCE,
  });
  const body = (await response.json()) as TokenResponse;
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.scope?.split(' ')).toEqual(expect.arrayContaining(['create:tenant', 'manage:tenant:self']));
  account.cloud = body.access_token;
  account.refresh = body.refresh_token ?? '';
}

function adminToken(fields: Record<string, string>) {
  return fetch(`${issuerUrl(base, ADMIN_TENANT_ID)}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'admin-console', ...fields }),
  });
}

/** An organization token of `t-{tenantId}` (the console's per-tenant token). */
async function tenantToken(
  account: Account,
  tenantId: string,
): Promise<{ status: number; token: string; scope: string }> {
  const response = await adminToken({
    grant_type: 'refresh_token',
    refresh_token: account.refresh,
    organization_id: tenantOrganizationId(tenantId),
  });
  const body = (await response.json()) as TokenResponse;
  return { status: response.status, token: body.access_token, scope: body.scope ?? '' };
}

// biome-ignore lint/suspicious/noExplicitAny: test responses are read loosely and checked by the expectations.
type Json = any;
const call = (path: string, token: string | undefined, init: { method?: string; body?: unknown } = {}) =>
  callApi(base, path, token, init);
const cloud = (account: Account, path: string, init: { method?: string; body?: unknown } = {}) =>
  call(`/api${path}`, account.cloud, init);

beforeAll(async () => {
  sink = await startSmtpSink();
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-cloud-api-'));
  // The server's own mail (the 'me' API's email codes) goes to the sink too.
  const server = await startTestHttpServer({
    EDITION: 'cloud',
    DATA_DIR: dataDir,
    SMTP_URL: sink.url,
    EMAIL_FROM: 'Cloud <cloud@example.test>',
  });
  ({ base, close } = server);
  db = server.database.db;
  const admin = new TenantDb(db, ADMIN_TENANT_ID);
  for (const account of [accounts.alice, accounts.bob, accounts.carol]) {
    await admin.insert(users, {
      id: account.id,
      username: account.username,
      primaryEmail: account.email,
      // Bob's address was typed at sign-up and is not proven yet: he proves it before his invitation opens.
      primaryEmailVerified: account !== accounts.bob,
      passwordEncrypted: await hashPassword(account.password),
      passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD,
    });
  }
  // The first console admin of a cloud installation (ADMIN_USERNAME at start-up).
  await createFirstConsoleAdmin(new TenantDbs(db), {
    username: accounts.root.username,
    password: accounts.root.password,
  });
  accounts.root.id = (await admin.findOne(users, eq(users.username, 'root')))?.id ?? '';
  for (const account of Object.values(accounts)) await signIn(account);
  email = new EmailService(loadConfig({ SMTP_URL: sink.url, EMAIL_FROM: 'Cloud <cloud@example.test>' }).smtp);
  worker = new MailWorker({ db, delivery: deliveryOf(email), backoffMs: () => 0 });
}, 60_000);
afterAll(async () => {
  email?.close();
  await sink?.close();
  await close?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('cloud API access', () => {
  it('answers 401 without a cloud token: none, a me token, a management token', async () => {
    const none = await call('/api/tenants', undefined);
    expect(none.status).toBe(401);
    expect(none.json.code).toBe('auth.unauthorized');
    const me = (await (
      await adminToken({ grant_type: 'refresh_token', refresh_token: accounts.root.refresh, resource: ME_RESOURCE })
    ).json()) as TokenResponse;
    accounts.root.refresh = me.refresh_token ?? accounts.root.refresh;
    expect((await call('/api/me', me.access_token)).status).toBe(200);
    expect((await call('/api/tenants', me.access_token)).status).toBe(401);
    const management = (await (
      await adminToken({
        grant_type: 'refresh_token',
        refresh_token: accounts.root.refresh,
        resource: managementResource(DEFAULT_TENANT_ID),
      })
    ).json()) as TokenResponse;
    accounts.root.refresh = management.refresh_token ?? accounts.root.refresh;
    expect((await call('/m/default/api/roles', management.access_token)).status).toBe(200);
    expect((await call('/api/tenants', management.access_token)).status).toBe(401);
    // The cloud token does not open a management API either.
    expect((await call('/m/default/api/roles', accounts.root.cloud)).status).toBe(401);
  });

  it('publishes the cloud API as the console resource and tenant endpoints without a token', async () => {
    expect((await call('/api/.well-known/console', undefined)).json.resource).toBe(CLOUD_API_RESOURCE);
    expect((await call('/api/.well-known/endpoints/default', undefined)).json).toEqual({ user: base });
    expect((await call('/api/.well-known/endpoints/admin', undefined)).json).toEqual({ user: `${base}/t/admin` });
    const unknown = await call('/api/.well-known/endpoints/nosuchtenant', undefined);
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('entity.not_exists_with_id');
  });

  it('gives the first console admin the default tenant, with onboarding done', async () => {
    const list = await cloud(accounts.root, '/tenants');
    expect(list.status).toBe(200);
    expect(list.json).toEqual([
      expect.objectContaining({ id: 'default', role: 'admin', organizationId: 't-default', planId: 'Development' }),
    ]);
    const me = await new TenantDb(db, ADMIN_TENANT_ID).findOne(users, eq(users.id, accounts.root.id));
    expect(me?.customData).toEqual({ onboarding: { isOnboardingDone: true }, defaultTenantId: 'default' });
    // Its organization token opens the default tenant's management API (what the cloud e2e suites use).
    const { token, scope } = await tenantToken(accounts.root, DEFAULT_TENANT_ID);
    expect(scope.split(' ').sort()).toContain('manage:tenant');
    expect((await call('/m/default/api/roles', token)).status).toBe(200);
    // The built-in tenants cannot be deleted.
    const reserved = await cloud(accounts.root, '/tenants/default', { method: 'DELETE' });
    expect(reserved.status).toBe(422);
    expect(reserved.json.code).toBe('tenant.reserved');
  });
});

describe('tenants, members and invitations', () => {
  const ids = { x: '', y: '', invitation: '' };

  it('creates tenants for the signed-in user and validates bodies', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'a'.repeat(129) },
      { name: 'x', regionName: 'MARS' },
      { name: 'x', tag: 'staging' },
      { name: 'x', extra: true },
    ]) {
      const response = await cloud(accounts.alice, '/tenants', { method: 'POST', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json).toMatchObject({ code: 'guard.invalid_input', message: expect.any(String) });
    }
    const x = await cloud(accounts.alice, '/tenants', { method: 'POST', body: { name: 'Xanadu', regionName: 'US' } });
    expect(x.status).toBe(201);
    expect(x.json).toMatchObject({
      name: 'Xanadu',
      regionName: 'US',
      tag: 'development',
      role: 'admin',
      planId: 'Development',
      isSuspended: false,
      indicator: managementResource(x.json.id),
      organizationId: tenantOrganizationId(x.json.id),
    });
    ids.x = x.json.id;
    const y = await cloud(accounts.alice, '/tenants', { method: 'POST', body: { name: 'Yonder', tag: 'production' } });
    expect(y.json).toMatchObject({ planId: 'Free', tag: 'production', regionName: 'EU' });
    ids.y = y.json.id;
    expect((await cloud(accounts.alice, '/tenants')).json.map((tenant: Json) => tenant.id)).toEqual([ids.x, ids.y]);
    expect((await cloud(accounts.bob, '/tenants')).json).toEqual([]);
    // What every tenant starts with, and the audit entry in the admin tenant.
    expect(await new TenantDb(db, ids.x).count(roles)).toBe(1);
    expect(await new TenantDb(db, ids.x).count(signingKeys)).toBe(1);
    const audit = await new TenantDb(db, ADMIN_TENANT_ID).findMany(logs, {
      where: eq(logs.key, 'Admin.Tenant.Created'),
    });
    expect(audit.map((row) => (row.payload as Json).entity.id)).toEqual(expect.arrayContaining([ids.x, ids.y]));
    expect((await call(`/api/.well-known/endpoints/${ids.x}`, undefined)).json).toEqual({ user: `${base}/t/${ids.x}` });
  });

  it("answers 404 for another user's or an unknown tenant", async () => {
    for (const id of [ids.x, 'nosuchtenant', 'NOT-AN-ID']) {
      for (const [method, path, body] of [
        ['GET', `/tenants/${id}/members`, undefined],
        ['GET', `/tenants/${id}/invitations`, undefined],
        ['PATCH', `/tenants/${id}`, { name: 'Mine' }],
        ['DELETE', `/tenants/${id}`, undefined],
        ['GET', `/tenants/${id}/members/${accounts.bob.id}/scopes`, undefined],
        ['POST', `/tenants/${id}/invitations`, { invitee: 'bob@example.com', roleName: 'collaborator' }],
      ] as const) {
        const response = await cloud(accounts.bob, path, { method, body });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.json.code).toBe('entity.not_exists_with_id');
      }
    }
    // No organization token for a tenant one is not a member of.
    expect((await tenantToken(accounts.bob, ids.x)).status).toBe(400);
  });

  it('invites by email over SMTP; only the invited account accepts', async () => {
    const path = `/tenants/${ids.x}/invitations`;
    for (const body of [
      { invitee: 'not-an-email', roleName: 'collaborator' },
      { invitee: ['bob@example.com', 'nope'], roleName: 'collaborator' },
      { invitee: 'bob@example.com', roleName: 'owner' },
      { invitee: [], roleName: 'collaborator' },
    ]) {
      const response = await cloud(accounts.alice, path, { method: 'POST', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
    }
    const member = await cloud(accounts.alice, path, {
      method: 'POST',
      body: { invitee: 'ALICE@example.com', roleName: 'collaborator' },
    });
    expect(member.status).toBe(422);
    expect(member.json.code).toBe('organization_invitation.already_member');

    const sent = await cloud(accounts.alice, path, {
      method: 'POST',
      body: { invitee: ['bob@example.com'], roleName: 'collaborator' },
    });
    expect(sent.status).toBe(201);
    expect(sent.json).toEqual([
      expect.objectContaining({
        invitee: 'bob@example.com',
        status: 'Pending',
        role: 'collaborator',
        inviterId: accounts.alice.id,
      }),
    ]);
    ids.invitation = sent.json[0].id;
    const week = sent.json[0].expiresAt - sent.json[0].createdAt;
    expect(Math.abs(week - 7 * 24 * 3600 * 1000)).toBeLessThan(5000);
    const again = await cloud(accounts.alice, path, {
      method: 'POST',
      body: { invitee: 'BOB@example.com', roleName: 'admin' },
    });
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('organization_invitation.pending_exists');
    expect((await cloud(accounts.alice, path)).json.map((row: Json) => row.id)).toEqual([ids.invitation]);

    await worker.drain();
    const message = sink.received.find((mail) => mail.envelopeTo.includes('bob@example.com'));
    expect(message?.subject).toContain('Xanadu');
    expect(message?.text).toContain(`${base}/console/accept/${ids.invitation}`);

    // Resend: a second email with the same link.
    expect((await cloud(accounts.alice, `${path}/${ids.invitation}/message`, { method: 'POST' })).status).toBe(204);
    await worker.drain();
    expect(sink.received.filter((mail) => mail.envelopeTo.includes('bob@example.com'))).toHaveLength(2);

    // The invitee's side.
    const other = await cloud(accounts.carol, `/invitations/${ids.invitation}`);
    expect(other.status).toBe(403);
    expect(other.json.code).toBe('organization_invitation.email_mismatch');
    const stolen = await cloud(accounts.carol, `/invitations/${ids.invitation}/status`, {
      method: 'PATCH',
      body: { status: 'Accepted' },
    });
    expect(stolen.status).toBe(403);
    expect((await cloud(accounts.carol, '/invitations')).json).toEqual([]);
    expect((await cloud(accounts.bob, '/invitations/nosuchinvitation')).status).toBe(404);

    // Issue 39 item 6: Bob's address is his by his word only. Until he proves it, the invitation to it does not open.
    expect((await cloud(accounts.bob, '/invitations')).json, 'nothing listed').toEqual([]);
    const unproven = await cloud(accounts.bob, `/invitations/${ids.invitation}`);
    expect(unproven.status).toBe(403);
    expect(unproven.json).toMatchObject({
      code: 'organization_invitation.email_not_verified',
      data: { email: 'bob@example.com' },
    });
    const early = await cloud(accounts.bob, `/invitations/${ids.invitation}/status`, {
      method: 'PATCH',
      body: { status: 'Accepted' },
    });
    expect(early.status).toBe(403);
    expect(early.json.code).toBe('organization_invitation.email_not_verified');
    // He asks for a code (the 'me' API), gets it by email, and proves the address.
    const meToken = async () => {
      const response = await adminToken({
        grant_type: 'refresh_token',
        refresh_token: accounts.bob.refresh,
        resource: ME_RESOURCE,
      });
      const body = (await response.json()) as TokenResponse;
      accounts.bob.refresh = body.refresh_token ?? accounts.bob.refresh;
      return body.access_token;
    };
    const bobMe = await meToken();
    expect((await call('/api/me', bobMe)).json).toMatchObject({ primaryEmailVerified: false });
    const mailsBefore = sink.received.length;
    expect((await call('/api/me/email/verification-code', bobMe, { method: 'POST' })).status).toBe(204);
    await vi.waitFor(() => expect(sink.received.length).toBe(mailsBefore + 1));
    const codeMail = sink.received.at(-1);
    expect(codeMail?.envelopeTo).toEqual(['bob@example.com']);
    expect(codeMail?.text).toContain('confirm your email address');
    const code = /\b(\d{6})\b/.exec(codeMail?.text ?? '')?.[1] ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await call('/api/me/email/verify', bobMe, { method: 'POST', body: { code: wrong } });
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('verification_code.code_mismatch');
    const malformed = await call('/api/me/email/verify', bobMe, { method: 'POST', body: { code: '12' } });
    expect(malformed.status).toBe(400);
    const proven = await call('/api/me/email/verify', bobMe, { method: 'POST', body: { code } });
    expect(proven.status, JSON.stringify(proven.json)).toBe(200);
    expect(proven.json).toMatchObject({ primaryEmail: 'bob@example.com', primaryEmailVerified: true });
    expect((await call('/api/me/email/verify', bobMe, { method: 'POST', body: { code } })).status, 'spent').toBe(422);
    expect((await call('/api/me/email/verification-code', bobMe, { method: 'POST' })).status).toBe(204);
    expect(sink.received.length, 'a proven address gets no more codes').toBe(mailsBefore + 1);

    expect((await cloud(accounts.bob, '/invitations')).json).toEqual([
      expect.objectContaining({
        id: ids.invitation,
        tenantId: ids.x,
        organizationId: tenantOrganizationId(ids.x),
        tenantName: 'Xanadu',
        tenantTag: 'development',
        status: 'Pending',
        role: 'collaborator',
      }),
    ]);
    const badStatus = await cloud(accounts.bob, `/invitations/${ids.invitation}/status`, {
      method: 'PATCH',
      body: { status: 'Revoked' },
    });
    expect(badStatus.status).toBe(400);
    const accepted = await cloud(accounts.bob, `/invitations/${ids.invitation}/status`, {
      method: 'PATCH',
      body: { status: 'Accepted' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: 'Accepted', tenantId: ids.x });
    const twice = await cloud(accounts.bob, `/invitations/${ids.invitation}/status`, {
      method: 'PATCH',
      body: { status: 'Accepted' },
    });
    expect(twice.status).toBe(422);
    expect(twice.json.code).toBe('organization_invitation.invalid_status');
    expect((await cloud(accounts.bob, '/tenants')).json).toEqual([
      expect.objectContaining({ id: ids.x, role: 'collaborator' }),
    ]);
  });

  it('revokes a pending invitation', async () => {
    const path = `/tenants/${ids.x}/invitations`;
    const sent = await cloud(accounts.alice, path, {
      method: 'POST',
      body: { invitee: 'carol@example.com', roleName: 'admin' },
    });
    const id = sent.json[0].id;
    expect((await cloud(accounts.alice, `${path}/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await cloud(accounts.alice, path)).json.find((row: Json) => row.id === id).status).toBe('Revoked');
    const late = await cloud(accounts.carol, `/invitations/${id}/status`, {
      method: 'PATCH',
      body: { status: 'Accepted' },
    });
    expect(late.status).toBe(422);
    expect(late.json.code).toBe('organization_invitation.invalid_status');
    expect((await cloud(accounts.alice, `${path}/${id}`, { method: 'DELETE' })).status).toBe(422);
    expect((await cloud(accounts.alice, `${path}/nosuchinvitation`, { method: 'DELETE' })).status).toBe(404);
  });

  it('lets a collaborator read members and their own scopes but not administer', async () => {
    const members = await cloud(accounts.bob, `/tenants/${ids.x}/members`);
    expect(members.status).toBe(200);
    expect(members.json.map((row: Json) => [row.id, row.role]).sort()).toEqual(
      [
        [accounts.alice.id, 'admin'],
        [accounts.bob.id, 'collaborator'],
      ].sort(),
    );
    const own = await cloud(accounts.bob, `/tenants/${ids.x}/members/${accounts.bob.id}/scopes`);
    expect(own.json.map((row: Json) => row.name).sort()).toEqual([
      'delete:data',
      'read:data',
      'read:member',
      'write:data',
    ]);
    const admins = await cloud(accounts.bob, `/tenants/${ids.x}/members/${accounts.alice.id}/scopes`);
    expect(admins.json).toHaveLength(8);
    expect((await cloud(accounts.bob, `/tenants/${ids.x}/members/${accounts.carol.id}/scopes`)).status).toBe(404);
    for (const [method, path, body] of [
      ['GET', `/tenants/${ids.x}/invitations`, undefined],
      ['POST', `/tenants/${ids.x}/invitations`, { invitee: 'carol@example.com', roleName: 'collaborator' }],
      ['PUT', `/tenants/${ids.x}/members/${accounts.alice.id}/roles`, { roleName: 'collaborator' }],
      ['PUT', `/tenants/${ids.x}/members/${accounts.bob.id}/roles`, { roleName: 'admin' }],
      ['DELETE', `/tenants/${ids.x}/members/${accounts.alice.id}`, undefined],
      ['PATCH', `/tenants/${ids.x}`, { name: 'Mine' }],
      ['DELETE', `/tenants/${ids.x}`, undefined],
    ] as const) {
      const response = await cloud(accounts.bob, path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.json.code).toBe('auth.forbidden');
    }
  });

  it("reaches a tenant's management API with organization tokens, per tenant and per request", async () => {
    const bob = await tenantToken(accounts.bob, ids.x);
    expect(bob.status).toBe(200);
    expect(bob.scope.split(' ').sort()).toEqual(['delete:data', 'read:data', 'read:member', 'write:data']);
    expect((await call(`/m/${ids.x}/api/roles`, bob.token)).status).toBe(200);
    const created = await call(`/m/${ids.x}/api/roles`, bob.token, {
      method: 'POST',
      body: { name: 'editor', description: 'Edits', type: 'User' },
    });
    expect(created.status).toBe(200);
    // The actor of the write is the user.
    const audit = await new TenantDb(db, ids.x).findMany(logs, { where: eq(logs.key, 'Admin.Role.Created') });
    expect(audit.map((row) => row.userId)).toEqual([accounts.bob.id]);
    // Bob's token for X opens neither Y nor the default tenant.
    expect((await call(`/m/${ids.y}/api/roles`, bob.token)).status).toBe(401);
    expect((await call('/m/default/api/roles', bob.token)).status).toBe(401);
    // Alice's token for Y cannot read X; hers for X can.
    const aliceY = await tenantToken(accounts.alice, ids.y);
    expect((await call(`/m/${ids.x}/api/roles`, aliceY.token)).status).toBe(401);
    expect((await call(`/m/${ids.y}/api/roles`, aliceY.token)).json.map((role: Json) => role.name)).not.toContain(
      'editor',
    );
    // A token narrowed to reading cannot write.
    const readOnly = await adminToken({
      grant_type: 'refresh_token',
      refresh_token: accounts.bob.refresh,
      organization_id: tenantOrganizationId(ids.x),
      scope: 'read:data',
    });
    const narrow = ((await readOnly.json()) as TokenResponse).access_token;
    expect((await call(`/m/${ids.x}/api/roles`, narrow)).status).toBe(200);
    const refused = await call(`/m/${ids.x}/api/roles`, narrow, { method: 'POST', body: { name: 'x', type: 'User' } });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('auth.forbidden');

    // The admin-console config of the tenant, through the same tokens.
    const alice = await tenantToken(accounts.alice, ids.x);
    const defaults = { signInExperienceCustomized: false, organizationCreated: false };
    expect((await call(`/m/${ids.x}/api/configs/admin-console`, alice.token)).json).toEqual(defaults);
    const patched = await call(`/m/${ids.x}/api/configs/admin-console`, alice.token, {
      method: 'PATCH',
      body: { developmentTenantMigrationNotification: { readAt: 1700000000000 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toEqual({ ...defaults, developmentTenantMigrationNotification: { readAt: 1700000000000 } });
    expect((await call(`/m/${ids.y}/api/configs/admin-console`, aliceY.token)).json).toEqual(defaults);
    const bad = await call(`/m/${ids.x}/api/configs/admin-console`, alice.token, {
      method: 'PATCH',
      body: { developmentTenantMigrationNotification: { readAt: -1 } },
    });
    expect(bad.status).toBe(400);
  });

  it('keeps one admin: no demoting or removing the last one; a role change and a removal count at once', async () => {
    const members = `/tenants/${ids.x}/members`;
    const demote = await cloud(accounts.alice, `${members}/${accounts.alice.id}/roles`, {
      method: 'PUT',
      body: { roleName: 'collaborator' },
    });
    expect(demote.status).toBe(422);
    expect(demote.json.code).toBe('tenant.last_admin');
    const leave = await cloud(accounts.alice, `${members}/${accounts.alice.id}`, { method: 'DELETE' });
    expect(leave.status).toBe(422);
    expect(leave.json.code).toBe('tenant.last_admin');
    const badRole = await cloud(accounts.alice, `${members}/${accounts.bob.id}/roles`, {
      method: 'PUT',
      body: { roleName: 'owner' },
    });
    expect(badRole.status).toBe(400);
    expect(
      (
        await cloud(accounts.alice, `${members}/${accounts.carol.id}/roles`, {
          method: 'PUT',
          body: { roleName: 'admin' },
        })
      ).status,
    ).toBe(404);

    const bobToken = (await tenantToken(accounts.bob, ids.x)).token;
    const promoted = await cloud(accounts.alice, `${members}/${accounts.bob.id}/roles`, {
      method: 'PUT',
      body: { roleName: 'admin' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.json).toMatchObject({ id: accounts.bob.id, role: 'admin', primaryEmail: 'bob@example.com' });
    // Two admins demoting each other at once: one wins, one admin always remains.
    const race = await Promise.all([
      cloud(accounts.alice, `${members}/${accounts.bob.id}/roles`, {
        method: 'PUT',
        body: { roleName: 'collaborator' },
      }),
      cloud(accounts.bob, `${members}/${accounts.alice.id}/roles`, {
        method: 'PUT',
        body: { roleName: 'collaborator' },
      }),
    ]);
    // The loser was either already demoted when its permission was read (403) or lost inside the transaction (422).
    const loser = race.find((response) => response.status !== 200);
    expect(race.filter((response) => response.status === 200)).toHaveLength(1);
    expect([
      [403, 'auth.forbidden'],
      [422, 'tenant.last_admin'],
    ]).toContainEqual([loser?.status, loser?.json.code]);
    const roles = (await cloud(accounts.alice, members)).json;
    expect(roles.filter((row: Json) => row.role === 'admin')).toHaveLength(1);
    // Put alice back as the only admin for what follows.
    const admin = roles.find((row: Json) => row.role === 'admin');
    if (admin.id === accounts.bob.id) {
      const promote = { method: 'PUT', body: { roleName: 'admin' } };
      expect((await cloud(accounts.bob, `${members}/${accounts.alice.id}/roles`, promote)).status).toBe(200);
      const demote = { method: 'PUT', body: { roleName: 'collaborator' } };
      expect((await cloud(accounts.alice, `${members}/${accounts.bob.id}/roles`, demote)).status).toBe(200);
    }

    // Removal takes effect on the next request with a token issued before it.
    expect((await call(`/m/${ids.x}/api/roles`, bobToken)).status).toBe(200);
    expect((await cloud(accounts.alice, `${members}/${accounts.bob.id}`, { method: 'DELETE' })).status).toBe(204);
    const after = await call(`/m/${ids.x}/api/roles`, bobToken);
    expect(after.status).toBe(403);
    expect((await tenantToken(accounts.bob, ids.x)).status).toBe(400);
    expect((await cloud(accounts.bob, '/tenants')).json).toEqual([]);
    expect((await cloud(accounts.bob, `${members}`)).status).toBe(404);
  });

  it('lets a member leave on their own', async () => {
    // Y is a Free production tenant, whose single member seat the creator takes (quota.test.ts): on Pro it has more.
    await db.update(tenantSubscriptions).set({ planId: 'Pro202411' }).where(eq(tenantSubscriptions.tenantId, ids.y));
    const sent = await cloud(accounts.alice, `/tenants/${ids.y}/invitations`, {
      method: 'POST',
      body: { invitee: 'carol@example.com', roleName: 'collaborator' },
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    expect(
      (
        await cloud(accounts.carol, `/invitations/${sent.json[0].id}/status`, {
          method: 'PATCH',
          body: { status: 'Accepted' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await cloud(accounts.carol, `/tenants/${ids.y}/members/${accounts.alice.id}`, { method: 'DELETE' })).status,
    ).toBe(403);
    expect(
      (await cloud(accounts.carol, `/tenants/${ids.y}/members/${accounts.carol.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await cloud(accounts.carol, '/tenants')).json).toEqual([]);
  });

  it('renames and deletes a tenant with its data and access', async () => {
    const renamed = await cloud(accounts.alice, `/tenants/${ids.x}`, { method: 'PATCH', body: { name: 'Xanadu 2' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ id: ids.x, name: 'Xanadu 2', role: 'admin' });
    const org = await new TenantDb(db, ADMIN_TENANT_ID).findOne(
      organizations,
      eq(organizations.id, tenantOrganizationId(ids.x)),
    );
    expect(org?.name).toBe('Xanadu 2');
    expect((await cloud(accounts.alice, `/tenants/${ids.x}`, { method: 'PATCH', body: { name: '' } })).status).toBe(
      400,
    );

    const token = (await tenantToken(accounts.alice, ids.x)).token;
    expect((await call(`/m/${ids.x}/api/roles`, token)).status).toBe(200);
    const assets = new LocalAssetStorage(dataDir);
    await assets.put(ids.x, 'logo.png', new Uint8Array([1, 2, 3]));
    await assets.put(ids.y, 'logo.png', new Uint8Array([4, 5, 6]));
    const filesOf = (tenantId: string) => join(dataDir, 'user-assets', tenantId);
    expect(existsSync(filesOf(ids.x))).toBe(true);
    expect((await cloud(accounts.alice, `/tenants/${ids.x}`, { method: 'DELETE' })).status).toBe(204);
    expect((await cloud(accounts.alice, '/tenants')).json.map((tenant: Json) => tenant.id)).toEqual([ids.y]);
    const gone = await call(`/m/${ids.x}/api/roles`, token);
    expect(gone.status).toBe(404);
    expect((await fetch(`${base}/t/${ids.x}/oidc/.well-known/openid-configuration`)).status).toBe(404);
    expect(await db.select().from(tenants).where(eq(tenants.id, ids.x))).toEqual([]);
    expect(await new TenantDb(db, ids.x).count(roles)).toBe(0);
    expect(await new TenantDb(db, ids.x).count(signingKeys)).toBe(0);
    expect(
      await new TenantDb(db, ADMIN_TENANT_ID).findOne(organizations, eq(organizations.id, tenantOrganizationId(ids.x))),
    ).toBe(undefined);
    expect((await tenantToken(accounts.alice, ids.x)).status).toBe(400);
    expect((await call(`/api/.well-known/endpoints/${ids.x}`, undefined)).status).toBe(404);
    // Its uploaded files go too (after the rows, in the background); tenant Y's stay.
    await vi.waitFor(() => expect(existsSync(filesOf(ids.x))).toBe(false));
    expect(await assets.get(ids.y, 'logo.png')).toEqual(Buffer.from([4, 5, 6]));
    // Tenant Y is untouched.
    expect((await call(`/m/${ids.y}/api/roles`, (await tenantToken(accounts.alice, ids.y)).token)).status).toBe(200);
  });

  it('moves every account whose default tenant is deleted to its next tenant, or to none', async () => {
    const create = async (name: string) =>
      (await cloud(accounts.alice, '/tenants', { method: 'POST', body: { name } })).json.id as string;
    const p = await create('Pamplona');
    const q = await create('Quito');
    const join = async (account: Account, tenantId: string) => {
      const sent = await cloud(accounts.alice, `/tenants/${tenantId}/invitations`, {
        method: 'POST',
        body: { invitee: account.email, roleName: 'collaborator' },
      });
      expect(sent.status, JSON.stringify(sent.json)).toBe(201);
      const accepted = await cloud(account, `/invitations/${sent.json[0].id}/status`, {
        method: 'PATCH',
        body: { status: 'Accepted' },
      });
      expect(accepted.status).toBe(200);
    };
    await join(accounts.bob, p);
    await join(accounts.bob, q);
    await join(accounts.carol, p);
    const admin = new TenantDb(db, ADMIN_TENANT_ID);
    const customDataOf = async (account: Account) =>
      (await admin.findOne(users, eq(users.id, account.id)))?.customData ?? {};
    for (const account of [accounts.alice, accounts.bob, accounts.carol])
      await admin.update(users, eq(users.id, account.id), {
        customData: { ...(await customDataOf(account)), defaultTenantId: p, keep: 'me' },
      });
    const rootBefore = await customDataOf(accounts.root);

    expect((await cloud(accounts.alice, `/tenants/${p}`, { method: 'DELETE' })).status).toBe(204);
    // The deleting owner: its oldest remaining tenant (Y, older than Q); a member of Q: Q; a member of P only: none.
    expect(await customDataOf(accounts.alice)).toMatchObject({ defaultTenantId: ids.y, keep: 'me' });
    expect(await customDataOf(accounts.bob)).toMatchObject({ defaultTenantId: q, keep: 'me' });
    expect(await customDataOf(accounts.carol)).toEqual(expect.objectContaining({ keep: 'me' }));
    expect(await customDataOf(accounts.carol)).not.toHaveProperty('defaultTenantId');
    expect(await customDataOf(accounts.root)).toEqual(rootBefore);

    // Leaving a tenant, or being removed from it, moves the default the same way; others keep theirs.
    await join(accounts.carol, q);
    for (const account of [accounts.bob, accounts.carol])
      await admin.update(users, eq(users.id, account.id), {
        customData: { ...(await customDataOf(account)), defaultTenantId: q },
      });
    expect((await cloud(accounts.bob, `/tenants/${q}/members/${accounts.bob.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect(await customDataOf(accounts.bob)).not.toHaveProperty('defaultTenantId');
    expect(await customDataOf(accounts.carol)).toMatchObject({ defaultTenantId: q });
    await join(accounts.carol, ids.y);
    expect(
      (await cloud(accounts.alice, `/tenants/${q}/members/${accounts.carol.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect(await customDataOf(accounts.carol)).toMatchObject({ defaultTenantId: ids.y, keep: 'me' });
  });
});
