import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const editions = ['oss', 'cloud'] as const;
type Edition = (typeof editions)[number];

/** The build flag decides which routes exist; a typo must stop the build, not ship the wrong console. */
function readEdition(value: string | undefined): Edition {
  if (value === undefined || value === '') return 'oss';
  const edition = editions.find((candidate) => candidate === value);
  if (!edition) throw new Error(`EDITION must be "oss" or "cloud", got "${value}".`);
  return edition;
}

/** Locale chunks all share file names (common.json…), so name them by language to keep the output readable. */
function chunkFileName(chunk: { facadeModuleId: string | null }): string {
  const locale = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(chunk.facadeModuleId ?? '');
  return locale ? `assets/locale-${locale[1]}-${locale[2]}-[hash].js` : 'assets/[name]-[hash].js';
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

export default defineConfig(({ command, mode }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  // The server swaps in each response's CSP nonce (console-static.ts); CodeMirror tags its stylesheet with it.
  html: command === 'build' ? { cspNonce: 'GATEHOUSE_CSP_NONCE' } : {},
  resolve: { alias: command === 'build' && mode === 'production' ? reactRouterProductionBuild() : [] },
  define: { 'import.meta.env.GATEHOUSE_EDITION': JSON.stringify(readEdition(process.env.EDITION)) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    rolldownOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: chunkFileName,
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  server: { proxy },
  preview: { proxy },
}));
