import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADMIN_TENANT_ID,
  accountDeletionBlockedDataSchema,
  accountDeletionPreviewSchema,
  CLOUD_API_RESOURCE,
  generateId,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import { and, eq, sql } from 'drizzle-orm';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issuerUrl, ME_RESOURCE } from '../src/auth/issuers.ts';
import { jwsAlgorithmOf, SigningKeyStore } from '../src/auth/signing-keys.ts';
import type { Database } from '../src/db/client.ts';
import { allOf } from '../src/db/conditions.ts';
import { tenantRoleId } from '../src/db/seed.ts';
import {
  checkoutSessions,
  invoices,
  logs,
  oidcModelInstances,
  organizations,
  organizationUserRoles,
  organizationUsers,
  roles,
  tenantSubscriptions,
  tenants,
  userMfaVerifications,
  users,
} from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD } from '../src/services/passwords.ts';
import { LocalAssetStorage } from '../src/services/user-assets.ts';
import { createTestApp } from './support/app.ts';
import { type CloudAccount, call, createCloudAccount, type Json, tenantToken } from './support/cloud-accounts.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { consoleClient } from './support/oidc-flow.ts';

/**
 * Deleting one's own console account (issue 42, cloud edition): `GET /api/me/deletion-preview` and `DELETE /api/me`
 * over the real HTTP server with real console tokens. docs/areas/me.md#deleting-the-account.
 */

let base: string;
let db: Database;
let close: () => Promise<void>;
let dataDir: string;
/** Deletes her account: owns one tenant alone, shares one as an admin with Bob, is Bob's collaborator in another. */
let alice: CloudAccount;
/** The other admin, whose tenants must survive Alice. */
let bob: CloudAccount;
/** Owns tenants that block the deletion. */
let carol: CloudAccount;

const admin = () => new TenantDb(db, ADMIN_TENANT_ID);
const cloud = (account: CloudAccount, path: string, init: { method?: string; body?: unknown } = {}) =>
  call(base, `/api${path}`, account.cloud, init);

/** A 'me' API token, as the console gets one: the account's refresh token redeemed for the 'me' resource. */
async function meToken(account: CloudAccount): Promise<string> {
  const response = await consoleClient(base).refresh(account.refresh, ME_RESOURCE);
  const body = (await response.json()) as Json;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.access_token;
}

/** A 'me' API token signed with the admin tenant's key, for an account that cannot sign in with a password. */
async function signedMeToken(subject: string): Promise<string> {
  const [jwk] = await new SigningKeyStore(new TenantDbs(db)).privateKeys(ADMIN_TENANT_ID);
  if (!jwk) throw new Error('no admin key');
  const alg = jwsAlgorithmOf(jwk);
  return new SignJWT({ scope: 'all' })
    .setProtectedHeader({ alg, kid: String(jwk.kid) })
    .setIssuer(issuerUrl(base, ADMIN_TENANT_ID))
    .setAudience(ME_RESOURCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(await importJWK(jwk, alg));
}

async function raw(path: string, token: string | undefined, init: { method?: string; body?: string } = {}) {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body,
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Json };
}

const preview = (token: string) => call(base, '/api/me/deletion-preview', token);
const deleteAccount = (token: string, body?: unknown) =>
  call(base, '/api/me', token, { method: 'DELETE', ...(body === undefined ? {} : { body }) });

async function proof(token: string, password: string): Promise<string> {
  const verified = await call(base, '/api/me/password/verify', token, { method: 'POST', body: { password } });
  expect(verified.status).toBe(201);
  return verified.json.verificationRecordId;
}

async function createTenant(account: CloudAccount, name: string): Promise<string> {
  const created = await cloud(account, '/tenants', { method: 'POST', body: { name, tag: 'production' } });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json.id;
}

