// Shared helpers for the benches: figures, timing, free ports, and child processes that never outlive the run.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..');
export const binDir = join(root, 'node_modules', '.bin');
/** The server as `npm start` runs it: the bundle scripts/build.mjs makes (bench/run.ts builds it first). */
export const serverEntry = join(root, 'packages', 'server', 'dist', 'start.js');

/** One measured number. budget null = reported only (no budget yet). */
export type Figure = {
  name: string;
  value: number;
  unit: string;
  budget: number | null;
  /** 'lower' (default): the value must not exceed the budget; 'higher': it must reach it (throughput). */
  better?: 'lower' | 'higher';
  samples: number[];
  details?: Record<string, unknown>;
  /** What the figure was measured on (scale, conditions), printed beside it. */
  note?: string;
};

export type Bench = {
  name: string;
  figures: string[];
  /** Names of parts `--only` may pick besides the figures (e.g. a route measured as four figures). */
  parts?: string[];
  /** `only`: the figure or part names asked for with --only; undefined runs everything. */
  run: (only?: ReadonlySet<string>) => Promise<Figure[]>;
};

export const log = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};

/** The first lines of a child's output, enough to name the failure without npm's usage dump. */
export const head = (output: string, lines = 14): string => output.split('\n').slice(0, lines).join('\n');

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

/** Seconds elapsed since `start` (a performance.now() value). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000;

/** A port nobody listens on right now: bind port 0, read it, release it. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

const tempDirs = new Set<string>();

/** A temporary directory removed at exit (or earlier with removeTempDir). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/**
 * The master key of secrets at rest for every bench process: the seeding CLI and the servers of one bench use
 * different data directories but the same (cached) databases, so they must share it.
 */
const BENCH_SECRETS_KEY = Buffer.alloc(32, 11).toString('base64');

/** Environment for children: the project's Node first on PATH, quiet logs. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    LOG_LEVEL: 'warn',
    EDITION: 'oss',
    SECRETS_KEY: process.env.SECRETS_KEY ?? BENCH_SECRETS_KEY,
    ...extra,
  };
}

const groups = new Set<number>();

/** Spawns a child in its own process group, so the group (npm wrapper + server) can be signalled at once. */
export function spawnGroup(command: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { cwd: options.cwd ?? root, env: options.env, detached: true });
  if (child.pid) groups.add(child.pid);
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  return { child, output: () => output, stdout: () => stdout };
}

/** Live (non-zombie) processes of a process group, read from /proc. */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // state ppid pgrp …
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // The process exited while we looked.
    }
  }
  return members;
}

/** SIGTERMs the whole group and waits until every member exited; SIGKILL after `graceMs`. */
export async function stopGroup(child: ChildProcess, graceMs = 10_000): Promise<void> {
  const pgid = child.pid;
  if (!pgid) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pgid, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const deadline = performance.now() + graceMs;
  while (groupMembers(pgid).length > 0) {
    if (performance.now() > deadline) {
      log(`process group ${pgid} ignored SIGTERM; killing it`);
      signal('SIGKILL');
      break;
    }
    await sleep(20);
  }
  groups.delete(pgid);
}

/** Resolves when `pattern` appears in the child's output; rejects if it exits first or times out. */
export function waitForOutput(
  spawned: ReturnType<typeof spawnGroup>,
  pattern: RegExp,
  timeoutMs = 120_000,
): Promise<void> {
  const { child } = spawned;
  return new Promise((done, fail) => {
    const timer = setTimeout(
      () => finish(new Error(`timed out waiting for ${pattern}:\n${head(spawned.output())}`)),
      timeoutMs,
    );
    const onData = () => {
      if (pattern.test(spawned.output())) finish();
    };
    const onExit = (code: number | null) =>
      finish(new Error(`exited (${code}) before ${pattern}:\n${head(spawned.output())}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) fail(error);
      else done();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    onData();
  });
}

/** The Node flags `npm start` gives the server: `serverNodeFlags` of scripts/build.mjs, which says why. */
export const serverNodeFlags = (env: Record<string, string | undefined>) => [
  ...(env.DATABASE_URL ? [] : ['--liftoff-only']),
  '--max-semi-space-size=8',
  // For profiling a bench's server, e.g. BENCH_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
  ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []),
];

/** Starts the server directly on `dataDir` (with `npm start`'s Node flags) and waits for its `Console:` line. */
export async function startServer(dataDir: string, extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const env = childEnv({ PORT: String(port), DATA_DIR: dataDir, ...extraEnv });
  const spawned = spawnGroup(join(binDir, 'node'), [...serverNodeFlags(env), serverEntry], { env });
  await waitForOutput(spawned, /^Console: http:\/\/\S+\/console$/m);
  return { ...spawned, port, url: `http://localhost:${port}`, stop: () => stopGroup(spawned.child) };
}

let preparedDataDir: string | undefined;

/** A migrated and seeded data directory shared by the server benches of this run. */
export async function dataDir(): Promise<string> {
  if (preparedDataDir) return preparedDataDir;
  const dir = tempDir('data');
  log('preparing a data directory (migrate + seed)…');
  const server = await startServer(dir);
  await server.stop();
  preparedDataDir = dir;
  return dir;
}

/** Runs a command to completion; rejects on a non-zero exit with its output. */
export async function runToEnd(command: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }) {
  const spawned = spawnGroup(command, args, options);
  const code = await new Promise<number | null>((done) => spawned.child.once('exit', done));
  if (spawned.child.pid) groups.delete(spawned.child.pid);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${head(spawned.output())}`);
  return spawned.output();
}

/** Runs `npm run cli -- <args>` (the server's CLI) and parses the JSON it prints on stdout. */
export async function runCli<T>(args: string[], env: Record<string, string>, echo?: string): Promise<T> {
  const spawned = spawnGroup(join(binDir, 'node'), [join(root, 'packages', 'server', 'src', 'cli.ts'), ...args], {
    env: childEnv(env),
  });
  if (echo) {
    let pending = '';
    spawned.child.stderr?.on('data', (chunk: Buffer) => {
      pending += chunk;
      const lines = pending.split(/\r|\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) log(`${echo}: ${line}`);
    });
  }
  const code = await new Promise<number | null>((done) => spawned.child.once('exit', done));
  if (spawned.child.pid) groups.delete(spawned.child.pid);
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited with ${code}:\n${head(spawned.output())}`);
  return JSON.parse(spawned.stdout()) as T;
}

/** Last-resort cleanup: kill every group still running and remove temp dirs, even on crash or Ctrl-C. */
export function cleanupNow(): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  groups.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

process.on('exit', cleanupNow);
for (const name of ['SIGINT', 'SIGTERM'] as const) {
  process.on(name, () => {
    cleanupNow();
    process.exit(130);
  });
}
