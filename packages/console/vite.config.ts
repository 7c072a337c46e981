import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localeAssets, localeVersions } from './locale-assets.ts';

const editions = ['oss', 'cloud'] as const;
type Edition = (typeof editions)[number];

/** The build flag decides which routes exist; a typo must stop the build, not ship the wrong console. */
function readEdition(value: string | undefined): Edition {
  if (value === undefined || value === '') return 'oss';
  const edition = editions.find((candidate) => candidate === value);
  if (!edition) throw new Error(`EDITION must be "oss" or "cloud", got "${value}".`);
  return edition;
}

/**
 * react-router 7 resolves to its development build under every condition (remix-run/react-router#14102), which ships
 * dev-only checks and console warnings to production. Point production builds at its production build instead; both
 * entry points share that folder's chunks, so the app still gets one router.
 */
function reactRouterProductionBuild() {
  const root = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  return [
    { find: /^react-router$/, replacement: join(root, 'dist/production/index.mjs') },
    { find: /^react-router\/dom$/, replacement: join(root, 'dist/production/dom-export.mjs') },
  ];
}

/**
 * index.html loads boot.ts, which imports the console (main.tsx) only when it is needed: that import preloads all of
 * the console's start-up files at once. Every other dynamic import (a page, a dialog) preloads only its CSS, which
 * must be there before it renders; its scripts come by their own imports. Listing every chunk's scripts beside each
 * of the ~100 page imports of the route tables cost the first page about 5 kB gzip of file names, while the
 * browser fetches those chunks a little later without the list.
 */
function entryPreloads() {
  const entries = new Set<string>();
  return {
    plugin: {
      name: 'gatehouse:entry-chunks',
      // Runs before vite's import analysis (a post plugin), which asks `resolveDependencies` below.
      generateBundle(_options: unknown, bundle: Record<string, { type: string; isEntry?: boolean }>) {
        entries.clear();
        for (const [file, output] of Object.entries(bundle))
          if (output.type === 'chunk' && output.isEntry) entries.add(file);
      },
    },
    modulePreload: {
      // Every browser the console supports has modulepreload.
      polyfill: false,
      resolveDependencies: (
        _file: string,
        deps: string[],
        { hostId, hostType }: { hostId: string; hostType: 'html' | 'js' },
      ) => (hostType === 'html' || entries.has(hostId) ? deps : []),
    },
  };
}

const sourceFile = (path: string) => fileURLToPath(new URL(`src/${path}`, import.meta.url));

/**
 * The start-up code in two chunks, each with every module it imports: what a signed-out visitor needs before the
 * sign-in form (boot.ts's own imports and the sign-in start, which it loads when needed) and the console's first page
 * (main.tsx: the shell, the route tables, the session), which the first page loads in full anyway. Left to the
 * default split, the modules main.tsx shares with later pages each became a file of their own (17 files of 0.1 to 4.7
 * kB gzip on the first page); one file compresses better (about 3 kB gzip on that page). Pages, dialogs and the
 * libraries only they use stay in their own chunks.
 */
const signInStartModules = new Set([
  sourceFile('auth/sign-in-start.ts'),
  sourceFile('app/secure-context.ts'),
  '\0vite/preload-helper.js',
]);
const startGroups = [
  { debugName: 'sign-in-start', name: (id: string) => (signInStartModules.has(id) ? 'sign-in-start' : null) },
  { debugName: 'main', name: (id: string) => (id === sourceFile('main.tsx') ? 'main' : null) },
];

/**
 * The console reads only `version` of the root package.json (PRODUCT_VERSION, packages/schemas/src/constants.ts);
 * the bundler cannot leave out the rest of a JSON default import, so the build sees that field alone.
 */
function packageVersionOnly() {
  const rootPackage = fileURLToPath(new URL('../../package.json', import.meta.url));
  return {
    name: 'gatehouse:package-version-only',
    enforce: 'pre' as const,
    load(id: string) {
      if (id !== rootPackage) return null;
      const { version } = JSON.parse(readFileSync(rootPackage, 'utf8')) as { version: string };
      return JSON.stringify({ version });
    },
  };
}

const apiServer = 'http://localhost:3001';
const proxy = { '/api': apiServer, '/oidc': apiServer };

export default defineConfig(({ command, mode }) => {
  const versions = localeVersions();
  const preloads = entryPreloads();
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    base: '/console/',
    plugins: [react(), localeAssets(versions), preloads.plugin, packageVersionOnly()],
    // The server swaps in each response's CSP nonce (console-static.ts); CodeMirror tags its stylesheet with it.
    html: command === 'build' ? { cspNonce: 'GATEHOUSE_CSP_NONCE' } : {},
    resolve: { alias: command === 'build' && mode === 'production' ? reactRouterProductionBuild() : [] },
    define: {
      'import.meta.env.GATEHOUSE_EDITION': JSON.stringify(readEdition(process.env.EDITION)),
      'import.meta.env.GATEHOUSE_LOCALE_VERSIONS': JSON.stringify(versions),
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: process.env.BUILD_SOURCEMAP === '1',
      assetsDir: 'assets',
      modulePreload: preloads.modulePreload,
      rolldownOptions: {
        output: {
          entryFileNames: 'assets/[name]-[hash].js',
          chunkFileNames: 'assets/[name]-[hash].js',
          assetFileNames: 'assets/[name]-[hash][extname]',
          // The libraries every page runs on, as one chunk: the first page needs all of them, and one file compresses
          // better than the nine small shared chunks the default split made of them (about 5 kB gzip on that page).
          // The OIDC client, forms (and zod, which only pages that validate use), the editor and charts stay out:
          // pages load them when they need them.
          codeSplitting: {
            groups: [
              {
                name: 'vendor',
                test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/][^\\/]+)[\\/]/,
              },
              ...startGroups,
            ],
          },
        },
      },
    },
    server: { proxy },
    preview: { proxy },
  };
});
