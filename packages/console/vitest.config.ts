import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { localeVersions } from './locale-assets.ts';

export default defineConfig({
  // Resolve src/ from this folder whether vitest starts here or at the repository root.
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Tests build routes for an explicit edition; this only keeps the typed constant defined.
  define: {
    'import.meta.env.GATEHOUSE_EDITION': JSON.stringify('oss'),
    'import.meta.env.GATEHOUSE_LOCALE_VERSIONS': JSON.stringify(localeVersions()),
  },
  test: { include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], environment: 'node' },
});
