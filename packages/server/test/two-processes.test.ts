import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { CLIENT_AUTH_LIMITS } from '../src/auth/oidc/client-auth-throttle.ts';
import { type DatabaseHandle, openPostgres } from '../src/db/client.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { FailureThrottle } from '../src/services/failure-throttle.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { createTestDatabase } from './support/database.ts';
import { startTestHttpServer } from './support/http-server.ts';

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
  two = await startTestHttpServer({}, { database: second ?? database });
});
afterAll(async () => {
  await one.close();
  await two.close();
  await second?.close();
  await database.close();
});

function requestToken(base: string, clientId: string, clientSecret: string) {
  return fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      resource: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    }),
  });
}

describe('two servers on one database', () => {
  it('refuse a client guessed at on the other one, even with the right secret', async () => {
    const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
    const { clientId, clientSecret } = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'x');
    expect((await requestToken(two.base, clientId, clientSecret)).status, 'the right secret works').toBe(200);
    // Half the address's allowance on each server: together they reach it.
    const statuses: number[] = [];
    for (let i = 0; i < CLIENT_AUTH_LIMITS.perIp; i++) {
      statuses.push((await requestToken(i % 2 ? one.base : two.base, clientId, `wrong-${i}`)).status);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    for (const base of [one.base, two.base]) {
      const refused = await requestToken(base, clientId, clientSecret);
      expect(refused.status, `${base} refuses`).toBe(429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    }
  });
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
