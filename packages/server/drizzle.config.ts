import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './packages/server/src/db/tables.ts',
  out: './packages/server/src/db/migrations',
});
