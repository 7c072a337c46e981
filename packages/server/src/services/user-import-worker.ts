import {
  type Actor,
  generateId,
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
import { notFound } from '../http/errors.ts';
import { fromNow, type JobDefinition, JobRunner, notLeased } from './job-runner.ts';
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
 * users unchanged. When the runner stops, the job saves its last batch and hands itself back (its lease released),
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

/** Imports the job's file from where it stands, batch by batch, saving the progress (and the lease) after each. */
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
  const seen = new SeenIdentifiers();
  // Resuming after another process died or stopped: its batches are saved, and re-reading them fills `seen`.
  const done = Math.max(0, job.processed - fileErrors);
  for (let start = 0; start < records.length; start += batchSize) {
    const batch = records.slice(start, start + batchSize);
    if (start < done) {
      await importBatch(ctx, batch, seen, true);
      continue;
    }
    if (signal.aborted) return { failed: false, status: 'handed_back' };
    const result = await importBatch(ctx, batch, seen, job.dryRun);
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
  }
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

/** An import job with its row errors, or 404. */
export async function getUserImportJob(tenant: TenantDb, id: string): Promise<UserImportJob> {
  const row = await tenant.findOne(userImportJobs, eq(userImportJobs.id, id));
  if (!row) throw notFound();
  return toUserImportJob(row, true);
}
