import {
  type Actor,
  generateId,
  notFound,
  USER_IMPORT_MAX_ERRORS,
  type UserImportCreate,
  type UserImportJob,
} from '@gatehouse/schemas';
import { asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { allOf } from '../db/conditions.ts';
import { applications, userImportJobs } from '../db/tables.ts';
import { type TenantDb, TenantDbs } from '../db/tenant-db.ts';
import { fromNow, type JobDefinition, JobRunner, notLeased } from './job-runner.ts';
import { tableList } from './list-query.ts';
import {
  type BatchResult,
  checkBatch,
  IMPORT_BATCH_SIZE,
  type PreparedBatch,
  prepareBatch,
  readsOverlap,
  SeenIdentifiers,
  writePreparedBatch,
} from './user-import.ts';
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
  /** Rows per batch (one transaction of writes, then the progress is saved). */
  batchSize?: number;
};

/** How a run ended: done (or handed back when the runner stops), or failed for good with the errors to add. */
type ImportResult =
  | { failed: false; status: 'succeeded'; errors: ImportRowError[] }
  | { failed: false; status: 'handed_back' }
  | { failed: true; permanent: true; errors: ImportRowError[] };

const internalError: ImportRowError = {
  line: 0,
  field: '',
  code: 'request.general',
  message: 'The import stopped on an internal error.',
};

/**
 * Runs import jobs on the job runner, one at a time per process. The claim sets `running` and a lease that each
 * batch renews with its progress; a process that dies leaves the lease to run out, and the next claim resumes at
 * `processed`. A batch whose writes were saved but whose counters were not is simply run again: the upsert finds its
 * users unchanged. When the runner stops, the job saves the batches in hand and hands itself back (its lease released),
 * so another process resumes it at once. A job is not retried: a file that cannot be read, or an internal error,
 * fails it with the reason among its errors.
 */
export class UserImportWorker extends JobRunner<typeof userImportJobs, ImportResult> {
  constructor(options: UserImportWorkerOptions) {
    const { db, log } = options;
    super(userImportJobsDefinition(new TenantDbs(db), log, options.batchSize ?? IMPORT_BATCH_SIZE), {
      db,
      log,
      intervalMs: options.intervalMs ?? 500,
      leaseMs: options.leaseMs ?? 60_000,
      claimLimit: 1,
    });
  }
}

/** Claiming is the job runner's, across tenants; each job is then run and recorded as its tenant. */
function userImportJobsDefinition(
  tenants: TenantDbs,
  log: Logger | undefined,
  batchSize: number,
): JobDefinition<typeof userImportJobs, ImportResult> {
  return {
    name: 'user import worker',
    table: userImportJobs,
    claimable: allOf(inArray(userImportJobs.status, ['pending', 'running']), notLeased(userImportJobs.lockedUntil)),
    orderBy: asc(userImportJobs.createdAt),
    claim: (leaseMs) => ({ status: 'running', lockedUntil: fromNow(leaseMs) }),
    run: (job, { leaseUntil, signal }) => runImport(tenants.of(job.tenantId), job, { batchSize, leaseUntil, signal }),
    crashed: (job, error) => {
      log?.error({ err: error, jobId: job.id }, 'user import failed');
      return { failed: true, permanent: true, errors: [internalError] };
    },
    settle: async (job, result) => {
      const tenant = tenants.of(job.tenantId);
      if (result.failed) return finish(tenant, job, 'failed', result.errors);
      if (result.status === 'handed_back') return save(tenant, job, { lockedUntil: null });
      return finish(tenant, { ...job, errors: result.errors }, 'succeeded', []);
    },
  };
}

/** The actor of the job's writes: a machine app of the tenant, else a console user (admin tenant). */
async function actorOf(tenant: TenantDb, createdBy: string | null): Promise<Actor> {
  if (!createdBy) return { type: 'system', id: 'user-import' };
  const app = await tenant.findOne(applications, eq(applications.id, createdBy));
  return { type: app ? 'application' : 'user', id: createdBy };
}

/** A batch between its check and its saved progress. */
type InFlight = { prepared: Promise<PreparedBatch>; written: Promise<BatchResult>; saved: Promise<void> };

/**
 * Imports the job's file from where it stands, batch by batch, saving the progress (and the lease) after each.
 *
 * Two batches at a time: while one is written (PostgreSQL works, the server waits), the next is checked, read,
 * planned and written on another connection (the server builds its statements, PostgreSQL waits), which a serial
 * loop left idle half the time. What keeps this equal to one batch after the other:
 * - identifiers are claimed in file order (`checkBatch` runs in order, before anything of the batch is read), so the
 *   two batches' rows hold different usernames, emails and phones: neither creates a user the other's read would find,
 *   and their inserts cannot collide with each other;
 * - a batch whose read found a user the batch before it also found (which that batch may update) waits until that
 *   batch is written and is then read and planned again, exactly as a serial loop would;
 * - `processed` and the counters are saved in file order, each batch after the one before it, so a resume never skips
 *   a batch: after a crash, any batch not counted is run again and finds its users unchanged, whether or not its
 *   write (or the later batch's) was saved.
 */
