import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_AUTH_LIMITS } from '../src/auth/oidc/client-auth-throttle.ts';
import { type DatabaseHandle, openPostgres } from '../src/db/client.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { FailureThrottle } from '../src/services/failure-throttle.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { attemptSignIn, LOCKOUT, SIGN_IN_IP_LIMIT } from '../src/services/sign-in.ts';
import { createUser } from '../src/services/users.ts';
import { createTestDatabase, testDatabaseUrl } from './support/database.ts';
import { bootstrapManagementToken, requestManagementToken, startTestHttpServer } from './support/http-server.ts';

// Issue 38: two server processes on one database behave as one service. Two HTTP servers run here on one database
// (on PostgreSQL each with its own connection pool, as two processes would have); what one counts, the other sees.
let database: DatabaseHandle & { url?: string };
let second: DatabaseHandle | undefined;
let one: Awaited<ReturnType<typeof startTestHttpServer>>;
let two: Awaited<ReturnType<typeof startTestHttpServer>>;

beforeAll(async () => {
  database = await createTestDatabase();
  second = database.url ? await openPostgres(database.url, 4) : undefined;
  one = await startTestHttpServer({}, { database });
  // One public address, as two processes behind one proxy have: tokens of one are valid at the other.
  two = await startTestHttpServer({ PUBLIC_URL: one.base }, { database: second ?? database });
});
afterAll(async () => {
  await one.close();
  await two.close();
  await second?.close();
  await database.close();
});

const requestToken = requestManagementToken;