/** Makes the account a member of the tenant directly (an invitation would meet Free's one-member quota). */
async function addMember(tenantId: string, userId: string, role: 'admin' | 'collaborator') {
  const organizationId = tenantOrganizationId(tenantId);
  await admin().insert(organizationUsers, { organizationId, userId });
  await admin().insert(organizationUserRoles, { organizationId, userId, organizationRoleId: tenantRoleId(role) });
}

const tenantExists = async (tenantId: string) =>
  (await db.select().from(tenants).where(eq(tenants.id, tenantId))).length === 1;
const accountExists = async (userId: string) => (await admin().findOne(users, eq(users.id, userId))) !== undefined;
const oidcRowsOf = (userId: string) =>
  admin().count(oidcModelInstances, sql`${oidcModelInstances.payload}->>'accountId' = ${userId}`);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-me-delete-'));
  const server = await startTestHttpServer({ EDITION: 'cloud', DATA_DIR: dataDir });
  ({ base, close } = server);
  db = server.database.db;
  [alice, bob, carol] = (await Promise.all(
    ['alice', 'bob', 'carol'].map((name) => createCloudAccount(db, base, name)),
  )) as [CloudAccount, CloudAccount, CloudAccount];
}, 60_000);
afterAll(async () => {
  await close?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('DELETE /api/me', () => {
  it('deletes the tenants the account alone administers, leaves the others, then the account', async () => {
    const owned = await createTenant(alice, 'Owned by Alice');
    const shared = await createTenant(bob, 'Shared with Bob');
    await addMember(shared, alice.id, 'admin');
    const team = await createTenant(bob, "Bob's team");
    await addMember(team, alice.id, 'collaborator');
    // Owned data: the tenant's seeded roles, an uploaded file, an open checkout of Alice's.
    expect(await new TenantDb(db, owned).count(roles)).toBeGreaterThan(0);
    const assets = new LocalAssetStorage(dataDir);
    await assets.put(owned, 'logo.png', new Uint8Array([1, 2, 3]));
    await assets.put(shared, 'logo.png', new Uint8Array([4, 5, 6]));
    const checkoutId = generateId();
    await db.insert(checkoutSessions).values({
      id: checkoutId,
      userId: alice.id,
      skuId: 'Pro202411',
      successCallbackUrl: `${base}/console/checkout-callback`,
      tenantName: 'Later',
      tenantTag: 'production',
      amount: 1600,
      provider: 'sandbox',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const token = await meToken(alice);
    // A factor of hers (added after her sign-in, which it would otherwise have asked for).
    await admin().insert(userMfaVerifications, {
      id: generateId(),
      userId: alice.id,
      type: 'Totp',
      data: { secret: 'JBSWY3DPEHPK3PXP' },
    });
    expect(await oidcRowsOf(alice.id), 'her session, grant and refresh token').toBeGreaterThan(0);
    const bobShared = await tenantToken(base, bob, shared);

    const planned = await preview(token);
    expect(planned.status).toBe(200);
    expect(accountDeletionPreviewSchema.parse(planned.json)).toEqual({
      deletes: [{ id: owned, name: 'Owned by Alice' }],
      leaves: [
        { id: shared, name: 'Shared with Bob' },
        { id: team, name: "Bob's team" },
      ],
      blockers: [],
    });

    // Without the proof of her password, or with a stale one, nothing happens.
    for (const body of [undefined, {}, { verificationRecordId: 'forged' }]) {
      const refused = await deleteAccount(token, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.json.code).toBe('verification_record.invalid');
    }
    expect(await accountExists(alice.id)).toBe(true);
    expect(await tenantExists(owned)).toBe(true);
    // Bob's proof is not hers.
    const bobsProof = await proof(await meToken(bob), bob.password);
    expect((await deleteAccount(token, { verificationRecordId: bobsProof })).status).toBe(422);

    const deleted = await deleteAccount(token, { verificationRecordId: await proof(token, alice.password) });
    expect(deleted.status, JSON.stringify(deleted.json)).toBe(204);

    // Her tenant is gone with its data and, in the background, its files; her checkout is canceled.
    expect(await tenantExists(owned)).toBe(false);
    expect(await new TenantDb(db, owned).count(roles)).toBe(0);
    expect(
      await admin().findOne(organizationUsers, eq(organizationUsers.organizationId, tenantOrganizationId(owned))),
    ).toBeUndefined();
    await vi.waitFor(() => expect(existsSync(join(dataDir, 'user-assets', owned))).toBe(false));
    const [checkout] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, checkoutId));
    expect(checkout?.status).toBe('canceled');
    // The shared tenants stay, with Bob alone in them, and his access works as before.
    expect(await tenantExists(shared)).toBe(true);
    expect(await tenantExists(team)).toBe(true);
    expect(await assets.get(shared, 'logo.png')).toEqual(Buffer.from([4, 5, 6]));
    const sharedMembers = await cloud(bob, `/tenants/${shared}/members`);
    expect(sharedMembers.json.map((member: Json) => [member.id, member.role])).toEqual([[bob.id, 'admin']]);
    expect((await call(base, `/m/${shared}/api/roles`, bobShared)).status).toBe(200);
    expect((await cloud(bob, '/tenants')).json.map((tenant: Json) => tenant.id).sort()).toEqual([shared, team].sort());

    // The account, its factors, sessions, grants and tokens are gone.
    expect(await accountExists(alice.id)).toBe(false);
    expect(await admin().count(userMfaVerifications, eq(userMfaVerifications.userId, alice.id))).toBe(0);
    expect(await admin().count(organizationUsers, eq(organizationUsers.userId, alice.id))).toBe(0);
    expect(await oidcRowsOf(alice.id)).toBe(0);
    expect((await call(base, '/api/me', token)).status, 'her me token opens nothing').toBe(401);
    expect((await deleteAccount(token, {})).status, 'nor a second deletion').toBe(401);
    const refreshed = await consoleClient(base).refresh(alice.refresh, CLOUD_API_RESOURCE);
    expect(refreshed.status, 'her refresh token is refused').toBe(400);
    expect((await cloud(alice, '/tenants')).json, 'her cloud token sees no tenant').toEqual([]);
    expect((await cloud(alice, `/tenants/${shared}`, { method: 'DELETE' })).status).toBe(404);

    // Signing in fails like an unknown account.
    const flow = consoleClient(base);
    const jar = new CookieJar();
    const { signInPage } = await flow.startAuthorization(jar, { resources: [CLOUD_API_RESOURCE] });
    const signIn = await flow.submit(jar, signInPage, alice.username, alice.password);
    expect(signIn.status).toBe(401);
    expect(await signIn.text()).toContain('The username or password is incorrect.');

    // One entry of the account's deletion names what was deleted and left; each tenant keeps its usual entry.
    const entries = await admin().findMany(logs, { where: eq(logs.userId, alice.id) });
    const accountEntry = entries.find((entry) => entry.key === 'Account.Deleted');
    expect(accountEntry?.payload).toMatchObject({
      actor: { type: 'user', id: alice.id },
      entity: { type: 'User', id: alice.id },
      before: {
        username: 'alice',
        deletedTenants: [{ id: owned, name: 'Owned by Alice' }],
        leftTenants: [
          { id: shared, name: 'Shared with Bob' },
          { id: team, name: "Bob's team" },
        ],
        canceledCheckoutSessions: [checkoutId],
      },
      after: null,
    });
    expect(JSON.stringify(accountEntry?.payload)).not.toContain('argon2');
    expect(entries.filter((entry) => entry.key === 'Admin.Tenant.Deleted')).toHaveLength(1);
    expect(entries.filter((entry) => entry.key === 'Admin.TenantMember.Deleted')).toHaveLength(2);
  });

  it('refuses while a tenant it would delete is paid for, and deletes nothing', async () => {
    const pro = await createTenant(carol, 'Pro shop');
    const pastDue = await createTenant(carol, 'Past due');
    const unpaid = await createTenant(carol, 'Unpaid');
    const free = await createTenant(carol, 'Free');
    // A paid tenant she shares with another admin is left, not deleted: it blocks nothing.
    const sharedPro = await createTenant(bob, 'Shared Pro');
    await addMember(sharedPro, carol.id, 'admin');
    const setPlan = (tenantId: string, values: Partial<typeof tenantSubscriptions.$inferInsert>) =>
      db.update(tenantSubscriptions).set(values).where(eq(tenantSubscriptions.tenantId, tenantId));
    await setPlan(pro, { planId: 'Pro202411' });
    await setPlan(sharedPro, { planId: 'Pro202411' });
    await setPlan(pastDue, { status: 'past_due' });
    await db.insert(invoices).values({
      tenantId: unpaid,
      id: `in-${generateId()}`,
      status: 'open',
      planId: 'Pro202411',
      amountDue: 1600,
      periodStart: new Date(),
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    // A paid invoice is no issue.
    await db.insert(invoices).values({
      tenantId: free,
      id: `in-${generateId()}`,
      status: 'paid',
      planId: 'Pro202411',
      amountDue: 1600,
      amountPaid: 1600,
      periodStart: new Date(),
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    const token = await meToken(carol);
    const blockers = [
      { tenantId: pro, tenantName: 'Pro shop', reason: 'paid_plan' },
      { tenantId: pastDue, tenantName: 'Past due', reason: 'subscription_inactive' },
      { tenantId: unpaid, tenantName: 'Unpaid', reason: 'open_invoices' },
    ];
    const planned = await preview(token);
    expect(accountDeletionPreviewSchema.parse(planned.json)).toEqual({
      deletes: [
        { id: pro, name: 'Pro shop' },
        { id: pastDue, name: 'Past due' },
        { id: unpaid, name: 'Unpaid' },
        { id: free, name: 'Free' },
      ],
      leaves: [{ id: sharedPro, name: 'Shared Pro' }],
      blockers,
    });

    const verificationRecordId = await proof(token, carol.password);
    const refused = await deleteAccount(token, { verificationRecordId });
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('user.delete_blocked');
    expect(accountDeletionBlockedDataSchema.parse(refused.json.data)).toEqual({ blockers });
    expect(await accountExists(carol.id)).toBe(true);
    for (const tenantId of [pro, pastDue, unpaid, free, sharedPro]) expect(await tenantExists(tenantId)).toBe(true);
    expect((await cloud(carol, '/tenants')).json).toHaveLength(5);
    expect(
      await admin().findMany(logs, { where: and(eq(logs.userId, carol.id), eq(logs.key, 'Account.Deleted')) }),
    ).toEqual([]);

    // Once settled, the account goes (the proof still holds: it lasts 10 minutes or until the password changes).
    await setPlan(pro, { planId: 'Free' });
    await setPlan(pastDue, { status: 'active' });
    await db.update(invoices).set({ status: 'paid' }).where(eq(invoices.tenantId, unpaid));
    const settled = await deleteAccount(token, { verificationRecordId });
    expect(settled.status, JSON.stringify(settled.json)).toBe(204);
    for (const tenantId of [pro, pastDue, unpaid, free]) expect(await tenantExists(tenantId)).toBe(false);
    expect(await tenantExists(sharedPro)).toBe(true);
  });

  it('needs no proof from an account without a password, and never deletes a built-in tenant', async () => {
    const dave = await admin().insert(users, { id: generateId(12), username: 'dave' });
    const daveToken = await signedMeToken(dave.id);
    const own = await createTenant(bob, 'For Dave');
    // Dave is its only admin once Bob leaves.
    await addMember(own, dave.id, 'admin');
    expect((await cloud(bob, `/tenants/${own}/members/${bob.id}`, { method: 'DELETE' })).status).toBe(204);
    // An operator who alone administers the built-in default tenant cannot go: it would go with them.
    await admin().insertIfAbsent(organizations, { id: tenantOrganizationId('default'), name: 'Default' });
    await addMember('default', dave.id, 'admin');
    const defaultAdmins = await admin().findMany(organizationUserRoles, {
      where: and(
        eq(organizationUserRoles.organizationId, tenantOrganizationId('default')),
        eq(organizationUserRoles.organizationRoleId, tenantRoleId('admin')),
      ),
    });
    expect(defaultAdmins.map((row) => row.userId)).toEqual([dave.id]);
    const blocked = await preview(daveToken);
    expect(blocked.json.blockers).toEqual([
      { tenantId: 'default', tenantName: expect.any(String), reason: 'reserved_tenant' },
    ]);
    expect((await deleteAccount(daveToken)).json.code).toBe('user.delete_blocked');

    await admin().delete(
      organizationUsers,
      allOf(
        eq(organizationUsers.organizationId, tenantOrganizationId('default')),
        eq(organizationUsers.userId, dave.id),
      ),
    );
    // No body at all: nothing to prove.
    const deleted = await raw('/api/me', daveToken, { method: 'DELETE' });
    expect(deleted.status, JSON.stringify(deleted.json)).toBe(204);
    expect(await tenantExists(own)).toBe(false);
    expect(await tenantExists('default')).toBe(true);
    expect(await accountExists(dave.id)).toBe(false);
  });

  it('validates the body and the token', async () => {
    const erin = await createCloudAccount(db, base, 'erin');
    const token = await meToken(erin);
    for (const body of [{ verificationRecordId: 5 }, { verificationRecordId: 'x', extra: true }, []]) {
      const response = await deleteAccount(token, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
    }
    expect((await raw('/api/me', token, { method: 'DELETE', body: '{not json' })).json.code).toBe(
      'request.invalid_json',
    );
    for (const [path, method] of [
      ['/api/me', 'DELETE'],
      ['/api/me/deletion-preview', 'GET'],
    ] as const) {
      const anonymous = await raw(path, undefined, { method });
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.json.code).toBe('auth.unauthorized');
      // The cloud API's token is for another audience.
      expect((await raw(path, erin.cloud, { method })).status, path).toBe(401);
    }
    expect(await accountExists(erin.id)).toBe(true);
    // Both routes are in the cloud edition's OpenAPI document.
    const document = (await raw('/api/openapi.json', undefined)).json;
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/me/deletion-preview']));
    expect(document.paths['/api/me'].delete).toBeDefined();
  });
});

describe('the OSS edition', () => {
  it('has no account deletion: 404 route.not_found, and nothing in its OpenAPI document', async () => {
    const oss = await createTestApp();
    try {
      const frank = await new TenantDb(oss.db, ADMIN_TENANT_ID).insert(users, {
        id: generateId(12),
        username: 'frank',
        passwordEncrypted: await hashPassword('Frank-Pass-4242'),
        passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD,
      });
      const headers = { Authorization: `Bearer ${await oss.token({ audience: ME_RESOURCE, subject: frank.id })}` };
      for (const [path, method] of [
        ['/api/me', 'DELETE'],
        ['/api/me/deletion-preview', 'GET'],
      ] as const) {
        const response = await oss.call(path, { method, headers, ...(method === 'DELETE' && { body: {} }) });
        expect(response.status, path).toBe(404);
        expect(response.json.code).toBe('route.not_found');
      }
      expect((await oss.call('/api/me', { headers })).status).toBe(200);
      const document = (await oss.call('/api/openapi.json', { auth: false })).json;
      expect(document.paths['/api/me/deletion-preview']).toBeUndefined();
      expect(document.paths['/api/me'].delete).toBeUndefined();
    } finally {
      await oss.close();
    }
  });
});
