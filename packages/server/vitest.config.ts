import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only add contention for PGlite's single-threaded WASM.
    maxWorkers: 2,
    // Each file builds its own app on its own database (support/app.ts), and no test mocks a module or changes the
    // environment, so the files of a worker can share one module graph: importing the server once per worker instead
    // of once per file took the API suites from ~100 s of imports each to ~15 s (docs/testing.md).
    isolate: false,
  },
});
