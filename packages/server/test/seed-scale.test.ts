import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TENANT_ID, emailRegex, phoneRegex, usernameRegex, userSchema } from '@gatehouse/schemas';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import {
  countLogs,
  SEED_APPLICATIONS,
  SEED_LOG_KEYS,
  SEED_ROLES,
  SEED_STATE_KEY,
  SeedError,
  type SeedProgress,
  seedScale,
} from '../src/seed/scale.ts';
import { attemptSignIn } from '../src/services/sign-in.ts';
import { countTenantUsers } from '../src/services/user-search.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/** The seed tool on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL): valid, exact, repeatable. */

let t: TestApp;
let kind: 'pglite' | 'postgres';
let password: string | undefined;
const progress: SeedProgress[] = [];
beforeAll(async () => {
  t = await createTestApp();
  kind = t.database.kind;
  const report = await seedScale(t.db, kind, {
    tenantId: DEFAULT_TENANT_ID,
    users: 500,
    logs: 2000,
    // Small batches, so the test crosses batch boundaries.
    batchSize: { users: 120, logs: 700 },
    onProgress: (event) => progress.push(event),
  });
  password = report.password;
  expect(report.users).toMatchObject({ after: 500 });
  expect(report.logs).toMatchObject({ after: 2000 });
});
afterAll(() => t.close());

type Rows = { rows: Record<string, unknown>[] };
const query = async (statement: ReturnType<typeof sql>) => ((await t.db.execute(statement)) as unknown as Rows).rows;
const total = (response: { headers: Headers }) => Number(response.headers.get('Total-Number'));

