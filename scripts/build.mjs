// `npm run build`: builds the console for EDITION (oss by default) when its sources changed.
// The server needs no build: it runs its TypeScript directly on Node's type stripping.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ensureDependencies, root, run, runtimeNode } from './runtime.mjs';

const consoleDir = join(root, 'packages', 'console');
const stampFile = join(consoleDir, 'dist', '.build-stamp');
const inputs = [
  join(consoleDir, 'src'),
  join(consoleDir, 'index.html'),
  join(consoleDir, 'vite.config.ts'),
  join(consoleDir, 'package.json'),
  join(root, 'packages', 'schemas', 'src'),
  join(root, 'package-lock.json'),
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Writes .br and .gz next to every compressible file, so the server sends them without compressing per request. */
function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) precompress(path);
    else if (/\.(js|css|svg|json|html)$/.test(entry.name)) {
      const data = readFileSync(path);
      writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
    }
  }
}

/** Builds the console unless dist was built for the same edition after its newest input changed. */
export function buildConsole({ force = false } = {}) {
  const edition = process.env.EDITION || 'oss';
  const wanted = JSON.stringify({ edition, inputs: inputs.map(newestMtime) });
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted) return false;
  console.log(`Building the console (${edition} edition)…`);
  const result = run(
    runtimeNode(),
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: consoleDir,
      env: { EDITION: edition },
      allowFailure: true,
    },
  );
  if (result.status !== 0) throw new Error(`the console build failed (${edition} edition)`);
  precompress(join(consoleDir, 'dist'));
  writeFileSync(stampFile, wanted);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDependencies();
  try {
    buildConsole({ force: process.argv.includes('--force') });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
