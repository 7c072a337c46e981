import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Mutex, PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { sourceDir } from '../source-dir.ts';
import type { NoticeListener } from './change-notices.ts';
import type { Database } from './database.ts';
import { schema } from './tables.ts';
import { type TenantConnections, useTenantConnections } from './tenant-connections.ts';

export type { Database, Schema } from './database.ts';

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate: () => Promise<void>;
  /**
   * Listens to a notification channel (db/change-notices.ts) until the returned function is called. On PostgreSQL a
   * connection of its own, opened again after it drops (then `reset`: notices may have been missed meanwhile).
   */
  listen: (channel: string, listener: NoticeListener) => Promise<() => Promise<void>>;
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
  const session = new PgliteSession(client);
  // drizzle's PGlite driver calls `query` and `transaction` only; the owner's client gates both (PgliteSession).
  const owner = drizzlePglite({ client: session.ownerClient as unknown as PGlite, schema });
  const db = owner as unknown as Database;
  useTenantConnections(db, session.tenantConnections);
  return {
    db,
    kind: 'pglite',
    // PGlite is single-process: its data directory cannot be opened twice, so no lock is needed.
    migrate: () => migratePglite(owner, { migrationsFolder }),
    // In the same process as every writer: nothing is ever missed, so no reset.
    listen: async (channel, listener) => {
      const unlisten = await client.listen(channel, (payload) => listener.notice(payload));
      return unlisten;
    },
    close: () => client.close(),
  };
}

/** What the owner's drizzle calls on its client: PGlite's `query` and `transaction`, gated. */
type PgliteClientCalls = Pick<PGlite, 'query' | 'transaction'>;

/**
 * PGlite's one session, shared by the owner's paths (migrations, workers, the cloud control plane) and every tenant's
 * statements. The session stays switched to the tenant named last (the role `gatehouse_tenant` and
 * `gatehouse.tenant_id`, session settings), so a tenant's statement that follows another of the same tenant is one
 * call instead of four (begin, switch, statement, commit: 388 µs against 158 µs for a read by id, measured here), as
 * on PostgreSQL's tenant pool. Every use of the session passes one gate, held for the whole of a tenant's work or an
 * owner's statement or transaction, and switches the session first when it is not what the holder needs: so no
 * statement of another tenant, nor of the owner, runs in between. The tenant's work is the same unit PGlite's own
 * transaction lock held before (a nested use of the raw database inside it waited forever then as it would now).
 */
class PgliteSession {
  readonly #client: PGlite;
  readonly #gate = new Mutex();
  /** The tenant the session is switched to; `null` the owner; `undefined` not known (a switch failed midway). */
  #current: string | null | undefined = null;
  #tenantDb: Database | undefined;

  constructor(client: PGlite) {
    this.#client = client;
  }

  readonly ownerClient: PgliteClientCalls = {
    query: ((text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) =>
      this.#gate.runExclusive(async () => {
        await this.#switchTo(null);
        return this.#client.query(text, params, options);
      })) as PGlite['query'],
    transaction: ((callback: Parameters<PGlite['transaction']>[0]) =>
      this.#gate.runExclusive(async () => {
        await this.#switchTo(null);
        return this.#client.transaction(callback);
      })) as PGlite['transaction'],
  };

  readonly tenantConnections: TenantConnections = {
    run: (tenantId, work) =>
      this.#gate.runExclusive(async () => {
        await this.#switchTo(tenantId);
        this.#tenantDb ??= drizzlePglite(this.#client, { schema }) as unknown as Database;
        return work(this.#tenantDb);
      }),
  };

  async #switchTo(tenantId: string | null): Promise<void> {
    if (this.#current === tenantId) return;
    const before = this.#current;
    this.#current = undefined;
    if (tenantId === null) {
      await this.#client.query(
        "select set_config('role', 'none', false), set_config('gatehouse.tenant_id', '', false)",
      );
    } else if (before === null || before === undefined) {
      await this.#client.query(
        "select set_config('role', 'gatehouse_tenant', false), set_config('gatehouse.tenant_id', $1, false)",
        [tenantId],
      );
    } else {
      // The role is the tenant's already: name the other tenant.
      await this.#client.query("select set_config('gatehouse.tenant_id', $1, false)", [tenantId]);
    }
    this.#current = tenantId;
  }
}

/** How many statement texts a tenant connection keeps prepared; texts beyond it run unnamed, as before. */
export const PREPARED_PER_CONNECTION = 300;
/** Longer texts (long `in` lists, bulk statements) are seldom repeated: never prepared. */
const PREPARED_TEXT_MAX = 4_000;

type QueryConfigLike = { text?: unknown; name?: unknown };
const isQueryConfig = (value: unknown): value is QueryConfigLike & { text: string } =>
  typeof value === 'object' && value !== null && typeof (value as QueryConfigLike).text === 'string';
/**
 * Only single data statements are prepared: a migration's DDL runs once, and a text with `;` may hold several
 * statements, which a prepared statement cannot.
 */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b[^;]*$/i;
/** Every execution planned for its own values (see {@link StatementNamingClient}), set when a connection opens. */
const CUSTOM_PLANS = '-c plan_cache_mode=force_custom_plan';

