import { createHash } from 'node:crypto';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { attemptSignIn } from '../src/services/sign-in.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { consoleClient } from './support/oidc-flow.ts';

const hex = (algorithm: string, input: string) => createHash(algorithm).update(input).digest('hex');

describe('imported password hashes', () => {
  let t: TestApp;
  let tenant: TenantDb;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = new TenantDb(t.db, DEFAULT_TENANT_ID);
  });
  afterAll(() => t.close());

  const storedPassword = async (id: string) => {
    const row = await tenant.findOne(users, eq(users.id, id));
    return { method: row?.passwordEncryptionMethod, encrypted: row?.passwordEncrypted ?? '' };
  };

  const cases = async (password: string): Promise<[string, string][]> => [
    ['SHA256', hex('sha256', password)],
    ['SHA1', hex('sha1', password).toUpperCase()],
    ['MD5', hex('md5', password)],
    ['Argon2i', await hash(password, { algorithm: 1 })],
    ['Argon2d', await hash(password, { algorithm: 0 })],
    // Argon2id with weaker parameters than ours is re-hashed too.
    ['Argon2id', await hash(password, { algorithm: 2, memoryCost: 4096, timeCost: 3 })],
    ['Legacy', JSON.stringify(['sha256', ['pepper:', '@', ':salt'], hex('sha256', `pepper:${password}:salt`)])],
    ['Bcrypt', await bcrypt.hash(password, 4)],
  ];

  // Nine algorithms, each hashed, verified and re-hashed with Argon2id: slow on a loaded 2-core machine.
  it('verify at the first sign-in, then become Argon2id with our parameters', { timeout: 120_000 }, async () => {
    const password = 'Imported-Secret-2024';
    for (const [algorithm, digest] of await cases(password)) {
      const username = `imported_${algorithm.toLowerCase()}`;
      const created = await t.call('/api/users', {
        method: 'POST',
        body: { username, passwordDigest: digest, passwordAlgorithm: algorithm },
      });
      expect(created.status, `${algorithm}: ${JSON.stringify(created.json)}`).toBe(200);
      expect(created.json.hasPassword).toBe(true);
      const id = String(created.json.id);
      expect(await storedPassword(id)).toEqual({ method: algorithm, encrypted: digest });

      const verify = (candidate: string) =>
        t.call(`/api/users/${id}/password/verify`, { method: 'POST', body: { password: candidate } });
      expect((await verify(password)).status, `${algorithm}: the API verifies the imported hash`).toBe(204);
      expect((await verify(`${password}!`)).status).toBe(422);

      const wrong = await attemptSignIn(tenant, { identifier: username, password: 'Not-The-Password-1' });
      expect(wrong.ok, `${algorithm}: a wrong password`).toBe(false);
      expect((await storedPassword(id)).method, 'a failed sign-in changes nothing').toBe(algorithm);

      const signedIn = await attemptSignIn(tenant, { identifier: username, password });
      // The first factor says so; the sign-in's audit entry carries it when the interaction completes.
      expect(signedIn, `${algorithm}: signs in`).toEqual({
        ok: true,
        userId: id,
        detail: { identifier: username, passwordUpgradedFrom: algorithm },
      });
      const upgraded = await storedPassword(id);
      expect(upgraded.method).toBe('Argon2id');
      expect(upgraded.encrypted).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

      expect(await attemptSignIn(tenant, { identifier: username, password }), 'again, with the new hash').toEqual({
        ok: true,
        userId: id,
        detail: { identifier: username },
      });
      expect((await storedPassword(id)).encrypted, 'no second re-hash').toBe(upgraded.encrypted);
    }
  });

  it('a hash recorded with another Argon2 variant than its own is refused', async () => {
    const password = 'Mismatched-Variant-1';
    const created = await t.call('/api/users', {
      method: 'POST',
      body: {
        username: 'variant_mismatch',
        passwordDigest: await hash(password, { algorithm: 1 }),
        passwordAlgorithm: 'Argon2i',
      },
    });
    const id = String(created.json.id);
    await tenant.update(users, eq(users.id, id), { passwordEncryptionMethod: 'Argon2d' });
    expect((await attemptSignIn(tenant, { identifier: 'variant_mismatch', password })).ok).toBe(false);
  });
});

describe('suspension and sign-in (real OIDC provider)', () => {
  let server: Awaited<ReturnType<typeof startTestHttpServer>>;
  let oidc: ReturnType<typeof consoleClient>;
  let adminApiToken = '';

  beforeAll(async () => {
    // Cloud edition: the admin tenant (console accounts) has a management API at /m/admin/api.
    server = await startTestHttpServer({ EDITION: 'cloud' });
    oidc = consoleClient(server.base);
    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    const app = await createManagementMachineApp(admin, { type: 'system', id: 'test' }, 'users-test');
    const response = await fetch(`${server.base}/t/${ADMIN_TENANT_ID}/oidc/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: managementResource(ADMIN_TENANT_ID),
        scope: 'all',
      }),
    });
    expect(response.status).toBe(200);
    adminApiToken = ((await response.json()) as { access_token: string }).access_token;
  });
  afterAll(() => server.close());

  async function api(path: string, method = 'GET', body?: unknown) {
    const response = await fetch(`${server.base}/m/${ADMIN_TENANT_ID}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${adminApiToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  async function signIn(identifier: string, password: string) {
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar);
    const submitted = await oidc.submit(jar, signInPage, identifier, password);
    if (submitted.status !== 303) return { status: submitted.status, html: await submitted.text() };
    const callback = await oidc.followToCallback(jar, submitted);
    const tokens = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier, {
      resource: managementResource(DEFAULT_TENANT_ID),
    });
    expect(tokens.status).toBe(200);
    return { status: 303, tokens: (await tokens.json()) as { refresh_token?: string } };
  }

  it('a suspended user cannot sign in, and their refresh token stops working at once', async () => {
    const created = await api('/users', 'POST', { username: 'soon_suspended', password: 'Suspend-Me-Later-5' });
    expect(created.status).toBe(200);
    const userId = String(created.json.id);

    const session = await signIn('soon_suspended', 'Suspend-Me-Later-5');
    expect(session.status, 'signs in while active').toBe(303);
    const refreshToken = session.tokens?.refresh_token ?? '';
    expect(refreshToken).not.toBe('');
    const refreshed = await oidc.refresh(refreshToken, managementResource(DEFAULT_TENANT_ID));
    expect(refreshed.status, 'the refresh token works while active').toBe(200);
    const rotated = ((await refreshed.json()) as { refresh_token: string }).refresh_token;

    const suspended = await api(`/users/${userId}/is-suspended`, 'PATCH', { isSuspended: true });
    expect(suspended.status).toBe(200);
    const refused = await oidc.refresh(rotated, managementResource(DEFAULT_TENANT_ID));
    expect(refused.status, 'the refresh token is refused after suspension').toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');

    const blocked = await signIn('soon_suspended', 'Suspend-Me-Later-5');
    expect(blocked.status, 'a suspended user cannot sign in').toBe(401);
    expect(blocked.html).toContain('<form');

    expect((await api(`/users/${userId}/is-suspended`, 'PATCH', { isSuspended: false })).status).toBe(200);
    const revoked = await oidc.refresh(rotated, managementResource(DEFAULT_TENANT_ID));
    expect(revoked.status, 'revoked, not just paused: reactivation does not revive the old refresh token').toBe(400);
    expect((await signIn('soon_suspended', 'Suspend-Me-Later-5')).status, 'reactivated, signs in again').toBe(303);
  });
});
