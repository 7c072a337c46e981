import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { dailyActiveUsers, users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { addDays, recordDailyActiveUser, utcDay } from '../src/services/daily-active-users.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { WebhookWorker } from '../src/services/webhooks-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { consoleClient } from './support/oidc-flow.ts';
import { expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

const today = utcDay();

describe('dashboard API (counts from the daily-active-users table and the user counter)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Marks each user active on each of the days `offsets` days from today (0 today, -1 yesterday…). */
  const activeOn = async (tenant: TenantDb, userIds: string[], offsets: number[]) => {
    for (const offset of offsets) {
      for (const userId of userIds)
        await tenant.insertIfAbsent(dailyActiveUsers, { day: addDays(today, offset), userId });
    }
  };

  it('every route needs a token with scope all', async () => {
    await expectGuarded(t, [
      { method: 'GET', path: '/api/dashboard/users/total' },
      { method: 'GET', path: '/api/dashboard/users/new' },
      { method: 'GET', path: '/api/dashboard/users/active' },
    ]);
  });

  it('refuses a date that is not a real YYYY-MM-DD day', async () => {
    for (const date of ['2026-13-01', '2026-02-30', '21-11-2026', 'yesterday', '2026-1-5']) {
      expectInvalid(await t.call(`/api/dashboard/users/active?date=${date}`), 'date', date);
    }
  });

  it('counts all users and new users today and in the last 7 days, with deltas', async () => {
    const before = await t.call('/api/dashboard/users/total');
    expect(before.status).toBe(200);
    const base = before.json.totalUserCount as number;
    const created: string[] = [];
    for (const username of ['dash_a', 'dash_b', 'dash_c', 'dash_d', 'dash_e']) {
      const response = await t.call('/api/users', { method: 'POST', body: { username } });
      expect(response.status).toBe(200);
      created.push(response.json.id as string);
    }
    expect((await t.call('/api/dashboard/users/total')).json, 'the counter follows the new users').toEqual({
      totalUserCount: base + 5,
    });

    // Move two of them back in time: one to yesterday, one to 10 days ago (the week before last).
    const tenant = ownTenant(t);
    const at = (offset: number) => new Date(Date.parse(`${addDays(today, offset)}T12:00:00.000Z`));
    await tenant.update(users, eq(users.id, created[0] ?? ''), { createdAt: at(-1) });
    await tenant.update(users, eq(users.id, created[1] ?? ''), { createdAt: at(-10) });

    const fresh = await t.call('/api/dashboard/users/new');
    expect(fresh.status).toBe(200);
    const todayCount = fresh.json.today.count as number;
    expect(todayCount, 'three created today (plus any seeded today)').toBeGreaterThanOrEqual(3);
    expect(fresh.json.today.delta, 'today minus yesterday (one)').toBe(todayCount - 1);
    expect(fresh.json.last7Days.count, 'today and yesterday are in the last 7 days').toBe(todayCount + 1);
    expect(fresh.json.last7Days.delta, 'minus the one from 10 days ago').toBe(todayCount + 1 - 1);
  });

  it('DAU, WAU and MAU end at the date, with deltas against the period before, and a 30-day curve', async () => {
    const tenant = new TenantDb(t.db, DEFAULT_TENANT_ID);
    // u1 active today and yesterday; u2 today; u3 five days ago; u4 twelve days ago; u5 forty days ago.
    await activeOn(tenant, ['u1'], [0, -1]);
    await activeOn(tenant, ['u2'], [0]);
    await activeOn(tenant, ['u3'], [-5]);
    await activeOn(tenant, ['u4'], [-12]);
    await activeOn(tenant, ['u5'], [-40]);

    const response = await t.call(`/api/dashboard/users/active?date=${today}`);
    expect(response.status).toBe(200);
    const { dau, wau, mau, dauCurve } = response.json;
    expect(dau, 'two today, one yesterday').toEqual({ count: 2, delta: 1 });
    expect(wau, 'u1 u2 u3 this week; u4 the week before').toEqual({ count: 3, delta: 2 });
    expect(mau, 'u1…u4 in 30 days; u5 in the 30 before').toEqual({ count: 4, delta: 3 });
    expect(dauCurve).toHaveLength(30);
    expect(dauCurve[29]).toEqual({ date: today, count: 2 });
    expect(dauCurve[28]).toEqual({ date: addDays(today, -1), count: 1 });
    expect(dauCurve[24]).toEqual({ date: addDays(today, -5), count: 1 });
    expect(dauCurve[0]).toEqual({ date: addDays(today, -29), count: 0 });
    expect(
      dauCurve.reduce((sum: number, point: { count: number }) => sum + point.count, 0),
      'every active day in the window, nothing outside it',
    ).toBe(5);

    const earlier = await t.call(`/api/dashboard/users/active?date=${addDays(today, -5)}`);
    expect(earlier.json.dau, 'the date moves the window').toEqual({ count: 1, delta: 1 });
    expect(earlier.json.dauCurve.at(-1)).toEqual({ date: addDays(today, -5), count: 1 });

    const byDefault = await t.call('/api/dashboard/users/active');
    expect(byDefault.json, 'no date means today').toEqual(response.json);
  });

  it('recording is idempotent per day and user', async () => {
    const tenant = ownTenant(t);
    await recordDailyActiveUser(tenant, 'twice');
    await recordDailyActiveUser(tenant, 'twice');
    const rows = await tenant.findMany(dailyActiveUsers, { where: eq(dailyActiveUsers.userId, 'twice') });
    expect(rows).toEqual([{ tenantId: DEFAULT_TENANT_ID, day: today, userId: 'twice' }]);
  });

  it("another tenant's activity and users are not counted", async () => {
    const read = async () => ({
      active: (await t.call('/api/dashboard/users/active')).json,
      total: (await t.call('/api/dashboard/users/total')).json,
      fresh: (await t.call('/api/dashboard/users/new')).json,
    });
    const mine = await read();
    const other = otherTenant(t);
    expect(other.tenantId).toBe(ADMIN_TENANT_ID);
    await activeOn(other, ['x1', 'x2', 'x3'], [0, -2]);
    await other.insert(users, { id: 'otherdash001', username: 'other_dash' });
    expect(await read(), 'the admin tenant’s users and activity stay out').toEqual(mine);
  });
});

describe('sign-in flows feed the dashboard and the PostSignIn webhook (real OIDC provider)', () => {
  let server: Awaited<ReturnType<typeof startTestHttpServer>>;
  let oidc: ReturnType<typeof consoleClient>;
  let adminApiToken = '';
  let receiver: Server;
  let receiverBase = '';
  const received: { path: string; body: string }[] = [];

  beforeAll(async () => {
    // Cloud edition: the admin tenant (console accounts) has a management API at /m/admin/api.
    server = await startTestHttpServer({ EDITION: 'cloud' });
    oidc = consoleClient(server.base);
    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    const app = await createManagementMachineApp(admin, { type: 'system', id: 'test' }, 'dashboard-test');
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

    receiver = createServer((request, reply) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        reply.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await server.close();
  });

  async function api(path: string, method = 'GET', body?: unknown) {
    const response = await fetch(`${server.base}/m/${ADMIN_TENANT_ID}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${adminApiToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: assertions read untyped JSON.
    return { status: response.status, json: (await response.json()) as any };
  }

  async function signIn(identifier: string, password: string) {
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar);
    const submitted = await oidc.submit(jar, signInPage, identifier, password);
    expect(submitted.status, `${identifier} signs in`).toBe(303);
    const callback = await oidc.followToCallback(jar, submitted);
    const tokens = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier, {
      resource: managementResource(DEFAULT_TENANT_ID),
    });
    expect(tokens.status).toBe(200);
    return (await tokens.json()) as { refresh_token: string };
  }

  it('a real sign-in makes the user active today, once however often they sign in', async () => {
    const before = (await api('/dashboard/users/active')).json;
    const created = await api('/users', 'POST', { username: 'dau_walker', password: 'Walk-The-Dog-42' });
    expect(created.status).toBe(200);
    expect((await api('/dashboard/users/active')).json.dau.count, 'creating a user is not activity').toBe(
      before.dau.count,
    );

    await signIn('dau_walker', 'Walk-The-Dog-42');
    const after = (await api('/dashboard/users/active')).json;
    expect(after.dau.count, 'the sign-in counts').toBe(before.dau.count + 1);
    expect(after.wau.count).toBe(before.wau.count + 1);
    expect(after.mau.count).toBe(before.mau.count + 1);
    expect(after.dauCurve.at(-1)).toEqual({ date: today, count: before.dau.count + 1 });

    await signIn('dau_walker', 'Walk-The-Dog-42');
    expect((await api('/dashboard/users/active')).json.dau.count, 'a second sign-in the same day').toBe(
      before.dau.count + 1,
    );

    const failed = await oidc.submit(
      new CookieJar(),
      (await oidc.startAuthorization(new CookieJar())).signInPage,
      'dau_walker',
      'wrong-password',
    );
    expect(failed.status).not.toBe(303);
  });

  it('a refresh-token grant marks the user active (token issuance counts, not only passwords)', async () => {
    const created = await api('/users', 'POST', { username: 'dau_refresher', password: 'Refresh-Me-Often-7' });
    const userId = created.json.id as string;
    const tokens = await signIn('dau_refresher', 'Refresh-Me-Often-7');
    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    // The refresh comes the next day: only the refresh can mark the user active on that day. (The provider writes a
    // user's first grant of each day; a second one the same day would insert nothing.)
    const tomorrow = addDays(today, 1);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(`${tomorrow}T12:00:00.000Z`) });
    try {
      const refreshed = await oidc.refresh(tokens.refresh_token, managementResource(DEFAULT_TENANT_ID));
      expect(refreshed.status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    // The grant listener records without holding up the token response: wait for its row.
    await expect
      .poll(() => admin.findMany(dailyActiveUsers, { where: eq(dailyActiveUsers.userId, userId) }))
      .toContainEqual({ tenantId: ADMIN_TENANT_ID, day: tomorrow, userId });
  });

  it('a sign-in emits PostSignIn to a hook, with the user, application, ip and user agent', async () => {
    const hook = await api('/hooks', 'POST', {
      name: 'Sign-ins',
      events: ['PostSignIn'],
      config: { url: `${receiverBase}/sign-ins` },
    });
    expect(hook.status, JSON.stringify(hook.json)).toBe(201);
    const created = await api('/users', 'POST', { username: 'hooked_walker', password: 'Hook-Line-Sinker-9' });
    await signIn('hooked_walker', 'Hook-Line-Sinker-9');
    await new WebhookWorker({ db: server.database.db, backoffMs: () => 0, timeoutMs: 2000 }).drain();

    const deliveries = received.map((request) => JSON.parse(request.body));
    const mine = deliveries.filter((body) => body.data?.userId === created.json.id);
    expect(mine, 'one delivery for the sign-in').toHaveLength(1);
    expect(mine[0]).toMatchObject({
      hookId: hook.json.id,
      event: 'PostSignIn',
      actor: { type: 'user', id: created.json.id },
      data: {
        interactionEvent: 'SignIn',
        user: { id: created.json.id, username: 'hooked_walker', hasPassword: true },
        application: { id: 'admin-console' },
        ip: '127.0.0.1',
      },
    });
    expect(mine[0].data.user, 'never the password hash').not.toHaveProperty('passwordEncrypted');
    expect(typeof mine[0].data.userAgent).toBe('string');
  });
});
