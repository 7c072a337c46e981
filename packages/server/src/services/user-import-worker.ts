import {
  type Actor,
  generateId,
  USER_IMPORT_MAX_ERRORS,
  type UserImportCreate,
  type UserImportJob,
} from '@gatehouse/schemas';
import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { applications, userImportJobs } from '../db/tables.ts';
import { TenantDb } from '../db/tenant-db.ts';
import { notFound } from '../http/errors.ts';
import { IMPORT_BATCH_SIZE, importBatch, SeenIdentifiers } from './user-import.ts';
import { ImportFileError, type ImportMapping, type ImportRowError, parseImportSource } from './user-import-source.ts';

export type UserImportJobRow = typeof userImportJobs.$inferSelect;

/** The API shape of a job (never its source text); `withErrors` for the single job. */
export function toUserImportJob(row: UserImportJobRow, withErrors: boolean): UserImportJob {
  return {
    id: row.id,
    status: row.status as UserImportJob['status'],
    format: row.format as UserImportJob['format'],
    dryRun: row.dryRun,
    mapping: row.mapping,
    total: row.total,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    unchanged: Math.max(0, row.processed - row.created - row.updated - row.failed),
    failed: row.failed,
    ...(withErrors ? { errors: row.errors as UserImportJob['errors'] } : {}),
    createdAt: row.createdAt.getTime(),
    finishedAt: row.finishedAt?.getTime() ?? null,
  };
}

export type UserImportWorkerOptions = {
  db: Database;
  log?: Logger | undefined;
  intervalMs?: number;
  /** How long a claimed job stays with one process without news; then another process resumes it. */
  leaseMs?: number;
  batchSize?: number;
};

/**
 * Runs import jobs. A job is claimed with `FOR UPDATE SKIP LOCKED` and a lease that each batch renews; a
 * process that dies leaves the lease to run out, and the next claim resumes at `processed`. A batch whose writes
 * were saved but whose counters were not is simply run again: the upsert finds its users unchanged.
 * Any number of processes can run it against one database.
 */
export class UserImportWorker {
  readonly #db: Database;
  readonly #log: Logger | undefined;
  readonly #intervalMs: number;
  readonly #leaseMs: number;
  readonly #batchSize: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = true;