describe('seed tool', () => {
  it('fills the tenant up to the targets in batches, with an exact trigger-kept counter', async () => {
    const tenant = new TenantDb(t.db, DEFAULT_TENANT_ID);
    expect(await tenant.count(users)).toBe(500);
    expect(await countTenantUsers(tenant)).toBe(500);
    expect(await countLogs(t.db, DEFAULT_TENANT_ID)).toBe(2000);
    const userBatches = progress.filter((event) => event.table === 'users' && event.phase === 'rows');
    expect(userBatches.map((event) => event.done)).toEqual([120, 240, 360, 480, 500]);
    expect(progress.filter((event) => event.table === 'logs').at(-1)).toMatchObject({ done: 2000, total: 2000 });
  });

  it('makes users the API lists with valid, varied identifiers, suspensions and roles', async () => {
    const page = await t.call('/api/users?page_size=100');
    expect(page.status).toBe(200);
    expect(total(page)).toBe(500);
    expect(page.headers.get('Total-Number-Is-Capped')).toBeNull();
    const listed = page.json as unknown[];
    expect(listed).toHaveLength(100);
    for (const user of listed) expect(userSchema.safeParse(user).success).toBe(true);

    const rows = await query(sql`select username, primary_email, primary_phone, name, is_suspended,
      password_encrypted is not null as has_password from users where tenant_id = ${DEFAULT_TENANT_ID}`);
    for (const row of rows) {
      expect(row.username ?? row.primary_email ?? row.primary_phone, 'every user has an identifier').toBeTruthy();
      if (row.username) expect(String(row.username)).toMatch(usernameRegex);
      if (row.primary_email) expect(String(row.primary_email)).toMatch(emailRegex);
      if (row.primary_phone) expect(String(row.primary_phone)).toMatch(phoneRegex);
    }
    const share = (test: (row: Record<string, unknown>) => boolean) => rows.filter(test).length / rows.length;
    expect(share((row) => row.username === null)).toBeGreaterThan(0.05);
    expect(share((row) => row.primary_email === null)).toBeGreaterThan(0.02);
    expect(share((row) => row.primary_phone !== null)).toBeGreaterThan(0.2);
    expect(share((row) => row.has_password === true)).toBeGreaterThan(0.7);
    expect(share((row) => row.has_password === true)).toBeLessThan(0.95);
    expect(new Set(rows.map((row) => String(row.name).split(' ')[1])).size, 'varied last names').toBeGreaterThan(20);
    expect(
      rows.some((row) => /[^\p{ASCII}]/u.test(String(row.name))),
      'names beyond ASCII',
    ).toBe(true);

    const suspended = await t.call('/api/users?isSuspended=true&page_size=1');
    expect(total(suspended)).toBe(rows.filter((row) => row.is_suspended).length);
    const roles = await query(
      sql`select id, name from roles where tenant_id = ${DEFAULT_TENANT_ID} and id like 'seed-role-%'`,
    );
    expect(roles.map((role) => role.name).sort()).toEqual(SEED_ROLES.map((role) => role.name).sort());
    const holders = await query(sql`select count(distinct user_id) as holders from users_roles
      where tenant_id = ${DEFAULT_TENANT_ID} and role_id like 'seed-role-%'`);
    const held = Number(holders[0]?.holders);
    expect(held).toBeGreaterThan(20);
    expect(held).toBeLessThan(120);
    const roleId = String(roles[0]?.id);
    const byRole = await t.call(`/api/users?roleId=${roleId}&page_size=1`);
    const [counted] = await query(
      sql`select count(*) as n from users_roles where tenant_id = ${DEFAULT_TENANT_ID} and role_id = ${roleId}`,
    );
    expect(total(byRole)).toBe(Number(counted?.n));
  });

  it('makes users the substring search finds one by one', async () => {
    const [row] = await query(sql`select id, username, primary_email from users
      where tenant_id = ${DEFAULT_TENANT_ID} and username is not null and primary_email is not null
      order by created_at desc limit 1`);
    const byEmail = await t.call(`/api/users?search=${encodeURIComponent(String(row?.primary_email))}`);
    expect(total(byEmail)).toBe(1);
    expect((byEmail.json as { id: string }[])[0]?.id).toBe(row?.id);
    const byUsername = await t.call(`/api/users?search=${encodeURIComponent(String(row?.username).toUpperCase())}`);
    expect((byUsername.json as { id: string }[]).map((user) => user.id)).toContain(row?.id);
  });

  it('gives seeded users with a password the reported one (Argon2id), so they can sign in', async () => {
    expect(password).toBeTruthy();
    const [row] = await query(sql`select id, username from users where tenant_id = ${DEFAULT_TENANT_ID}
      and username is not null and password_encrypted is not null and not is_suspended limit 1`);
    const tenant = new TenantDb(t.db, DEFAULT_TENANT_ID);
    const result = await attemptSignIn(tenant, { identifier: String(row?.username), password: String(password) });
    expect(result).toMatchObject({ ok: true, userId: row?.id });
    const wrong = await attemptSignIn(tenant, { identifier: String(row?.username), password: 'not-the-password' });
    expect(wrong.ok).toBe(false);
  });

  it('makes audit-log rows the logs API filters by user, with catalogue keys and seeded applications', async () => {
    // The busiest seeded user, leaving out the one the sign-in test above signed in (its real sign-in entries carry
    // no payload.userId, unlike the seeded ones, and would make it the busiest on a tie).
    const [busiest] = await query(sql`select user_id, count(*) as n from logs
      where tenant_id = ${DEFAULT_TENANT_ID} and user_id is not null
        and user_id not in (select user_id from logs where tenant_id = ${DEFAULT_TENANT_ID}
          and key = 'Interaction.SignIn.Submit' and user_id is not null and not (payload ? 'userId'))
      group by user_id order by n desc limit 1`);
    const userId = String(busiest?.user_id);
    const [existing] = await query(
      sql`select count(*) as n from users where tenant_id = ${DEFAULT_TENANT_ID} and id = ${userId}`,
    );
    expect(Number(existing?.n), 'log rows name seeded users').toBe(1);
    const page = await t.call(`/api/logs?userId=${userId}&page_size=100`);
    expect(page.status).toBe(200);
    expect(total(page)).toBe(Number(busiest?.n));
    const entries = page.json as {
      key: string;
      payload: { userId?: string; result: string; applicationId?: string };
    }[];
    expect(entries.length).toBe(Math.min(100, Number(busiest?.n)));
    for (const entry of entries) expect(entry.payload.userId).toBe(userId);

    const keys = await query(sql`select key, count(*) as n, min(created_at) as oldest, max(created_at) as newest
      from logs where tenant_id = ${DEFAULT_TENANT_ID} group by key`);
    const catalogue = SEED_LOG_KEYS.map((entry) => entry.key as string);
    for (const row of keys) expect(catalogue).toContain(row.key);
    expect(keys.length).toBeGreaterThanOrEqual(8);
    const oldest = Math.min(...keys.map((row) => new Date(String(row.oldest)).getTime()));
    const newest = Math.max(...keys.map((row) => new Date(String(row.newest)).getTime()));
    expect(newest - oldest, 'spread over about 30 days').toBeGreaterThan(28 * 86_400_000);
    expect(Date.now() - oldest).toBeLessThan(31 * 86_400_000);

    const applicationId = SEED_APPLICATIONS[0].id;
    const byApp = await t.call(`/api/logs?applicationId=${applicationId}&page_size=5`);
    expect(total(byApp)).toBeGreaterThan(0);
    const app = await t.call(`/api/applications/${applicationId}`);
    expect(app.status).toBe(200);
    const signIns = await t.call('/api/logs?logKey=Interaction.SignIn.Submit&page_size=1');
    expect(total(signIns)).toBeGreaterThan(300);
    const results = await query(sql`select distinct payload->>'result' as result from logs
      where tenant_id = ${DEFAULT_TENANT_ID} and key = 'Interaction.SignIn.Submit' order by 1`);
    expect(results.map((row) => row.result)).toEqual(['Error', 'Success']);
  });

  it('adds only what is missing on a second run, continuing after the rows it made before', async () => {
    // The sign-in test above wrote two audit-log rows of its own: they count towards the target.
    const logs = await countLogs(t.db, DEFAULT_TENANT_ID);
    expect(logs).toBeGreaterThanOrEqual(2000);
    const again = await seedScale(t.db, kind, { tenantId: DEFAULT_TENANT_ID, users: 500, logs: 2000 });
    expect(again.users).toMatchObject({ before: 500, after: 500, added: 0 });
    expect(again.logs).toMatchObject({ before: logs, after: logs, added: 0 });
    expect(again.password).toBeUndefined();

    const more = await seedScale(t.db, kind, { tenantId: DEFAULT_TENANT_ID, users: 650, logs: 2600 });
    expect(more.users).toMatchObject({ before: 500, after: 650, added: 150 });
    expect(more.logs).toMatchObject({ before: logs, after: 2600, added: 2600 - logs });
    const page = await t.call('/api/users?page_size=1');
    expect(total(page)).toBe(650);
    const [state] = await query(
      sql`select value from tenant_configs where tenant_id = ${DEFAULT_TENANT_ID} and key = ${SEED_STATE_KEY}`,
    );
    expect(state?.value).toMatchObject({ userSerial: 650, logSerial: 2000 + (2600 - logs) });
    expect(more.runs.at(-1)).toMatchObject({ usersAdded: 150, logsAdded: 2600 - logs });
  });

  it('subscribes the tenant to the plan asked for (the quotas and retention of the cloud edition)', async () => {
    const planOf = async () =>
      (await query(sql`select plan_id from tenant_subscriptions where tenant_id = ${DEFAULT_TENANT_ID}`))[0]?.plan_id;
    const users = (await seedScale(t.db, kind, { tenantId: DEFAULT_TENANT_ID, users: 1, logs: 0, plan: 'Admin' })).users
      .after;
    expect(await planOf()).toBe('Admin');
    await seedScale(t.db, kind, { tenantId: DEFAULT_TENANT_ID, users, logs: 0, plan: 'Free' });
    expect(await planOf(), 'a second run changes it').toBe('Free');
  });

  it('bulk-loads into a new tenant and rebuilds exactly the indexes it dropped', async () => {
    const indexes = async () =>
      query(
        sql`select tablename, indexname, indexdef from pg_indexes where tablename in ('users', 'logs') order by indexname`,
      );
    const before = await indexes();
    await expect(seedScale(t.db, kind, { tenantId: 'seed-bulk', users: 10, logs: 0 })).rejects.toThrow(SeedError);
    const phases: SeedProgress[] = [];
    const report = await seedScale(t.db, kind, {
      tenantId: 'seed-bulk',
      createTenant: true,
      users: 900,
      logs: 3000,
      bulkMinRows: 100,
      batchSize: { users: 400, logs: 1000 },
      onProgress: (event) => phases.push(event),
    });
    expect(report.users.after).toBe(900);
    expect(report.logs.after).toBe(3000);
    expect(phases.filter((event) => event.phase === 'indexes').map((event) => event.table)).toEqual(['users', 'logs']);
    expect(await indexes()).toEqual(before);
    const bulkTenant = new TenantDb(t.db, 'seed-bulk');
    expect(await countTenantUsers(bulkTenant)).toBe(900);
    expect(await bulkTenant.count(users)).toBe(900);
    expect(await countTenantUsers(new TenantDb(t.db, DEFAULT_TENANT_ID)), 'the other tenant is untouched').toBe(650);
    const [bulkUser] = await query(
      sql`select primary_email from users where tenant_id = 'seed-bulk' and primary_email is not null limit 1`,
    );
    const [defaultTwin] = await query(
      sql`select count(*) as n from users where tenant_id = ${DEFAULT_TENANT_ID} and primary_email = ${String(bulkUser?.primary_email)}`,
    );
    expect(Number(defaultTwin?.n), 'ids and identifiers derive from the tenant too').toBeLessThanOrEqual(1);
  });

  it('refuses audit-log rows before any seeded user, and unknown tenants', async () => {
    await expect(seedScale(t.db, kind, { tenantId: 'nowhere', users: 1, logs: 0 })).rejects.toThrow(
      'no tenant "nowhere"',
    );
    await seedScale(t.db, kind, { tenantId: 'seed-empty', createTenant: true, users: 0, logs: 0 });
    await expect(seedScale(t.db, kind, { tenantId: 'seed-empty', users: 0, logs: 10 })).rejects.toThrow(
      'seed users first',
    );
  });
});

