import { count as countRows, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import { bulkInsert } from './bulk-insert.ts';
import { allOf } from './conditions.ts';
import type { Database } from './database.ts';
import { tenantConnectionsOf } from './tenant-connections.ts';

/** How long a count found over its cap is taken as still over it (see TenantDb.countUpTo). */
export const OVER_CAP_TTL_MS = 30_000;

const countKey = (query: { sql: string; params: unknown[] }) => `${query.sql}\u0000${JSON.stringify(query.params)}`;

/** Counts known to be over their cap, with the time each stops being trusted. Bounded. */
class OverCapCounts {
  readonly #until = new Map<string, number>();
  stillOver(key: string): boolean {
    const until = this.#until.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.#until.delete(key);
    return false;
  }
  remember(key: string): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.#until.size >= 10_000) this.#until.delete(this.#until.keys().next().value ?? '');
    this.#until.delete(key);
    this.#until.set(key, Date.now() + OVER_CAP_TTL_MS);
  }
}

/** Per database (a process may hold several, as the tests do), kept for the process's life. */
const overCapCountsOf = new WeakMap<Database, OverCapCounts>();
function overCapCounts(db: Database): OverCapCounts {
  let counts = overCapCountsOf.get(db);
  if (!counts) {
    counts = new OverCapCounts();
    overCapCountsOf.set(db, counts);
  }
  return counts;
}

/** Whether `db` is a drizzle transaction (its `transaction` opens a savepoint) rather than the database. */
const isTransaction = (db: Database): boolean => 'rollback' in db;

/** Switches the current transaction to the tenant role and names the tenant (row-level security, migration 0019). */
const enterTenant = (db: Database, tenantId: string) =>
  db.execute(
    sql`select set_config('role', 'gatehouse_tenant', true), set_config('gatehouse.tenant_id', ${tenantId}, true)`,
  );

/** A table whose rows belong to one tenant. */
export type TenantTable = PgTable & { tenantId: PgColumn };
type Row<T extends TenantTable> = T['$inferSelect'];
type NewRow<T extends TenantTable> = Omit<T['$inferInsert'], 'tenantId'>;

export type FindOptions = {
  where?: SQL | undefined;
  orderBy?: SQL[] | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
};

/**
 * The only way route and service code reaches tenant data. Every statement it builds is filtered by,
 * or stamped with, the tenant of the request, so a query cannot forget the tenant: the raw database
 * is private to this class and the tenant id never comes from a request body.
 */
export class TenantDb {
  readonly tenantId: string;
  readonly #db: Database;
  /**
   * `#db` is this tenant's already: a transaction of this TenantDb's own switched to its tenant for its whole length,
   * or a connection of the tenant pool lent for `onOneConnection`.
   */
  readonly #bound: boolean;

  constructor(db: Database, tenantId: string, bound = false) {
    this.#db = db;
    this.tenantId = tenantId;
    this.#bound = bound;
  }

