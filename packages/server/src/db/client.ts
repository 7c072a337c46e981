import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { sourceDir } from '../source-dir.ts';
import { schema } from './tables.ts';

export type Schema = typeof schema;
/** Either driver's database; both speak the same PostgreSQL dialect. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate: () => Promise<void>;
  close: () => Promise<void>;
};

const migrationsFolder = join(sourceDir, 'db', 'migrations');
/** Arbitrary constant naming our migration lock among PostgreSQL advisory locks. */
const MIGRATION_LOCK_KEY = 7_311_842_001;

/**
 * PGlite runs in this process's memory: PostgreSQL's server defaults (128 MB shared buffers) would
 * make an idle Gatehouse use ~0.5 GB. An admin console's working set is far smaller.
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB', '-c', 'work_mem=4MB', '-c', 'maintenance_work_mem=16MB'];

/** PostgreSQL extensions the migrations create; PGlite loads them from its own package. */
const PGLITE_EXTENSIONS = { pg_trgm };

/** A PGlite instance with our settings and extensions (a data directory, or in memory without one). */
export function createPglite(dataDir?: string, options: PGliteOptions = {}): PGlite {
  // One options object: PGlite ignores its second argument when the first is not a string.
  return new PGlite({
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
    ...options,
    ...(dataDir === undefined ? {} : { dataDir }),
    extensions: { ...PGLITE_EXTENSIONS, ...options.extensions },
  });
}

/** Opens PGlite on a data directory, in memory, or on an instance made with {@link createPglite} (tests). */
export async function openPglite(source: string | PGlite | undefined): Promise<DatabaseHandle> {
  if (typeof source === 'string') mkdirSync(source, { recursive: true });
  const client = source instanceof PGlite ? source : createPglite(source);
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    // PGlite is single-process: its data directory cannot be opened twice, so no lock is needed.
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    close: () => client.close(),
  };
}

export async function openPostgres(url: string, poolSize = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server drops (restart, failover) must not crash the process: the pool
  // discards it and the next query opens a new one.
  pool.on('error', () => {});
  // Fail fast with a clear error when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // One session holds an advisory lock while migrating, so processes starting together take turns.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export function openDatabase(options: { databaseUrl?: string | undefined; dataDir: string }): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(join(options.dataDir, 'db'));
}

/** Cheap liveness probe used by tests and health checks. */
export async function ping(db: Database): Promise<boolean> {
  await db.execute(sql`select 1`);
  return true;
}