async function runImport(
  tenant: TenantDb,
  job: UserImportJobRow,
  { batchSize, leaseUntil, signal }: { batchSize: number; leaseUntil: SQL; signal: AbortSignal },
): Promise<ImportResult> {
  let parsed: ReturnType<typeof parseImportSource>;
  try {
    parsed = parseImportSource(job.format as 'csv' | 'json', job.source, job.mapping as ImportMapping);
  } catch (error) {
    if (!(error instanceof ImportFileError)) throw error;
    return {
      failed: true,
      permanent: true,
      errors: [{ line: 0, field: '', code: 'import.malformed_file', message: error.message }],
    };
  }
  const { records } = parsed;
  const fileErrors = parsed.errors.length;
  let errors = job.errors as ImportRowError[];
  if (job.processed === 0) {
    errors = parsed.errors.slice(0, USER_IMPORT_MAX_ERRORS);
    await save(tenant, job, { total: records.length + fileErrors, processed: fileErrors, failed: fileErrors, errors });
  }
  const ctx = { tenant, actor: await actorOf(tenant, job.createdBy) };
  const dryRun = job.dryRun;
  const seen = new SeenIdentifiers();
  // Resuming after another process died or stopped: its batches are saved, and checking them again fills `seen`.
  const done = Math.max(0, job.processed - fileErrors);
  // Two batches in flight (see "Two batches at a time" above): each is checked in file order, then read, planned and
  // written while the one before it is written; its progress is saved after the one before it is saved.
  const inFlight: InFlight[] = [];
  let handedBack = false;
  try {
    for (let start = 0; start < records.length; start += batchSize) {
      const batch = records.slice(start, start + batchSize);
      if (start < done) {
        await checkBatch(tenant, batch, seen);
        continue;
      }
      // At most two at a time: the batch two back is written and saved before the next starts.
      const twoBack = inFlight.at(-2);
      if (twoBack) await twoBack.saved;
      if (signal.aborted) {
        handedBack = true;
        break;
      }
      const before = inFlight.at(-1);
      const checked = await checkBatch(tenant, batch, seen);
      const prepared = (async () => {
        const plan = await prepareBatch(ctx, checked, dryRun);
        if (!before || !readsOverlap(await before.prepared, plan)) return plan;
        // Both reads found a user the batch before may change: plan again once it is written (as one at a time).
        await before.written;
        return prepareBatch(ctx, checked, dryRun);
      })();
      const written = prepared.then((plan) => writePreparedBatch(ctx, plan, dryRun));
      const saved = (async () => {
        const result = await written;
        // Progress in file order: `processed` never counts a batch whose predecessor is not saved.
        if (before) await before.saved;
        errors = [...errors, ...result.errors].sort((a, b) => a.line - b.line).slice(0, USER_IMPORT_MAX_ERRORS);
        const failedRows = new Set(result.errors.map((error) => error.line)).size;
        await save(tenant, job, {
          processed: sql`${userImportJobs.processed} + ${batch.length}`,
          created: sql`${userImportJobs.created} + ${result.created}`,
          updated: sql`${userImportJobs.updated} + ${result.updated}`,
          failed: sql`${userImportJobs.failed} + ${failedRows}`,
          // Only when they changed: a batch without errors does not rewrite up to 1,000 of them.
          ...(result.errors.length ? { errors } : {}),
          lockedUntil: leaseUntil,
        });
      })();
      // Awaited later (by the next batch, or at the end): meanwhile its failure must not count as unhandled.
      saved.catch(() => undefined);
      inFlight.push({ prepared, written, saved });
      if (inFlight.length > 2) inFlight.shift();
    }
    for (const batch of inFlight) await batch.saved;
  } finally {
    // On an error, the other batch in flight ends (written and saved, or failed) before the job is settled.
    await Promise.allSettled(inFlight.flatMap((batch) => [batch.prepared, batch.written, batch.saved]));
  }
  if (handedBack) return { failed: false, status: 'handed_back' };
  return { failed: false, status: 'succeeded', errors };
}

/**
 * Progress of a running job, without RETURNING: the row holds the whole file, which a returning update would send
 * back after every batch (megabytes each time for a 100,000-user import).
 */
async function save(tenant: TenantDb, job: UserImportJobRow, values: Partial<Record<keyof UserImportJobRow, unknown>>) {
  await tenant.asTenant((db) =>
    db
      .update(userImportJobs)
      .set(values as Partial<UserImportJobRow>)
      .where(tenant.scope(userImportJobs, eq(userImportJobs.id, job.id))),
  );
}

function finish(
  tenant: TenantDb,
  job: UserImportJobRow,
  status: 'succeeded' | 'failed',
  extraErrors: ImportRowError[],
) {
  return save(tenant, job, {
    status,
    // The file is not needed any more, and lists should not carry megabytes of it.
    source: '',
    lockedUntil: null,
    finishedAt: new Date(),
    ...(extraErrors.length ? { errors: [...extraErrors, ...job.errors].slice(0, USER_IMPORT_MAX_ERRORS) } : {}),
  });
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

/** GET /users/imports: the tenant's import jobs, newest first. */
export function userImportList(tenant: TenantDb) {
  return tableList(tenant, userImportJobs, { orderBy: userImportListOrder });
}

/** An import job with its row errors, or 404. */
export async function getUserImportJob(tenant: TenantDb, id: string): Promise<UserImportJob> {
  const row = await tenant.findOne(userImportJobs, eq(userImportJobs.id, id));
  if (!row) throw notFound();
  return toUserImportJob(row, true);
}
