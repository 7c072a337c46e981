import { defineConfig } from 'vitest/config';
import { TEST_SECRETS_KEY } from './test/support/secrets.ts';

/**
 * Files that never open the test database (no app, no TEST_DATABASE_URL): the admin CLI and the embedded start-up
 * spawn their own processes on PGlite data directories, the others are pure. They run in the PGlite suite; the
 * PostgreSQL suite (TEST_DATABASE_URL set) would only repeat them (~45 s of a two-core run, docs/testing.md).
 */
const backendIndependent = [
  'test/across-tenants.test.ts',
  'test/admission.test.ts',
  'test/cli.test.ts',
  'test/config.test.ts',
  'test/diff.test.ts',
  'test/form-action.test.ts',
  'test/html.test.ts',
  'test/i18n.test.ts',
  'test/jwt-sandbox.test.ts',
  'test/layer-check.test.ts',
  'test/secret-box.test.ts',
  'test/log-keys.test.ts',
  'test/password-policy.test.ts',
  'test/plans.test.ts',
  'test/sign-in-forms.test.ts',
  'test/users-password-generator.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: process.env.TEST_DATABASE_URL ? backendIndependent : [],
    globalSetup: ['test/support/global-setup.ts'],
    // Secrets at rest: the key the template database was sealed with (test/support/secrets.ts).
    env: { SECRETS_KEY: TEST_SECRETS_KEY },
    setupFiles: ['test/support/setup-secrets.ts'],
    testTimeout: 30_000,
    // In CI (.ci/run sets CI=true) a failed test runs once more before it counts, as the end-to-end suites do: the
    // landing run's machine is shared and slower than a developer's, and one run lost a whole landing to a single
    // failure on PostgreSQL that no run here reproduced. The log marks a test that passed on its retry `(retry x1)`,
    // and the summary counts it as flaky when the report kept its first failure (scripts/test.mjs).
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    // Two cores: more workers only add contention for PGlite's single-threaded WASM.
    maxWorkers: 2,
    // Each file builds its own app on its own database (support/app.ts), and no test mocks a module or changes the
    // environment, so the files of a worker can share one module graph: importing the server once per worker instead
    // of once per file took the API suites from ~100 s of imports each to ~15 s (docs/testing.md).
    isolate: false,
  },
});