describe('two servers on one database', () => {
  it('refuse a client guessed at on the other one, even with the right secret', async () => {
    const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
    const { clientId, clientSecret } = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'x');
    expect((await requestToken(two.base, clientId, clientSecret)).status, 'the right secret works').toBe(200);
    // Half the address's allowance on each server: together they reach it.
    const statuses: number[] = [];
    for (let i = 0; i < CLIENT_AUTH_LIMITS.perAddressAndClient; i++) {
      statuses.push((await requestToken(i % 2 ? one.base : two.base, clientId, `wrong-${i}`)).status);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    for (const base of [one.base, two.base]) {
      const refused = await requestToken(base, clientId, clientSecret);
      expect(refused.status, `${base} refuses`).toBe(429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    }
    // The address is this test's own (127.0.0.1): the tests below need it served again.
    await database.db.execute(sql`delete from failure_windows`);
  });
});

describe('the sign-in lockout on two servers (issue 39, item 7)', () => {
  it("locks an account on both after wrong passwords sent through either's connections", async () => {
    // Each "process" with its own pool (PostgreSQL) and its own address throttle, as two processes have.
    const pools = [database.db, second?.db ?? database.db];
    const tenants = pools.map((db) => new TenantDb(db, DEFAULT_TENANT_ID));
    const throttles = pools.map((db) => new FailureThrottle(db, SIGN_IN_IP_LIMIT.windowMinutes * 60_000));
    const [first] = tenants;
    if (!first) throw new Error('no tenant');
    await createUser(
      { tenant: first, actor: { type: 'system', id: 'test' } },
      { username: 'two_servers', password: 'Right-Password-42' },
    );
    for (let i = 0; i < LOCKOUT.maxFailures; i++) {
      const result = await attemptSignIn(tenants[i % 2] ?? first, {
        identifier: 'two_servers',
        password: `wrong-${i}`,
        ip: `198.51.100.${i + 1}`,
        ipThrottle: throttles[i % 2],
      });
      expect(result).toEqual({ ok: false, reason: 'invalid' });
    }
    for (const [index, tenant] of tenants.entries()) {
      const right = await attemptSignIn(tenant, {
        identifier: 'two_servers',
        password: 'Right-Password-42',
        ip: '198.51.100.99',
        ipThrottle: throttles[index],
      });
      expect(right, `server ${index + 1} refuses the right password too`).toMatchObject({
        ok: false,
        reason: 'locked',
      });
    }
  });
});

describe('change notices', () => {
  it('a signing key removed through one server stops verifying on the other at once', async () => {
    const token = await bootstrapManagementToken(one);
    const call = (base: string, path: string, init: RequestInit = {}) =>
      fetch(`${base}/api${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      });
    // The second server verifies the token, and so caches the key set that signed it.
    expect((await call(two.base, '/applications')).status).toBe(200);
    const rotated = await call(one.base, '/configs/oidc/private-keys/rotate', { method: 'POST', body: '{}' });
    expect(rotated.status).toBe(200);
    const [, previous] = (await rotated.json()) as { id: string }[];
    if (!previous) throw new Error('no previous key after the rotation');
    expect((await call(one.base, `/configs/oidc/private-keys/${previous.id}`, { method: 'DELETE' })).status).toBe(204);
    // Its cache would have kept the removed key for a minute; the notice arrives within milliseconds.
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await call(two.base, '/applications')).status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status, 'the token signed by the removed key').toBe(401);
  });

  it('a rotation through one server signs its own next token with the new key, and the other one soon after', async () => {
    const token = await bootstrapManagementToken(one);
    const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
    const app = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'kid probe');
    const kidOf = async (base: string) => {
      const response = await requestToken(base, app.clientId, app.clientSecret);
      const { access_token: issued } = (await response.json()) as { access_token: string };
      return (JSON.parse(Buffer.from(issued.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;
    };
    // Both servers have built the tenant's provider (and cached it).
    await kidOf(one.base);
    await kidOf(two.base);
    const rotated = await fetch(`${one.base}/api/configs/oidc/private-keys/rotate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const [current] = (await rotated.json()) as { id: string }[];
    expect(await kidOf(one.base), 'the rotating server, at its very next request').toBe(current?.id);
    await expect.poll(() => kidOf(two.base), { timeout: 15_000, interval: 50 }).toBe(current?.id);
  });

  it('a custom JWT script saved through one server shapes the next token of either (providers keep token settings)', async () => {
    const token = await bootstrapManagementToken(one);
    const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
    const app = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'claims probe');
    const claimsOf = async (base: string) => {
      const response = await requestToken(base, app.clientId, app.clientSecret);
      const { access_token: issued } = (await response.json()) as { access_token: string };
      return JSON.parse(Buffer.from(issued.split('.')[1] ?? '', 'base64url').toString()) as { tier?: string };
    };
    // Both providers have read the token settings (no script yet) and keep them.
    expect((await claimsOf(one.base)).tier).toBeUndefined();
    expect((await claimsOf(two.base)).tier).toBeUndefined();
    const saved = await fetch(`${one.base}/api/configs/jwt-customizer/client-credentials`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ script: "const getCustomJwtClaims = async () => ({ tier: 'gold' });" }),
    });
    expect(saved.status).toBe(201);
    expect((await claimsOf(one.base)).tier, 'the saving server, at its very next token').toBe('gold');
    await expect.poll(async () => (await claimsOf(two.base)).tier, { timeout: 15_000, interval: 50 }).toBe('gold');
    await fetch(`${one.base}/api/configs/jwt-customizer/client-credentials`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    await expect.poll(async () => (await claimsOf(two.base)).tier, { timeout: 15_000, interval: 50 }).toBeUndefined();
  });

  it('a named secret or an application removed through one server stops authenticating on both (clients are cached)', async () => {
    const token = await bootstrapManagementToken(one);
    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${one.base}/api${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      });
    const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
    const app = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'cached client');
    const created = await call(`/applications/${app.clientId}/secrets`, {
      method: 'POST',
      body: JSON.stringify({ name: 'ci' }),
    });
    expect(created.status).toBe(201);
    const { value: named } = (await created.json()) as { value: string };
    // Both servers authenticate with both secrets, and so keep the application and its named secrets.
    for (const base of [one.base, two.base])
      for (const secret of [named, app.clientSecret])
        expect((await requestToken(base, app.clientId, secret)).status, `${base} before`).toBe(200);
    expect((await call(`/applications/${app.clientId}/secrets/ci`, { method: 'DELETE' })).status).toBe(204);
    expect((await requestToken(one.base, app.clientId, named)).status, 'the deleting server, at once').toBe(401);
    await expect
      .poll(async () => (await requestToken(two.base, app.clientId, named)).status, { timeout: 15_000, interval: 50 })
      .toBe(401);
    expect((await requestToken(two.base, app.clientId, app.clientSecret)).status, 'the internal secret').toBe(200);
    expect((await call(`/applications/${app.clientId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await requestToken(one.base, app.clientId, app.clientSecret)).status, 'deleted, at once').toBe(401);
    await expect
      .poll(async () => (await requestToken(two.base, app.clientId, app.clientSecret)).status, {
        timeout: 15_000,
        interval: 50,
      })
      .toBe(401);
  });

  it("a scope taken from a machine role through one server leaves both servers' next tokens (grants are cached)", async () => {
    const token = await bootstrapManagementToken(one);
    type Answer = { status: number; json: { id: string } };
    const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
      const response = await fetch(`${one.base}/api${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : { id: '' } };
    };
    const indicator = 'https://cached-grants.example.com';
    const resource = await call('/resources', { method: 'POST', body: JSON.stringify({ name: 'Cached', indicator }) });
    const scope = await call(`/resources/${resource.json.id}/scopes`, {
      method: 'POST',
      body: JSON.stringify({ name: 'read:cached' }),
    });
    const role = await call('/roles', {
      method: 'POST',
      body: JSON.stringify({ name: 'cached grants', type: 'MachineToMachine', scopeIds: [scope.json.id] }),
    });
    expect(role.status).toBe(200);
    const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
    const app = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'cached grants');
    const assigned = await call(`/applications/${app.clientId}/roles`, {
      method: 'POST',
      body: JSON.stringify({ roleIds: [role.json.id] }),
    });
    expect(assigned.status).toBe(201);
    const scopeOf = async (base: string) => {
      const response = await fetch(`${base}/oidc/token`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: indicator, scope: 'read:cached' }),
      });
      return ((await response.json()) as { scope?: string }).scope ?? '';
    };
    expect(await scopeOf(one.base)).toBe('read:cached');
    expect(await scopeOf(two.base)).toBe('read:cached');
    expect((await call(`/roles/${role.json.id}/scopes/${scope.json.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await scopeOf(one.base), 'the changing server, at its very next token').toBe('');
    await expect.poll(() => scopeOf(two.base), { timeout: 15_000, interval: 50 }).toBe('');
  });

  it.skipIf(!testDatabaseUrl)(
    'listens again after its connection is dropped, and says notices may be missed',
    async () => {
      const url = database.url;
      if (!url) throw new Error('PostgreSQL only');
      const heard: string[] = [];
      const stop = await database.listen('gatehouse_test_channel', {
        notice: (payload) => heard.push(payload),
        reset: () => heard.push('reset'),
      });
      try {
        const notify = (payload: string) =>
          database.db.execute(sql`select pg_notify('gatehouse_test_channel', ${payload})`);
        const until = async (what: string) => {
          const deadline = Date.now() + 20_000;
          while (!heard.includes(what) && Date.now() < deadline)
            await new Promise((resolve) => setTimeout(resolve, 20));
          expect(heard).toContain(what);
        };
        await notify('first');
        await until('first');
        await database.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity
            where query = 'listen "gatehouse_test_channel"' and datname = current_database()`,
        );
        await until('reset');
        await notify('after');
        await until('after');
      } finally {
        await stop();
      }
    },
  );
});

describe('FailureThrottle', () => {
  it('counts per key within a window across instances, and forgets after it', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const clock = () => now;
    const a = new FailureThrottle(database.db, 60_000, clock);
    const b = new FailureThrottle(second?.db ?? database.db, 60_000, clock);
    const key = ['throttle-test 10.0.0.1', 3] as const;
    const other = ['throttle-test 10.0.0.2', 3] as const;
    await a.fail([key]);
    await b.fail([key, other]);
    expect(await a.retryAfter([key]), 'under the limit').toBe(0);
    await a.fail([key]);
    expect(await b.retryAfter([key]), 'three failures, two instances').toBe(60);
    expect(await b.retryAfter([other]), 'another key is not affected').toBe(0);
    expect(await b.retryAfter([other, key]), 'the longest wait of the keys').toBe(60);
    now += 30_000;
    expect(await a.retryAfter([key])).toBe(30);
    now += 30_001;
    expect(await a.retryAfter([key]), 'the window is over').toBe(0);
    await b.fail([key]);
    expect(await a.retryAfter([key]), 'a new window counts from one').toBe(0);
    expect(await a.retryAfter([]), 'no keys').toBe(0);
  });
});