  constructor(options: UserImportWorkerOptions) {
    this.#db = options.db;
    this.#log = options.log;
    this.#intervalMs = options.intervalMs ?? 500;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#batchSize = options.batchSize ?? IMPORT_BATCH_SIZE;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => {});
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.runOnce().then(
        (worked) => this.#schedule(worked ? 0 : this.#intervalMs),
        (error: unknown) => {
          this.#log?.error({ err: error }, 'user import worker run failed');
          this.#schedule(this.#intervalMs);
        },
      );
    }, delay);
    this.#timer.unref();
  }

  /** Claims one job and runs it to the end. Returns whether there was one. */
  async runOnce(): Promise<boolean> {
    const job = await this.#claim();
    if (!job) return false;
    try {
      await this.#run(job);
    } catch (error) {
      this.#log?.error({ err: error, jobId: job.id }, 'user import failed');
      await this.#finish(job, 'failed', [
        { line: 0, field: '', code: 'request.general', message: 'The import stopped on an internal error.' },
      ]);
    }
    return true;
  }

  /** Runs jobs until none is left (tests). */
  async drain(maxJobs = 100): Promise<void> {
    for (let run = 0; run < maxJobs && (await this.runOnce()); run++);
  }

  #lease() {
    return sql`now() + ${this.#leaseMs} * interval '1 millisecond'`;
  }

  async #claim(): Promise<UserImportJobRow | undefined> {
    return this.#db.transaction(async (tx) => {
      const [due] = await tx
        .select({ tenantId: userImportJobs.tenantId, id: userImportJobs.id })
        .from(userImportJobs)
        .where(
          and(
            inArray(userImportJobs.status, ['pending', 'running']),
            or(isNull(userImportJobs.lockedUntil), lt(userImportJobs.lockedUntil, sql`now()`)),
          ),
        )
        .orderBy(asc(userImportJobs.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return undefined;
      const [claimed] = await tx
        .update(userImportJobs)
        .set({ status: 'running', lockedUntil: this.#lease() })
        .where(and(eq(userImportJobs.tenantId, due.tenantId), eq(userImportJobs.id, due.id)))
        .returning();
      return claimed;
    });
  }

  /** The actor of the job's writes: a machine app of the tenant, else a console user (admin tenant). */
  async #actor(tenant: TenantDb, createdBy: string | null): Promise<Actor> {
    if (!createdBy) return { type: 'system', id: 'user-import' };
    const app = await tenant.findOne(applications, eq(applications.id, createdBy));
    return { type: app ? 'application' : 'user', id: createdBy };
  }

  async #run(job: UserImportJobRow): Promise<void> {
    const tenant = new TenantDb(this.#db, job.tenantId);
    let parsed: ReturnType<typeof parseImportSource>;
    try {
      parsed = parseImportSource(job.format as 'csv' | 'json', job.source, job.mapping as ImportMapping);
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      await this.#finish(job, 'failed', [
        { line: 0, field: '', code: 'import.malformed_file', message: error.message },
      ]);
      return;
    }
    const { records } = parsed;
    const fileErrors = parsed.errors.length;
    let errors = job.errors as ImportRowError[];
    if (job.processed === 0) {
      errors = parsed.errors.slice(0, USER_IMPORT_MAX_ERRORS);
      await this.#save(job, { total: records.length + fileErrors, processed: fileErrors, failed: fileErrors, errors });
    }
    const ctx = { tenant, actor: await this.#actor(tenant, job.createdBy) };
    const seen = new SeenIdentifiers();
    // Resuming after another process died: its batches are saved, and re-reading them fills `seen`.
    const done = Math.max(0, job.processed - fileErrors);
    for (let start = 0; start < records.length; start += this.#batchSize) {
      const batch = records.slice(start, start + this.#batchSize);
      if (start < done) {
        await importBatch(ctx, batch, seen, true);
        continue;
      }
      const result = await importBatch(ctx, batch, seen, job.dryRun);
      errors = [...errors, ...result.errors].sort((a, b) => a.line - b.line).slice(0, USER_IMPORT_MAX_ERRORS);
      const failedRows = new Set(result.errors.map((error) => error.line)).size;
      await this.#save(job, {
        processed: sql`${userImportJobs.processed} + ${batch.length}`,
        created: sql`${userImportJobs.created} + ${result.created}`,
        updated: sql`${userImportJobs.updated} + ${result.updated}`,
        failed: sql`${userImportJobs.failed} + ${failedRows}`,
        // Only when they changed: a batch without errors does not rewrite up to 1,000 of them.
        ...(result.errors.length ? { errors } : {}),
        lockedUntil: this.#lease(),
      });
    }
    await this.#finish({ ...job, errors }, 'succeeded', []);
  }

  /**
   * Progress of a running job, without RETURNING: the row holds the whole file, which a returning update would
   * send back after every batch (megabytes each time for a 100,000-user import).
   */
  async #save(job: UserImportJobRow, values: Partial<Record<keyof UserImportJobRow, unknown>>): Promise<void> {
    await this.#db
      .update(userImportJobs)
      .set(values as Partial<UserImportJobRow>)
      .where(and(eq(userImportJobs.tenantId, job.tenantId), eq(userImportJobs.id, job.id)));
  }

  async #finish(job: UserImportJobRow, status: 'succeeded' | 'failed', extraErrors: UserImportJobRow['errors']) {
    await this.#save(job, {
      status,
      // The file is not needed any more, and lists should not carry megabytes of it.
      source: '',
      lockedUntil: null,
      finishedAt: new Date(),
      ...(extraErrors.length ? { errors: [...extraErrors, ...job.errors].slice(0, USER_IMPORT_MAX_ERRORS) } : {}),
    });
  }
}

// The admin API's side of import jobs: queue one for the worker, list them, read one.

/** Queues an import job; the worker picks it up (the caller answers 202 at once). */
export async function queueUserImport(
  tenant: TenantDb,
  createdBy: string,
  input: UserImportCreate,
): Promise<UserImportJob> {
  const row = await tenant.insert(userImportJobs, {
    id: generateId(),
    format: input.format,
    source: input.source,
    mapping: input.mapping ?? {},
    dryRun: input.dryRun ?? false,
    createdBy,
  });
  return toUserImportJob(row, true);
}

/** Import jobs, newest first. */
export const userImportListOrder = [desc(userImportJobs.createdAt), desc(userImportJobs.id)];

/** An import job with its row errors, or 404. */
export async function getUserImportJob(tenant: TenantDb, id: string): Promise<UserImportJob> {
  const row = await tenant.findOne(userImportJobs, eq(userImportJobs.id, id));
  if (!row) throw notFound();
  return toUserImportJob(row, true);
}