  /**
   * Runs statements as the tenant, so row-level security (migration 0019) shows and accepts this tenant's rows only,
   * besides the `tenant_id` condition every statement here carries:
   * - on PostgreSQL: on a connection of the tenant pool (the role `gatehouse_tenant` for the connection's life), with
   *   `gatehouse.tenant_id` set to this tenant when the connection last served another ({@link TenantConnections});
   * - on PGlite (one connection, shared with the owner's paths): in a transaction of its own, switched to the role
   *   `gatehouse_tenant` with `gatehouse.tenant_id` set;
   * - in this TenantDb's own transaction (`transaction`): already switched, for the whole transaction;
   * - in a transaction a caller opened on the raw database: as the caller. Those callers are the named operations
   *   across tenants (creating a tenant, billing, workers claiming jobs; docs/areas/security.md), which keep the
   *   owner's rights; switching per statement there would let two tenants' statements of one transaction interleave.
   */
  async #run<R>(work: (db: Database) => Promise<R>): Promise<R> {
    if (this.#bound || isTransaction(this.#db)) return work(this.#db);
    const connections = tenantConnectionsOf.get(this.#db);
    if (connections) return connections.run(this.tenantId, work);
    return this.#db.transaction(async (tx) => {
      await enterTenant(tx as unknown as Database, this.tenantId);
      return work(tx as unknown as Database);
    });
  }

  /** `tenant_id = <this tenant>` AND the given condition. */
  scope(table: TenantTable, condition?: SQL): SQL {
    const own = eq(table.tenantId, this.tenantId);
    return condition ? allOf(own, condition) : own;
  }

  async findMany<T extends TenantTable>(table: T, options: FindOptions = {}): Promise<Row<T>[]> {
    return this.#run(async (db) => {
      let query = db
        .select()
        .from(table as PgTable)
        .where(this.scope(table, options.where))
        .$dynamic();
      if (options.orderBy?.length) query = query.orderBy(...options.orderBy);
      if (options.limit !== undefined) query = query.limit(options.limit);
      if (options.offset) query = query.offset(options.offset);
      return (await query) as Row<T>[];
    });
  }

  async findOne<T extends TenantTable>(table: T, where: SQL): Promise<Row<T> | undefined> {
    const [row] = await this.findMany(table, { where, limit: 1 });
    return row;
  }

  async count(table: TenantTable, where?: SQL): Promise<number> {
    const [row] = await this.#run((db) =>
      db
        .select({ value: countRows() })
        .from(table as PgTable)
        .where(this.scope(table, where)),
    );
    return Number(row?.value ?? 0);
  }

  /**
   * `count(*)`, but reading at most `cap + 1` matching rows: for totals that must stay cheap
   * however many rows match. Answers `cap + 1` when there are more than `cap`.
   *
   * With `rememberOverCap` (list totals), a count found over the cap is remembered for
   * {@link OVER_CAP_TTL_MS}: a list shows "more than cap" either way, and counting the cap's rows
   * again on every page of a large tenant's audit log cost more than the page itself (5 of 5.5 ms).
   * A total that shrinks below the cap meanwhile (bulk deletion, log retention) shows within that time.
   */
  async countUpTo(
    table: TenantTable,
    where: SQL | undefined,
    cap: number,
    options: { rememberOverCap?: boolean } = {},
  ): Promise<number> {
    const matching = this.#db
      .select({ one: sql`1` })
      .from(table as PgTable)
      .where(this.scope(table, where))
      .limit(cap + 1)
      .as('matching');
    const query = this.#db.select({ value: countRows() }).from(matching);
    // The statement and its parameters (the tenant among them) name the count.
    const key = options.rememberOverCap ? countKey(query.toSQL()) : undefined;
    if (key !== undefined && overCapCounts(this.#db).stillOver(key)) return cap + 1;
    const [row] = await this.#run(async (db) => {
      const bound = db
        .select({ one: sql`1` })
        .from(table as PgTable)
        .where(this.scope(table, where))
        .limit(cap + 1)
        .as('matching');
      return db.select({ value: countRows() }).from(bound);
    });
    const counted = Number(row?.value ?? 0);
    if (key !== undefined && counted > cap) overCapCounts(this.#db).remember(key);
    return counted;
  }

  /** Aggregates over the tenant's rows (`count`, `countDistinct`…), grouped by `groupBy` when given. */
  async aggregate<F extends SelectedFields>(
    fields: F,
    table: TenantTable,
    where?: SQL,
    groupBy: PgColumn[] = [],
  ): Promise<Record<keyof F, unknown>[]> {
    return this.#run(async (db) => {
      const query = db
        .select(fields)
        .from(table as PgTable)
        .where(this.scope(table, where))
        .$dynamic();
      return (await (groupBy.length ? query.groupBy(...groupBy) : query)) as Record<keyof F, unknown>[];
    });
  }

  async insert<T extends TenantTable>(table: T, values: NewRow<T>): Promise<Row<T>> {
    const [row] = (await this.#run((db) =>
      db
        .insert(table as PgTable)
        .values({ ...values, tenantId: this.tenantId } as T['$inferInsert'])
        .returning(),
    )) as Row<T>[];
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** `INSERT … ON CONFLICT DO NOTHING`: one statement, race-free, for rows that only need to exist. */
  async insertIfAbsent<T extends TenantTable>(table: T, values: NewRow<T>): Promise<void> {
    await this.#run((db) =>
      db
        .insert(table as PgTable)
        .values({ ...values, tenantId: this.tenantId } as T['$inferInsert'])
        .onConflictDoNothing(),
    );
  }

  /**
   * Many rows in one statement (bulk import, audit entries, outbox events); an empty list inserts nothing. One
   * parameter per column (`unnest`, db/bulk-insert.ts) where the rows allow it, drizzle's multi-row `values` otherwise.
   * With `returning: false` the rows are not sent back (answers an empty list): audit entries and events are written,
   * never read back.
   */
  async insertMany<T extends TenantTable>(
    table: T,
    values: readonly NewRow<T>[],
    { returning = true }: { returning?: boolean } = {},
  ): Promise<Row<T>[]> {
    if (values.length === 0) return [];
    const rows = values.map((row) => ({ ...row, tenantId: this.tenantId }) as Record<string, unknown>);
    return (await this.#run(async (db) => {
      const bulk = bulkInsert(db, table, rows, returning);
      if (bulk) return bulk;
      const insert = db.insert(table as PgTable).values(rows as T['$inferInsert'][]);
      return returning ? insert.returning() : insert.then(() => []);
    })) as Row<T>[];
  }

  async update<T extends TenantTable>(table: T, where: SQL, values: Partial<NewRow<T>>): Promise<Row<T>[]> {
    // tenantId is stripped so an update can never move a row to another tenant.
    const { tenantId: _ignored, ...set } = values as Record<string, unknown>;
    // An empty patch (`{}` or only undefined fields) changes nothing: answer the rows as they are
    // (drizzle refuses an UPDATE without columns).
    if (Object.values(set).every((value) => value === undefined)) {
      return (await this.#run((db) =>
        db
          .select()
          .from(table as PgTable)
          .where(this.scope(table, where)),
      )) as Row<T>[];
    }
    return (await this.#run((db) =>
      db
        .update(table as PgTable)
        .set(set)
        .where(this.scope(table, where))
        .returning(),
    )) as Row<T>[];
  }

  async delete<T extends TenantTable>(table: T, where: SQL): Promise<Row<T>[]> {
    return (await this.#run((db) =>
      db
        .delete(table as PgTable)
        .where(this.scope(table, where))
        .returning(),
    )) as Row<T>[];
  }

  /**
   * Runs statements `work` builds itself (joins, upserts, locks: what the methods above do not cover) as this tenant:
   * row-level security shows and accepts this tenant's rows only, whatever the statements' conditions, on the same
   * terms as every method here (see `#run`). Keep the `tenant_id` condition in them all the same: the policy is the
   * second lock.
   */
  asTenant<R>(work: (db: Database) => Promise<R>): Promise<R> {
    return this.#run(work);
  }

  /**
   * Runs `work`'s statements one after the other on one connection that is already this tenant, without a
   * transaction: for reads of several statements that need no common snapshot (a list page's count and rows). On
   * PostgreSQL that saves the transaction's BEGIN and COMMIT round trips; on PGlite (one connection, the role switched
   * per transaction) and inside a transaction it is {@link transaction}.
   */
  onOneConnection<R>(work: (tenant: TenantDb) => Promise<R>): Promise<R> {
    const connections = !this.#bound && !isTransaction(this.#db) ? tenantConnectionsOf.get(this.#db) : undefined;
    if (!connections) return this.transaction(work);
    return connections.run(this.tenantId, (db) => work(new TenantDb(db, this.tenantId, true)));
  }

  /** Runs `work` in one transaction; the TenantDb it receives is bound to the same tenant. */
  transaction<R>(work: (tx: TenantDb) => Promise<R>): Promise<R> {
    const bindsTenant = !this.#bound && !isTransaction(this.#db);
    const connections = bindsTenant ? tenantConnectionsOf.get(this.#db) : undefined;
    if (connections) {
      // A connection that is this tenant already: the transaction needs no switch of its own.
      return connections.run(this.tenantId, (db) =>
        db.transaction(async (tx) => work(new TenantDb(tx as unknown as Database, this.tenantId, true))),
      );
    }
    return this.#db.transaction(async (tx) => {
      if (bindsTenant) await enterTenant(tx as unknown as Database, this.tenantId);
      return work(new TenantDb(tx as unknown as Database, this.tenantId, this.#bound || bindsTenant));
    });
  }
}

/**
 * Hands out {@link TenantDb}s: what a module gets instead of the raw database when its work is one tenant's at a
 * time (the OIDC provider, the sign-in pages, a worker's delivery once a job is claimed). Only the modules named in
 * docs/areas/security.md ("The named paths across tenants") hold the raw `Database`; `test/conventions.test.ts`
 * keeps that list closed.
 */
export class TenantDbs {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }
  of(tenantId: string): TenantDb {
    return new TenantDb(this.#db, tenantId);
  }
}
