import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { TenantProviders } from '../src/auth/oidc/provider.ts';
import { SigningKeyStore } from '../src/auth/signing-keys.ts';
import { loadConfig } from '../src/config.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createHttpServer } from '../src/http-server.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { createTestDatabase, testDatabaseUrl } from './support/database.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';
import { auditEntries, expectGuarded, expectInvalid } from './support/scenarios.ts';
import { TEST_SECRETS_KEY } from './support/secrets.ts';

type Key = { id: string; createdAt: number | null; status: string; signingKeyAlgorithm?: string };

const privateKeys = '/api/configs/oidc/private-keys';
const cookieKeys = '/api/configs/oidc/cookie-keys';

describe('OIDC keys API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const list = async (path: string): Promise<Key[]> => {
    const response = await t.call(path);
    expect(response.status).toBe(200);
    return response.json;
  };

  it('lists the private keys and the cookie keys without their material', async () => {
    const keys = await list(privateKeys);
    expect(keys).toEqual([
      { id: expect.any(String), createdAt: expect.any(Number), status: 'Current', signingKeyAlgorithm: 'RSA' },
    ]);
    const [stored] = await t.keys.privateKeys(DEFAULT_TENANT_ID);
    expect(stored?.kid, 'the id is the kid').toBe(keys[0]?.id);
    const cookies = await t.call(cookieKeys);
    expect(cookies.json, 'cookie keys exist before the provider first ran').toEqual([
      { id: expect.any(String), createdAt: expect.any(Number), status: 'Current' },
    ]);
    for (const text of [JSON.stringify(keys), cookies.text]) {
      expect(text).not.toMatch(/"(d|n|p|q|value|privateJwk)"/);
    }
    expect((await list(privateKeys))[0]?.id, 'ids are stable').toBe(keys[0]?.id);
  });

  it('rotates private keys: the new key is current, one previous key is kept, the algorithm may change', async () => {
    const [first] = await list(privateKeys);
    const rotated = await t.call(`${privateKeys}/rotate`, { method: 'POST', body: {} });
    expect(rotated.status).toBe(200);
    const [second, previous] = rotated.json as Key[];
    expect(rotated.json).toHaveLength(2);
    expect(second).toMatchObject({ status: 'Current', signingKeyAlgorithm: 'RSA' });
    expect(previous).toEqual({ ...first, status: 'Previous' });

    const toEc = await t.call(`${privateKeys}/rotate`, { method: 'POST', body: { signingKeyAlgorithm: 'EC' } });
    expect(toEc.status).toBe(200);
    expect((toEc.json as Key[]).map((key) => [key.status, key.signingKeyAlgorithm])).toEqual([
      ['Current', 'EC'],
      ['Previous', 'RSA'],
    ]);
    expect(toEc.json[1].id, 'the key before the last is removed').toBe(second?.id);
    const stored = await t.keys.privateKeys(DEFAULT_TENANT_ID);
    expect(stored.map((jwk) => [jwk.kid, jwk.kty, jwk.crv, jwk.alg])).toEqual([
      [toEc.json[0].id, 'EC', 'P-384', 'ES384'],
      [second?.id, 'RSA', undefined, 'RS256'],
    ]);
    // Without an algorithm, a rotation keeps the current key's family.
    const again = await t.call(`${privateKeys}/rotate`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.json[0].signingKeyAlgorithm).toBe('EC');

    const [entry] = await auditEntries(t, 'private-keys');
    expect(entry?.key).toBe('Admin.OidcPrivateKeys.Rotated');
    expect(entry?.payload.after).toEqual({ keys: again.json });
    const audit = JSON.stringify(entry?.payload);
    for (const jwk of await t.keys.privateKeys(DEFAULT_TENANT_ID)) {
      expect(audit, 'no key material in the audit log').not.toContain(String(jwk.d));
    }
  });

  it('tokens signed by the current and the previous key verify; a deleted key no longer does', async () => {
    const [current, previous] = await t.keys.privateKeys(DEFAULT_TENANT_ID);
    const byCurrent = await t.token({ issuerTenantId: DEFAULT_TENANT_ID, clientId: 'robot', privateJwk: current });
    const byPrevious = await t.token({ issuerTenantId: DEFAULT_TENANT_ID, clientId: 'robot', privateJwk: previous });
    expect(decodeProtectedHeader(byCurrent).alg).toBe('ES384');
    const auth = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
    expect((await t.call('/api/roles', auth(byCurrent))).status).toBe(200);
    expect((await t.call('/api/roles', auth(byPrevious))).status).toBe(200);

    const refused = await t.call(`${privateKeys}/${String(current?.kid)}`, { method: 'DELETE' });
    expect(refused.status, 'the current key cannot be deleted').toBe(422);
    expect(refused.json.code).toBe('oidc.key_required');
    expect(refused.json.message).toContain('current key');

    const deleted = await t.call(`${privateKeys}/${String(previous?.kid)}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await list(privateKeys)).map((key) => key.id)).toEqual([current?.kid]);
    expect((await t.call('/api/roles', auth(byPrevious))).status, 'at once in this process').toBe(401);
    expect((await t.call('/api/roles', auth(byCurrent))).status).toBe(200);
    const [entry] = await auditEntries(t, 'private-keys');
    expect(entry).toMatchObject({
      key: 'Admin.OidcPrivateKeys.Deleted',
      payload: { before: { keys: [{ id: current?.kid }, { id: previous?.kid }] } },
    });

    const again = await t.call(`${privateKeys}/${String(previous?.kid)}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.json.code, 'the reference’s code').toBe('oidc.key_not_found');
  });

  it('rotates cookie keys and deletes the previous one, never the current one', async () => {
    const [first] = await list(cookieKeys);
    const rotated = await t.call(`${cookieKeys}/rotate`, { method: 'POST', body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.json).toEqual([
      { id: expect.any(String), createdAt: expect.any(Number), status: 'Current' },
      { ...first, status: 'Previous' },
    ]);
    const third = await t.call(`${cookieKeys}/rotate`, { method: 'POST' });
    expect(third.json.map((key: Key) => key.id)).toEqual([third.json[0].id, rotated.json[0].id]);

    const current = third.json[0].id;
    const refused = await t.call(`${cookieKeys}/${current}`, { method: 'DELETE' });
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('oidc.key_required');
    expect((await t.call(`${cookieKeys}/${third.json[1].id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await list(cookieKeys)).toEqual([third.json[0]]);
    expect((await t.call(`${cookieKeys}/no-such-key`, { method: 'DELETE' })).status).toBe(404);
    const [entry] = await auditEntries(t, 'cookie-keys');
    expect(entry?.key).toBe('Admin.OidcCookieKeys.Deleted');
    expect(JSON.stringify(entry?.payload)).not.toContain('"value"');
  });

  it('concurrent rotations are serialised: each succeeds and two keys remain', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => t.call(`${privateKeys}/rotate`, { method: 'POST', body: {} })),
    );
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    const keys = await list(privateKeys);
    expect(keys.map((key) => key.status)).toEqual(['Current', 'Previous']);
    expect(await t.keys.privateKeys(DEFAULT_TENANT_ID)).toHaveLength(2);
    const [, previous] = keys;
    expect((await t.call(`${privateKeys}/${previous?.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('the tenant provider is built once per key set: reused until a rotation, then rebuilt', async () => {
    const providers = new TenantProviders({ db: t.db, tenants: new TenantDbs(t.db), config: t.config, keys: t.keys });
    const first = await providers.get(DEFAULT_TENANT_ID);
    expect(await providers.get(DEFAULT_TENANT_ID), 'no rebuild while the key set is unchanged').toBe(first);
    expect((await t.call(`${cookieKeys}/rotate`, { method: 'POST' })).status).toBe(200);
    const rebuilt = await providers.get(DEFAULT_TENANT_ID);
    expect(rebuilt, 'a rotation (here from another app instance) rebuilds it').not.toBe(first);
    expect(await providers.get(DEFAULT_TENANT_ID)).toBe(rebuilt);
    expect(await providers.get('no-such-tenant')).toBeUndefined();
  });

  it('validates the key type, the algorithm and the body', async () => {
    const wrongType = await t.call('/api/configs/oidc/public-keys');
    expectInvalid(wrongType, 'keyType', 'unknown key type');
    expectInvalid(
      await t.call(`${privateKeys}/rotate`, { method: 'POST', body: { signingKeyAlgorithm: 'DSA' } }),
      'signingKeyAlgorithm',
      'unknown algorithm',
    );
    expectInvalid(
      await t.call(`${cookieKeys}/rotate`, { method: 'POST', body: { rotationGracePeriod: 10 } }),
      'rotationGracePeriod',
      'a grace period, refused rather than ignored',
    );
    expect((await list(privateKeys)).length, 'nothing rotated').toBe(1);
  });

  it('requires a token with scope all', async () => {
    const [key] = await list(privateKeys);
    await expectGuarded(t, [
      { method: 'GET', path: privateKeys },
      { method: 'GET', path: cookieKeys },
      { method: 'POST', path: `${privateKeys}/rotate`, body: {} },
      { method: 'DELETE', path: `${privateKeys}/${key?.id}` },
    ]);
  });
});

describe('OIDC keys per tenant (cloud)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ EDITION: 'cloud' });
  });
  afterAll(() => t.close());

  it("a tenant's rotation and deletion leave another tenant's keys alone", async () => {
    const adminAuth = { headers: { Authorization: `Bearer ${await t.token({ tenantId: ADMIN_TENANT_ID })}` } };
    const adminKeys = await t.call(`/m/${ADMIN_TENANT_ID}/api/configs/oidc/private-keys`, adminAuth);
    expect(adminKeys.status).toBe(200);
    const rotated = await t.call(`/m/${DEFAULT_TENANT_ID}/api/configs/oidc/private-keys/rotate`, {
      method: 'POST',
      body: {},
    });
    expect(rotated.status).toBe(200);
    expect(rotated.json).toHaveLength(2);
    const after = await t.call(`/m/${ADMIN_TENANT_ID}/api/configs/oidc/private-keys`, adminAuth);
    expect(after.json, 'the admin tenant keeps its one key').toEqual(adminKeys.json);

    const foreign = await t.call(`/m/${ADMIN_TENANT_ID}/api/configs/oidc/private-keys/${rotated.json[1].id}`, {
      method: 'DELETE',
      ...adminAuth,
    });
    expect(foreign.status, "another tenant's key is not found").toBe(404);
    const crossToken = await t.call(`/m/${ADMIN_TENANT_ID}/api/configs/oidc/private-keys`);
    expect(crossToken.status, "a tenant's token does not open another tenant's keys").toBe(401);
  });
});

describe('rotation in the OIDC provider, across server instances', { timeout: 120_000 }, () => {
  let server: Awaited<ReturnType<typeof startTestHttpServer>>;
  let second: { base: string; close: () => Promise<void> };
  let machine: { clientId: string; clientSecret: string };
  const user = { username: 'rotation_user', password: 'Rotation-User-Pass-42' };
  const spaRedirect = 'https://spa.example.com/callback';
  let spaId = '';

  async function machineToken(base: string): Promise<string> {
    const response = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${machine.clientId}:${machine.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: managementResource(DEFAULT_TENANT_ID),
        scope: 'all',
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  async function api(base: string, token: string, path: string, init: { method?: string; body?: unknown } = {}) {
    const response = await fetch(`${base}/api${path}`, {
      method: init.method ?? 'GET',
      headers: {
        Authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as any };
  }

  async function idToken(base: string): Promise<string> {
    const oidc = oidcClient(base, {
      tenantId: DEFAULT_TENANT_ID,
      clientId: spaId,
      redirectUri: spaRedirect,
      defaultResources: [],
    });
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar, { scope: 'openid' });
    const callback = await oidc.followToCallback(jar, await oidc.submit(jar, signInPage, user.username, user.password));
    const response = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier);
    expect(response.status).toBe(200);
    return ((await response.json()) as { id_token: string }).id_token;
  }

  const jwksKids = async (base: string) => {
    const response = await fetch(`${base}/oidc/jwks`);
    return ((await response.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
  };

  beforeAll(async () => {
    server = await startTestHttpServer();
    // A second server instance on the same database: its own provider cache and its own key cache.
    // The same secrets key: both instances open what the other sealed (db/secret-box.ts).
    const config = loadConfig({ PUBLIC_URL: server.base, DATA_DIR: '.tmp/unused', SECRETS_KEY: TEST_SECRETS_KEY });
    const other = createHttpServer({
      config,
      db: server.database.db,
      tenants: new TenantDbs(server.database.db),
      keys: new SigningKeyStore(new TenantDbs(server.database.db)),
      log: pino({ level: 'silent' }),
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    second = {
      base: `http://127.0.0.1:${(other.address() as AddressInfo).port}`,
      close: async () => {
        other.closeAllConnections();
        await new Promise((resolve) => other.close(resolve));
      },
    };
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    machine = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'key rotation test');
    const token = await machineToken(server.base);
    expect((await api(server.base, token, '/users', { method: 'POST', body: user })).status).toBe(200);
    const spa = await api(server.base, token, '/applications', {
      method: 'POST',
      body: { name: 'rotation spa', type: 'SPA', oidcClientMetadata: { redirectUris: [spaRedirect] } },
    });
    spaId = String(spa.json.id);
  });
  afterAll(async () => {
    await second?.close();
    await server?.close();
  });

  it('a rotation made in one instance signs the next ID token in the other, and both keys are published', async () => {
    const before = await machineToken(server.base);
    const [oldKey] = (await api(server.base, before, '/configs/oidc/private-keys')).json as Key[];
    // Warm the second instance's caches (provider and verification keys) with the old key set.
    expect(decodeProtectedHeader(await idToken(second.base)).kid).toBe(oldKey?.id);
    expect((await api(second.base, before, '/roles')).status).toBe(200);

    const rotated = await api(server.base, before, '/configs/oidc/private-keys/rotate', {
      method: 'POST',
      body: { signingKeyAlgorithm: 'EC' },
    });
    expect(rotated.status).toBe(200);
    const newKey = (rotated.json as Key[])[0];

    const token = await idToken(second.base);
    expect(decodeProtectedHeader(token), 'signed by the new key, no restart').toMatchObject({
      alg: 'ES384',
      kid: newKey?.id,
    });
    expect(decodeJwt(token).aud).toBe(spaId);
    expect(new Set(await jwksKids(second.base))).toEqual(new Set([newKey?.id, oldKey?.id]));
    expect(await jwksKids(server.base)).toEqual(await jwksKids(second.base));

    const after = await machineToken(second.base);
    expect(decodeProtectedHeader(after).kid).toBe(newKey?.id);
    expect((await api(second.base, after, '/roles')).status, 'a new token verifies in the other instance').toBe(200);
    expect((await api(second.base, before, '/roles')).status, 'a token of the previous key still verifies').toBe(200);

    expect(
      (await api(second.base, after, `/configs/oidc/private-keys/${oldKey?.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    // The other instance learns of the deletion by a change notice (LISTEN/NOTIFY): within milliseconds, not before
    // the DELETE's answer, so the checks wait for it (a few seconds at most on a loaded machine).
    await expect
      .poll(() => jwksKids(server.base), { message: 'the deleted key is no longer published' })
      .toEqual([newKey?.id]);
    await expect.poll(async () => (await api(second.base, before, '/roles')).status).toBe(401);
  });

  it('a cookie-key rotation in one instance is used by the other for a sign-in started before it', async () => {
    const token = await machineToken(server.base);
    const oidc = oidcClient(second.base, {
      tenantId: DEFAULT_TENANT_ID,
      clientId: spaId,
      redirectUri: spaRedirect,
      defaultResources: [],
    });
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar, { scope: 'openid' });
    const rotated = await api(server.base, token, '/configs/oidc/cookie-keys/rotate', { method: 'POST', body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.json).toHaveLength(2);
    // The interaction cookie was signed with the previous key: the rebuilt provider still accepts it.
    const callback = await oidc.followToCallback(jar, await oidc.submit(jar, signInPage, user.username, user.password));
    const response = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier);
    expect(response.status).toBe(200);
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The real server process; resolves once it prints its console URL. */
function startProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'src', 'main.ts')], {
    // The OSS edition serves the default tenant's API at /api, whichever edition this run tests (keys are the same).
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', EDITION: 'oss', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Console: http:\/\/\S+\/console/.test(output)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

describe.skipIf(!testDatabaseUrl)(
  'rotation across two server processes on one PostgreSQL',
  { timeout: 120_000 },
  () => {
    it('a key rotated in one process is published and verified by the other at once; a deletion too', async () => {
      const database = await createTestDatabase();
      const children: ChildProcess[] = [];
      try {
        const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
        const machine = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'two processes');
        const [portA, portB] = [await freePort(), await freePort()];
        const publicUrl = `http://127.0.0.1:${portA}`;
        const env = { DATABASE_URL: database.url ?? '', PUBLIC_URL: publicUrl };
        children.push(
          ...(await Promise.all([
            startProcess({ ...env, PORT: String(portA) }),
            startProcess({ ...env, PORT: String(portB) }),
          ])),
        );
        const [a, b] = [publicUrl, `http://127.0.0.1:${portB}`];

        const tokenFrom = async (base: string) => {
          const response = await fetch(`${base}/oidc/token`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              Authorization: `Basic ${Buffer.from(`${machine.clientId}:${machine.clientSecret}`).toString('base64')}`,
            },
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              resource: managementResource(DEFAULT_TENANT_ID),
              scope: 'all',
            }),
          });
          expect(response.status).toBe(200);
          return ((await response.json()) as { access_token: string }).access_token;
        };
        const call = (base: string, token: string, path: string, method = 'GET') =>
          fetch(`${base}/api${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
        const kids = async (base: string) =>
          ((await (await fetch(`${base}/oidc/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);

        const before = await tokenFrom(a);
        const [oldKid] = await kids(b);
        expect((await call(b, before, '/roles')).status, 'process B has cached the old key set').toBe(200);

        const rotated = await fetch(`${a}/api/configs/oidc/private-keys/rotate`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${before}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ signingKeyAlgorithm: 'EC' }),
        });
        expect(rotated.status).toBe(200);
        const [newKey] = (await rotated.json()) as Key[];

        // B learns of the rotation by a change notice: within milliseconds of A's answer, so the check waits for it.
        await expect.poll(async () => new Set(await kids(b))).toEqual(new Set([newKey?.id, oldKid]));
        const after = await tokenFrom(b);
        expect(decodeProtectedHeader(after)).toMatchObject({ alg: 'ES384', kid: newKey?.id });
        expect((await call(b, after, '/roles')).status, 'B verifies its new token').toBe(200);
        expect((await call(a, after, '/roles')).status, 'A verifies it too').toBe(200);
        expect((await call(b, before, '/roles')).status, 'the previous key still verifies').toBe(200);

        expect((await call(b, after, `/configs/oidc/private-keys/${oldKid}`, 'DELETE')).status).toBe(204);
        await expect.poll(() => kids(a), { message: 'A no longer publishes the deleted key' }).toEqual([newKey?.id]);
      } finally {
        await Promise.all(
          children.map(
            (child) =>
              new Promise<void>((resolve) => {
                child.once('exit', () => resolve());
                child.kill('SIGTERM');
              }),
          ),
        );
        await database.close();
      }
    });
  },
);