/**
 * A connection (of the tenant pool, and of the owner's: throttles, workers) that prepares each statement text it runs (a named statement, the first time), so
 * PostgreSQL parses and rewrites it once per connection instead of on every request: the rewrite is where row-level
 * security adds its policies, and parsing and rewriting were 40 % of a read by id (docs/areas/performance.md). The
 * connection plans every execution for its own values (`plan_cache_mode = force_custom_plan`), so a prepared statement
 * never runs with a generic plan that suits one tenant and not another. At most {@link PREPARED_PER_CONNECTION} texts
 * per connection, the first ones met (the hot paths, which run first and most); the rest run unnamed.
 */
export class StatementNamingClient extends pg.Client {
  readonly #names = new Map<string, string>();

  // pg's overloads (callback, promise, submittable) are kept as they are: only a config object with a text is named.
  override query(...args: unknown[]): never {
    const [config] = args;
    if (
      isQueryConfig(config) &&
      config.name === undefined &&
      config.text.length <= PREPARED_TEXT_MAX &&
      PREPARABLE.test(config.text)
    ) {
      let name = this.#names.get(config.text);
      if (name === undefined && this.#names.size < PREPARED_PER_CONNECTION) {
        name = `gh${this.#names.size}`;
        this.#names.set(config.text, name);
      }
      if (name !== undefined) args[0] = { ...config, name };
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

/**
 * The tenant pool (db/tenant-db.ts `TenantConnections`): connections that take the role `gatehouse_tenant` for their
 * whole life (`SET ROLE` when they open, before any statement of theirs), and name a tenant with a session setting
 * only when it differs from the one they named last. Nothing else runs on them, so the owner's rights never reach a
 * tenant's statement, and a tenant's statement is one round trip.
 */
function tenantPool(url: string, size: number): { pool: pg.Pool; connections: TenantConnections } {
  const pool = new pg.Pool({ connectionString: url, max: size, Client: StatementNamingClient, options: CUSTOM_PLANS });
  pool.on('error', () => {});
  // The switch of each new connection, awaited before the connection's first use: a connection whose switch failed
  // (the role missing before the migrations ran) is never used, so no statement runs as the owner by mistake.
  // Each execution is planned for its own values (see StatementNamingClient): a prepared statement only skips parsing.
  const roleSwitch = new WeakMap<pg.Client, Promise<unknown>>();
  pool.on('connect', (client) => {
    const switched = client.query('set role gatehouse_tenant');
    switched.catch(() => {});
    roleSwitch.set(client, switched);
  });
  const namedTenant = new WeakMap<pg.PoolClient, string>();
  const drizzleOf = new WeakMap<pg.PoolClient, Database>();
  const connections: TenantConnections = {
    async run(tenantId, work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const switched = roleSwitch.get(client);
        if (!switched) throw new Error('a tenant connection without its role switch');
        await switched.catch((error: unknown) => {
          broken = error instanceof Error ? error : new Error(String(error));
          throw broken;
        });
        if (namedTenant.get(client) !== tenantId) {
          namedTenant.delete(client);
          await client.query("select set_config('gatehouse.tenant_id', $1, false)", [tenantId]);
          namedTenant.set(client, tenantId);
        }
        let db = drizzleOf.get(client);
        if (!db) {
          db = drizzlePg(client, { schema }) as unknown as Database;
          drizzleOf.set(client, db);
        }
        return await work(db);
      } finally {
        // A connection that lost its socket is dropped by the pool itself (pg marks it ended); one whose role switch
        // failed is dropped here.
        client.release(broken);
      }
    },
  };
  return { pool, connections };
}

export async function openPostgres(url: string, poolSize = 10): Promise<DatabaseHandle> {
  // The owner's pool: migrations, workers claiming jobs across tenants, the cloud control plane.
  const pool = new pg.Pool({
    connectionString: url,
    max: Math.max(1, Math.ceil(poolSize / 2)),
    Client: StatementNamingClient,
    options: CUSTOM_PLANS,
  });
  // An idle connection the server drops (restart, failover) must not crash the process: the pool
  // discards it and the next query opens a new one.
  pool.on('error', () => {});
  // Fail fast with a clear error when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  const tenants = tenantPool(url, poolSize);
  useTenantConnections(db, tenants.connections);
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
    listen: (channel, listener) => listenPostgres(url, channel, listener),
    close: async () => {
      await Promise.all([pool.end(), tenants.pool.end()]);
    },
  };
}

/** Longest wait between two attempts to open the listening connection again. */
const LISTEN_RETRY_MAX_MS = 10_000;

/**
 * A connection that only listens. When it drops (a restart, a failover) it is opened again after 0.1 s, then up to
 * 10 s between attempts; once it listens again, `reset` tells the subscribers that notices may have been missed.
 */
async function listenPostgres(url: string, channel: string, listener: NoticeListener): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retryMs = 100;
  let timer: NodeJS.Timeout | undefined;
  const open = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    const lost = () => {
      if (client !== next || stopped) return;
      client = undefined;
      next.removeAllListeners();
      next.on('error', () => {});
      void next.end().catch(() => {});
      timer = setTimeout(() => void reopen(), retryMs);
      timer.unref();
      retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) listener.notice(message.payload);
    });
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      lost();
      throw error;
    }
    retryMs = 100;
  };
  const reopen = async () => {
    if (stopped) return;
    try {
      await open();
      listener.reset();
    } catch {
      // `lost` scheduled the next attempt.
    }
  };
  await open().catch((error: unknown) => {
    // The database cannot be reached at start-up: the caller fails, nothing keeps trying behind it.
    stopped = true;
    clearTimeout(timer);
    throw error;
  });
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await client?.end().catch(() => {});
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
