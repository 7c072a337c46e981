import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Resolve src/ from this folder whether vitest starts here or at the repository root.
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Tests build routes for an explicit edition; this only keeps the typed constant defined.
  define: { 'import.meta.env.GATEHOUSE_EDITION': JSON.stringify('oss') },
  test: { include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], environment: 'node' },
});
