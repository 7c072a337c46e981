import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, openPglite, openPostgres } from '../../src/db/client.ts';
import { SecretBox, useSecretBox } from '../../src/db/secret-box.ts';
import { seed } from '../../src/db/seed.ts';
import { TEST_SECRETS_KEY } from './secrets.ts';

/**
 * Migrates and seeds one PGlite database and saves it as a tarball: each test file loads a copy
 * (~0.4 s) instead of running initdb and the migrations again (~2.5 s). With TEST_DATABASE_URL, the
 * same once on the PostgreSQL server: a template database each test file's database is copied from
 * (`create database … template …`), instead of migrating and seeding a database per file.
 */
export default async function setup(project: TestProject) {
  useSecretBox(new SecretBox(TEST_SECRETS_KEY));
  const url = process.env.TEST_DATABASE_URL || undefined;
  if (url) {
    const template = await createPostgresTemplate(url);
    project.provide('postgresTemplate', template);
    project.provide('pgliteTemplate', '');
    return async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`alter database "${template}" with is_template false allow_connections true`);
      await admin.query(`drop database if exists "${template}" with (force)`);
      await admin.end();
    };
  }
  project.provide('postgresTemplate', '');
  const dir = join(import.meta.dirname, '..', '..', '..', '..', '.tmp');
  mkdirSync(dir, { recursive: true });
  const client = createPglite();
  const handle = await openPglite(client);
  await handle.migrate();
  await seed(handle.db);
  const dump = await client.dumpDataDir('gzip');
  const file = join(dir, `pglite-template-${process.pid}.tar.gz`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplate', file);
}

/** A migrated, seeded database on the server of `url`, named for this run; copied by each test file. */
async function createPostgresTemplate(url: string): Promise<string> {
  const name = `gatehouse_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  const handle = await openPostgres(parsed.toString(), 1);
  await handle.migrate();
  await seed(handle.db);
  // Every connection must be gone before the server copies the database. Closed to connections, the template is never
  // visited by autovacuum either, whose worker would make a copy fail with "source database is being accessed by
  // other users" (55006) on a loaded machine.
  await handle.close();
  const vacuumer = new pg.Client({ connectionString: parsed.toString() });
  await vacuumer.connect();
  await vacuumer.query('vacuum (analyze)');
  await vacuumer.end();
  const closer = new pg.Client({ connectionString: url });
  await closer.connect();
  await closer.query(`alter database "${name}" with is_template true allow_connections false`);
  await closer.end();
  return name;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** The PostgreSQL template database's name ('' on PGlite). */
    postgresTemplate: string;
  }
}
