import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { createPglite, type DatabaseHandle, openPglite, openPostgres } from '../../src/db/client.ts';
import { seed } from '../../src/db/seed.ts';

/** Set to a postgres:// URL to run the same tests against a real PostgreSQL server. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A migrated, seeded database of its own for one test file: a copy of the PGlite template, or a
 * fresh database on the PostgreSQL server of TEST_DATABASE_URL that is dropped afterwards.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  if (!testDatabaseUrl) {
    const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
    const handle = await openPglite(createPglite(undefined, { loadDataDir: template }));
    await handle.migrate();
    return handle;
  }
  const name = `gatehouse_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const template = inject('postgresTemplate');
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  // A copy of the migrated, seeded template (global-setup.ts); without one, migrate and seed here.
  const create = template ? `create database "${name}" template "${template}"` : `create database "${name}"`;
  // A copy fails with 55006 while any other session is in the template (PostgreSQL waits 5 s first): try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(create);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
  await admin.end();
  const url = withDatabase(testDatabaseUrl, name);
  const handle = await openPostgres(url, 4);
  await handle.migrate();
  if (!template) await seed(handle.db);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: testDatabaseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}
