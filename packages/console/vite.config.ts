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

const apiServer = 'http://localhost:3001';
const proxy = { '/api': apiServer, '/oidc': apiServer };

export default defineConfig(({ command, mode }) => {
  const versions = localeVersions();
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    base: '/console/',
    plugins: [react(), localeAssets(versions)],
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
      assetsDir: 'assets',
      rolldownOptions: {
        output: {
          entryFileNames: 'assets/[name]-[hash].js',
          chunkFileNames: 'assets/[name]-[hash].js',
          assetFileNames: 'assets/[name]-[hash][extname]',
          // The libraries every page runs on, as one chunk: the first page needs all of them, and one file compresses
          // better than the nine small shared chunks the default split made of them (about 5 kB gzip on that page).
          // The OIDC client, forms, the editor and charts stay out: pages load them when they need them.
          codeSplitting: {
            groups: [
              {
                name: 'vendor',
                test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack[\\/][^\\/]+|zod)[\\/]/,
              },
            ],
          },
        },
      },
    },
    server: { proxy },
    preview: { proxy },
  };
});
