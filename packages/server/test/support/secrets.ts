/**
 * The master key of secrets at rest in the tests (db/secret-box.ts): the template database is seeded with it
 * (global-setup.ts), and every test process and server child reads it from SECRETS_KEY (vitest.config.ts `env`).
 * Tests that start a server on a data directory of their own get a generated key there, as `npm start` does.
 */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
