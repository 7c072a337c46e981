// `npm run build`: builds the console for EDITION (oss by default) and the server bundle, each only
// when its sources changed. Tests run the server's TypeScript directly; `npm start` and the
// end-to-end tests run the bundle (one file starts in half the time and memory, docs/development.md).
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
export function buildConsole({ force = false, edition = process.env.EDITION || 'oss' } = {}) {
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

const serverDir = join(root, 'packages', 'server');
/** What `npm start` runs: a launcher that turns on Node's compile cache, then loads the bundle. */
export const serverBundle = join(serverDir, 'dist', 'start.js');
/**
 * Node flags of the server process (`npm start`, the benches; docs/areas/performance.md "Load"). V8 reads them at
 * start-up only, so they are arguments of the process, not set from the code.
 * `--liftoff-only`: V8 runs WebAssembly with its baseline compiler and never tiers it up to TurboFan. Tiering up one
 * function of PGlite's PostgreSQL (~100 KB of code) takes 3-6 s of CPU and ~600 MB of compiler memory, which made the
 * server's peak resident memory 1.2 GB; without it the peak is ~0.65 GB on a fresh data directory, and the load bench's
 * server CPU per request did not rise in the load bench, but CPU-bound paths are slower (below). V8 labels the flag as
 * one for testing; it also runs the custom JWT sandbox's
 * QuickJS (WebAssembly) unoptimised, which its 3 s limit allows for.
 * `--max-semi-space-size=8` (MB): under load V8 grows the young generation to 134 MB of garbage that it keeps; 16 MB
 * kept the server ~150 MB smaller under load, at no measurable CPU cost, and 8 keeps the idle server ~15 MB smaller
 * again (the young generation stays committed after start-up): measured side by side (16, 8, 16, 8 on one machine)
 * application GET 738/938/1,017/951 req/s and client-credentials tokens 277/289/296/300 per second.
 */
export const serverNodeFlags = (env = process.env) => [
  // Only the embedded database runs PostgreSQL as WebAssembly: with DATABASE_URL, TurboFan's faster code wins (the
  // token-issuance bench on PGlite at load 7: 43 tokens/s without the flag, 24-30 with it).
  ...(env.DATABASE_URL ? [] : ['--liftoff-only']),
  '--max-semi-space-size=8',
];
/** The server's and the schemas' TypeScript and their packages in one file. */
const serverCode = join(serverDir, 'dist', 'server.js');
// V8's compiled code of the 6 MB bundle, kept between starts (os.tmpdir()/node-compile-cache; Node checks
// each entry against the source): a start with a warm cache skips about a tenth of a second of compiling.
const launcher = `// Written by scripts/build.mjs.
import { enableCompileCache } from 'node:module';

enableCompileCache?.();
const { main } = await import('./server.js');
await main();
`;
const serverStampFile = join(serverDir, 'dist', '.build-stamp');
const serverInputs = [
  join(serverDir, 'src'),
  join(serverDir, 'package.json'),
  join(root, 'packages', 'schemas', 'src'),
  join(root, 'package-lock.json'),
];
/**
 * Packages that stay outside the bundle: they load files next to their own code (PGlite's
 * WebAssembly and data files) or are native addons.
 */
const serverExternals = /^(@electric-sql\/pglite|@node-rs\/argon2|pg-native)(\/|$)/;

/** Bundles the server unless dist holds a bundle built after its newest input changed. */
export async function buildServer({ force = false } = {}) {
  const wanted = JSON.stringify({ inputs: serverInputs.map(newestMtime) });
  if (
    !force &&
    existsSync(serverBundle) &&
    existsSync(serverStampFile) &&
    readFileSync(serverStampFile, 'utf8') === wanted
  )
    return false;
  console.log('Building the server…');
  // Imported here: `npm start` reaches this only after ensureDependencies installed esbuild.
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(serverDir, 'src', 'main.ts')],
    outfile: serverCode,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'warning',
    // Without whitespace and comments: V8 keeps a script's whole source in memory, and the packages' comments
    // (undici's, say) hold non-ASCII characters, which made V8 store the 8.9 MB source as a 17.8 MB two-byte string.
    // Without them (names and syntax kept) it is a one-byte string of 6.2 MB: idle memory 170 -> 135 MB on
    // PostgreSQL (bench `rss`, with the semi-space below). Stack traces then point into long lines; the source map
    // beside the bundle maps them back (`node --enable-source-maps packages/server/dist/start.js`).
    minifyWhitespace: true,
    sourcemap: 'linked',
    sourcesContent: false,
    // The packages' license notices go to server.js.LEGAL.txt beside the bundle (they hold non-ASCII names).
    legalComments: 'linked',
    // Bundled CommonJS packages call require(); ESM output has none of its own.
    banner: {
      js: "import { createRequire as gatehouseCreateRequire } from 'node:module'; const require = gatehouseCreateRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'gatehouse-externals',
        setup(builder) {
          builder.onResolve({ filter: serverExternals }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
  // The custom JWT sandbox's worker thread (services/jwt-customizer/sandbox.ts loads it next to the bundle). QuickJS
  // stays outside: it loads its WebAssembly file next to its own code.
  await build({
    entryPoints: [join(serverDir, 'src', 'services', 'jwt-customizer', 'sandbox-worker.ts')],
    outfile: join(serverDir, 'dist', 'jwt-sandbox-worker.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'warning',
    external: ['quickjs-emscripten-core', '@jitl/*'],
  });
  writeFileSync(serverBundle, launcher);
  writeFileSync(serverStampFile, wanted);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDependencies();
  try {
    buildConsole({ force: process.argv.includes('--force') });
    await buildServer({ force: process.argv.includes('--force') });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
