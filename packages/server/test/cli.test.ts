import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..', 'src');
const dirs: string[] = [];
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
  dirs.push(dir);
  return dir;
}

function cli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [join(src, 'cli.ts'), ...args], {
    env: { ...process.env, EDITION: 'oss', LOG_LEVEL: 'silent', ...env },
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
}

function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(src, 'main.ts')], {
    env: { ...process.env, EDITION: 'oss', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /Console: (\S+)\/console/.exec(output);
      if (match?.[1]) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
}

// Each test starts real processes one after another; on a loaded 2-core machine that can take a minute. The
// limit only guards against a hang (no test here measures time).
describe('admin CLI', { timeout: 120_000 }, () => {
  it('explains itself with --help', async () => {
    const overview = await cli(['--help']);
    expect(overview.code).toBe(0);
    expect(overview.stdout).toContain('m2m create');
    const m2m = await cli(['m2m', 'create', '--help']);
    expect(m2m.code).toBe(0);
    expect(m2m.stdout).toContain('--name <name>');
  });

  it.each([
    [['frob'], 'unknown command "frob"'],
    [['m2m', 'create', '--bogus', 'x'], "Unknown option '--bogus'"],
    [['m2m', 'create'], '--name is required'],
    [['admin', 'create', '--username', '1st', '--password', 'long-enough'], '--username must start with a letter'],
    [['admin', 'create', '--username', 'ok', '--password', 'short'], '--password must be at least 8 characters'],
  ])('rejects %j with a clear error and exit 1', async (args, message) => {
    const result = await cli(args, { DATA_DIR: tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('creates the first admin once, against the embedded database', async () => {
    const dataDir = tempDir();
    const first = await cli(['admin', 'create', '--username', 'root_admin', '--password', 'correct-horse'], {
      DATA_DIR: dataDir,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ username: 'root_admin', tenant: 'admin' });
    const second = await cli(['admin', 'create', '--username', 'other', '--password', 'correct-horse'], {
      DATA_DIR: dataDir,
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('a console admin already exists');
  });

  it('creates a machine app through the running server and its credentials get a working token', async () => {
    const dataDir = tempDir();
    const server = await startServer(dataDir);
    const result = await cli(['m2m', 'create', '--name', 'terraform'], { DATA_DIR: dataDir });
    expect(result.code, result.stderr).toBe(0);
    const credentials = JSON.parse(result.stdout) as Record<string, string>;
    expect(Object.keys(credentials).sort()).toEqual(['clientId', 'clientSecret', 'resource', 'scope', 'tokenEndpoint']);
    expect(credentials.scope).toBe('all');

    // The printed token endpoint is under PUBLIC_URL; here the server listens on a random port.
    const tokenPath = new URL(credentials.tokenEndpoint ?? '').pathname;
    const tokenResponse = await fetch(`${server.url}${tokenPath}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: credentials.resource ?? '',
        scope: 'all',
      }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token } = (await tokenResponse.json()) as { access_token: string };
    const roles = await fetch(`${server.url}/api/roles`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(roles.status).toBe(200);
  });
});
