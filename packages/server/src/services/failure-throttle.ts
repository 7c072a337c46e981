import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';

/** A key and how many failures it may have per window. */
export type ThrottleKey = readonly [key: string, limit: number];

const isoAt = (ms: number) => new Date(ms).toISOString();

/** Expired windows are deleted after this many failures recorded by one process (and at its first). */
const PRUNE_EVERY = 1_000;

/**
 * Fixed-window failure counters kept in the database (table `failure_windows`), so every server process on one
 * database counts the same failures: a client refused by one process is refused by the others, and N processes do
 * not allow N times the guesses. Used for client secrets at the token endpoint and wrong passwords per address at
 * sign-in.
 *
 * Why PostgreSQL and not Redis (docs/areas/performance.md "More than one process"): the database is the one shared
 * part every deployment already has; a check is one primary-key read of an unlogged table (a fraction of the
 * request it guards), a failure one upsert. The clock is the process's (passed into each statement), so windows
 * are as exact as the hosts' clocks agree, and tests can move time.
 */
export class FailureThrottle {
  readonly #db: Database;
  readonly #windowMs: number;
  readonly #now: () => number;
  #failuresSincePrune = 0;

  constructor(db: Database, windowMs: number, now = Date.now) {
    this.#db = db;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** Seconds until every key is under its limit again, or 0 when none is over. */
  async retryAfter(keys: readonly ThrottleKey[]): Promise<number> {
    if (keys.length === 0) return 0;
    const now = this.#now();
    const result = (await this.#db.execute(sql`
      select key, failures, (extract(epoch from reset_at) * 1000)::float8 as reset_ms
      from failure_windows
      where key = any(${sql.param(keys.map(([key]) => key))}::text[]) and reset_at > ${isoAt(now)}::timestamptz`)) as unknown as {
      rows: { key: string; failures: number; reset_ms: number }[];
    };
    const limits = new Map(keys);
    let wait = 0;
    for (const row of result.rows) {
      if (row.failures < (limits.get(row.key) ?? Number.POSITIVE_INFINITY)) continue;
      wait = Math.max(wait, Math.ceil((Number(row.reset_ms) - now) / 1000));
    }
    return wait;
  }

  /** One failure more for each key; a key without an open window opens one. */
  async fail(keys: readonly ThrottleKey[]): Promise<void> {
    if (keys.length === 0) return;
    const at = this.#now();
    const now = isoAt(at);
    const resetAt = isoAt(at + this.#windowMs);
    await this.#db.execute(sql`
      insert into failure_windows as w (key, failures, reset_at)
      select key, 1, ${resetAt}::timestamptz from unnest(${sql.param(keys.map(([key]) => key))}::text[]) as key
      on conflict (key) do update set
        failures = case when w.reset_at > ${now}::timestamptz then w.failures + 1 else 1 end,
        reset_at = case when w.reset_at > ${now}::timestamptz then w.reset_at else excluded.reset_at end`);
    if (this.#failuresSincePrune++ % PRUNE_EVERY === 0) {
      await this.#db.execute(sql`delete from failure_windows where reset_at <= ${now}::timestamptz`);
    }
  }
}
