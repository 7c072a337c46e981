import { eq, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { allOf, anyOf } from '../db/conditions.ts';

/**
 * One job runner for the background workers (webhook delivery, mail, user import). A job is a row of a queue table;
 * any number of server processes run the same definitions against one database:
 *
 * - **claim**: a short transaction selects due rows `FOR UPDATE SKIP LOCKED` and writes a lease on them, so a job is
 *   with one process at a time; a process that dies leaves the lease to run out and another takes the job again;
 * - **run** the handler outside any transaction (PGlite has one connection: a transaction open across a network
 *   call would hold up every other query of the process);
 * - **retry**: a failed run is tried again after an exponential backoff until its attempts are used up, unless the
 *   failure is permanent; the definition records each attempt and what comes next in one write (`settle`);
 * - **stop**: no new claims, the jobs in flight finish (a long job may hand itself back between steps).
 *
 * The queues keep their own tables and columns (a hook delivery, an outbox row, an import job): the definition
 * says how to find due rows, what a claim writes, and how an outcome is recorded.
 */

/** A queue table: keyed by `(tenant_id, id)` like every tenant table. */
export type JobTable = PgTable & { tenantId: PgColumn; id: PgColumn };
export type JobOf<T extends JobTable> = T['$inferSelect'];

/** What a run came to. A failure is tried again after a backoff unless it is permanent or the last attempt. */
export type JobOutcome = { failed: false } | { failed: true; permanent?: boolean };

export type JobContext = {
  /** The attempt this run is, from 1. */
  attempt: number;
  /** `now()` plus the lease, as a timestamp: a long job writes it with its progress to keep its claim. */
  leaseUntil: SQL;
  /** Aborted when the runner stops: a long job may hand itself back between steps (release its lease). */
  signal: AbortSignal;
};

export type JobDefinition<T extends JobTable, Result extends JobOutcome> = {
  /** Names the worker in logs. */
  name: string;
  /** Work before each claim (e.g. turning events into jobs). Returns how much it did: more than 0 polls again at once. */
  prepare?: () => Promise<number>;
  table: T;
  /** Rows that may be claimed now: due, and free of a lease ({@link notLeased} for a `locked_until` column). */
  claimable: SQL;
  /** Oldest first. */
  orderBy: SQL | PgColumn;
  /** What a claim writes: the lease ({@link leaseUntil}) and whatever else marks the job taken. */
  claim: (leaseMs: number) => Record<string, unknown>;
  /** The attempt a claimed job is on, from 1 (default 1). */
  attempt?: (job: JobOf<T>) => number;
  /** Attempts in all, the first included; the result may tell (a hook's own retries). Default 1: no retries. */
  maxAttempts?: (job: JobOf<T>, result: Result) => number;
  run: (job: JobOf<T>, context: JobContext) => Promise<Result>;
  /**
   * The outcome of a run that threw. Without it the job keeps its lease and is taken again once the lease has run
   * out (a database error, say, may pass).
   */
  crashed?: (job: JobOf<T>, error: unknown) => Result;
  /**
   * Records the attempt and what comes next in one write: with `retryInMs` the job is due again then and its lease
   * is released; without it the job is over (or, for a job that handed itself back, free to be claimed).
   */
  settle: (job: JobOf<T>, result: Result, retryInMs: number | undefined) => Promise<void>;
};

export type JobRunnerOptions = {
  db: Database;
  log?: Logger | undefined;
  /** Pause between polls when there was nothing to do. */
  intervalMs: number;
  /** How long a claimed job stays with one process; then another may take it. */
  leaseMs: number;
  /** Jobs claimed (and run side by side) at a time. */
  claimLimit: number;
  /** Delay before retry n (from 1). Default 1 s, 4 s, 16 s, … */
  backoffMs?: (retry: number) => number;
};

/** `first`, `first · factor`, `first · factor²`, … before retry 1, 2, 3, … */
export const exponentialBackoff =
  (firstMs: number, factor = 4) =>
  (retry: number) =>
    firstMs * factor ** (retry - 1);

/** The database clock plus `ms`, as a timestamp (leases and retries use the database's time, shared by processes). */
export const fromNow = (ms: number): SQL => sql`now() + ${ms} * interval '1 millisecond'`;

/** A `locked_until` column's lease is free: never taken, or run out. */
export const notLeased = (lockedUntil: PgColumn): SQL => anyOf(isNull(lockedUntil), lt(lockedUntil, sql`now()`));

const keyOf = (table: JobTable, row: { tenantId: unknown; id: unknown }) =>
  allOf(eq(table.tenantId, row.tenantId), eq(table.id, row.id));

export class JobRunner<T extends JobTable, Result extends JobOutcome> {
  readonly #definition: JobDefinition<T, Result>;
  readonly #options: JobRunnerOptions;
  readonly #inFlight = new Set<Promise<number>>();
  #stop = new AbortController();
  #state: 'idle' | 'running' | 'stopped' = 'idle';
  #timer: NodeJS.Timeout | undefined;

  constructor(definition: JobDefinition<T, Result>, options: JobRunnerOptions) {
    this.#definition = definition;
    this.#options = options;
  }

  get #log() {
    return this.#options.log;
  }

  /** Polls until {@link stop}: again at once after a run that found work, else after the interval. */
  start(): void {
    if (this.#state === 'running') return;
    if (this.#stop.signal.aborted) this.#stop = new AbortController();
    this.#state = 'running';
    this.#schedule(0);
  }

  /** Claims nothing more and waits for the runs in flight (a long job hands itself back at its next step). */
  async stop(): Promise<void> {
    this.#state = 'stopped';
    this.#stop.abort();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await Promise.allSettled([...this.#inFlight]);
  }

  #schedule(delay: number): void {
    if (this.#state !== 'running') return;
    this.#timer = setTimeout(async () => {
      let worked = 0;
      try {
        worked = await this.runOnce();
      } catch (error) {
        this.#log?.error({ err: error }, `${this.#definition.name} run failed`);
      }
      this.#schedule(worked > 0 ? 0 : this.#options.intervalMs);
    }, delay);
    this.#timer.unref();
  }

  /** One poll: the definition's preparation, then one claim of due jobs run to their outcome. Returns the work done. */
  async runOnce(): Promise<number> {
    if (this.#state === 'stopped') return 0;
    const run = this.#poll();
    this.#inFlight.add(run);
    try {
      return await run;
    } finally {
      this.#inFlight.delete(run);
    }
  }

  /** Polls until nothing is left to do now (tests; retries are due at once only with a zero backoff). */
  async drain(maxRuns = 100): Promise<void> {
    for (let run = 0; run < maxRuns; run++) {
      if ((await this.runOnce()) === 0) return;
    }
  }

  async #poll(): Promise<number> {
    const prepared = (await this.#definition.prepare?.()) ?? 0;
    if (this.#state === 'stopped') return prepared;
    const jobs = await this.#claim();
    await Promise.all(jobs.map((job) => this.#runJob(job)));
    return prepared + jobs.length;
  }

  async #claim(): Promise<JobOf<T>[]> {
    const { table, claimable, orderBy, claim } = this.#definition;
    return this.#options.db.transaction(async (tx) => {
      const due = await tx
        .select({ tenantId: table.tenantId, id: table.id })
        .from(table as PgTable)
        .where(claimable)
        .orderBy(orderBy)
        .limit(this.#options.claimLimit)
        .for('update', { skipLocked: true });
      if (!due.length) return [];
      const claimed = await tx
        .update(table as PgTable)
        .set(claim(this.#options.leaseMs))
        .where(anyOf(...due.map((row) => keyOf(table, row))))
        .returning();
      return claimed as JobOf<T>[];
    });
  }

  /** Never throws: a job whose outcome could not be recorded keeps its lease and is taken again after it. */
  async #runJob(job: JobOf<T>): Promise<void> {
    const definition = this.#definition;
    const attempt = definition.attempt?.(job) ?? 1;
    const context = { attempt, leaseUntil: fromNow(this.#options.leaseMs), signal: this.#stop.signal };
    try {
      let result: Result;
      try {
        result = await definition.run(job, context);
      } catch (error) {
        if (!definition.crashed) throw error;
        result = definition.crashed(job, error);
      }
      const retry = result.failed && !result.permanent && attempt < (definition.maxAttempts?.(job, result) ?? 1);
      const backoffMs = this.#options.backoffMs ?? exponentialBackoff(1000);
      await definition.settle(job, result, retry ? backoffMs(attempt) : undefined);
    } catch (error) {
      this.#log?.error(
        { err: error, tenantId: job.tenantId, jobId: job.id, attempt },
        `${definition.name} job failed; it is taken again when its lease runs out`,
      );
    }
  }
}
