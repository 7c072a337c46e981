import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './support/database.ts';

const main = join(import.meta.dirname, '..', 'src', 'main.ts');
const children = new Set<ChildProcess>();
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-startup-'));
  dirs.push(dir);
  return dir;
}

type Started = { url: string; child: ChildProcess; output: () => string };

/** Runs the real server process and resolves with its console URL once it prints it. */
function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Console: (http:\/\/\S+)\/console/.exec(output);
      if (match?.[1]) resolve({ url: match[1], child, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [main], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr, stdout })));
}

// Each test starts real processes one after another; on a loaded 2-core machine that can take a minute. The
// limit only guards against a hang (no test here measures time).
// The embedded database's start-up runs in the PGlite suite; the PostgreSQL suite has its own start-up test below.
describe.skipIf(testDatabaseUrl)('server start-up on the embedded database', { timeout: 120_000 }, () => {
  it('migrates a new data directory, serves, stops cleanly and starts again on the same data', async () => {
    const dataDir = tempDir();
    const first = await start({ DATA_DIR: dataDir, ADMIN_USERNAME: 'first_admin', ADMIN_PASSWORD: 'correct-horse-1' });
    expect((await fetch(`${first.url}/api/status`)).status).toBe(204);
    expect(first.output()).toContain('Console: http://localhost:');
    expect(await stop(first.child), 'SIGTERM exits 0 after closing the database').toBe(0);

    const second = await start({ DATA_DIR: dataDir, ADMIN_USERNAME: 'other_admin', ADMIN_PASSWORD: 'correct-horse-2' });
    const response = await fetch(`${second.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    await stop(second.child);

    // The data survived and only the first admin exists: ADMIN_* only acts while no admin exists.
    const { PGlite } = await import('@electric-sql/pglite');
    const db = new PGlite(join(dataDir, 'db'));
    const users = await db.query<{ username: string; method: string }>(
      "select username, password_encryption_method as method from users where tenant_id = 'admin'",
    );
    expect(users.rows).toEqual([{ username: 'first_admin', method: 'Argon2id' }]);
    const audit = await db.query<{ key: string }>("select key from logs where tenant_id = 'admin'");
    expect(
      audit.rows.map((row) => row.key),
      'creating the admin is audited',
    ).toContain('Admin.User.Created');
    await db.close();
  });

  it('stops with one clear line naming a bad variable', async () => {
    const result = await runToExit({ PORT: 'not-a-port', DATA_DIR: tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid configuration: PORT must be an integer from 0 to 65535 (got "not-a-port")',
    );
  });

  it('reports an unreachable database and exits non-zero', async () => {
    const result = await runToExit({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'silent' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Start-up failed: .*ECONNREFUSED/);
  });
});

describe.skipIf(!testDatabaseUrl)('server start-up on PostgreSQL', () => {
  it('two processes starting together migrate once and both serve', async () => {
    const name = `gatehouse_startup_${process.pid}`;
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
    const url = new URL(testDatabaseUrl ?? '');
    url.pathname = `/${name}`;
    try {
      const env = { DATABASE_URL: url.toString(), ADMIN_USERNAME: 'race_admin', ADMIN_PASSWORD: 'race-password-1' };
      const [a, b] = await Promise.all([start(env), start(env)]);
      expect((await fetch(`${a.url}/api/status`)).status).toBe(204);
      expect((await fetch(`${b.url}/api/status`)).status).toBe(204);
      await Promise.all([stop(a.child), stop(b.child)]);
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const migrations = await check.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      const tenants = await check.query('select count(*)::int as n from tenants');
      const admins = await check.query("select count(*)::int as n from users where tenant_id = 'admin'");
      await check.end();
      const journal = JSON.parse(
        readFileSync(join(import.meta.dirname, '..', 'src', 'db', 'migrations', 'meta', '_journal.json'), 'utf8'),
      );
      expect(migrations.rows[0].n, 'each migration recorded once').toBe(journal.entries.length);
      expect(tenants.rows[0].n).toBe(2);
      expect(admins.rows[0].n, 'one first admin').toBe(1);
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