describe('seed command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-seed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // The embedded database, even when the suite runs on PostgreSQL.
  const { DATABASE_URL: _server, ...inherited } = process.env;
  const cli = (args: string[]) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'src', 'cli.ts'), 'seed', ...args], {
      env: { ...inherited, DATA_DIR: dir, EDITION: 'oss', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.once('exit', (code) => resolve({ code, stdout, stderr })),
    );
  };

  it('rejects bad counts with one line and the usage', { timeout: 60_000 }, async () => {
    const result = await cli(['--users', 'many']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--users must be a whole number of users');
    expect(result.stdout).toBe('');
  });

  // A fresh embedded database (initdb + migrations) in a child process: slow on a busy machine.
  it('seeds the embedded database, reports progress on stderr and the figures as JSON on stdout', {
    timeout: 180_000,
  }, async () => {
    const result = await cli(['--users', '1_000', '--logs', '1,500', '--password', 'demo-password-1']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('1,000 users added in');
    expect(result.stderr).toContain('Seeded users with a password have: demo-password-1');
    const report = JSON.parse(result.stdout) as { users: { after: number }; logs: { after: number } };
    expect(report.users.after).toBe(1000);
    expect(report.logs.after).toBe(1500);
    const again = await cli(['--users', '1000', '--logs', '1500']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('1,000 users already there, none added');
  });
});
