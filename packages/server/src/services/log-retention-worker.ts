import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { logs, tenantSubscriptions, tenants } from '../db/tables.ts';
import { JobRunner } from './job-runner.ts';
import { type RetentionDeps, retentionCutoff, retentionDaysOf } from './log-retention.ts';
import { implicitPlanId } from './quota.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Rows deleted per statement: short statements, so writers of the log never wait long behind the purge. */
const PURGE_BATCH = 5_000;

/**
 * Deletes every tenant's audit-log entries older than its retention (services/log-retention.ts), in batches on the
 * `(tenant_id, created_at)` index. Reads already hide them; this frees the space. Idempotent: any number of
 * processes may run it. Returns how many entries it deleted.
 */
export async function purgeExpiredLogs(db: Database, deps: RetentionDeps, batch = PURGE_BATCH): Promise<number> {
  const rows = await db
    .select({ id: tenants.id, tag: tenants.tag, planId: tenantSubscriptions.planId })
    .from(tenants)
    .leftJoin(tenantSubscriptions, eq(tenantSubscriptions.tenantId, tenants.id));
  let deleted = 0;
  for (const tenant of rows) {
    const days = retentionDaysOf(deps, tenant.planId ?? implicitPlanId(tenant.id, tenant.tag));
    if (days === undefined) continue;
    for (;;) {
      const expired = db
        .select({ id: logs.id })
        .from(logs)
        .where(and(eq(logs.tenantId, tenant.id), lt(logs.createdAt, retentionCutoff(days))))
        .limit(batch);
      const gone = await db
        .delete(logs)
        .where(and(eq(logs.tenantId, tenant.id), inArray(logs.id, expired)))
        .returning({ id: logs.id });
      deleted += gone.length;
      if (gone.length < batch) break;
    }
  }
  return deleted;
}

/**
 * Runs {@link purgeExpiredLogs} hourly on the job runner (its loop, logging and clean stop). It claims nothing: the
 * purge is its `prepare` step, and no row of `logs` is ever claimable.
 */
export class LogRetentionWorker extends JobRunner<typeof logs, { failed: false }> {
  constructor(options: RetentionDeps & { db: Database; log?: Logger | undefined; intervalMs?: number }) {
    const { db, log } = options;
    const deps = { edition: options.edition, auditLogRetentionDays: options.auditLogRetentionDays };
    let lastPurge = 0;
    super(
      {
        name: 'audit-log retention',
        prepare: async () => {
          if (Date.now() - lastPurge < HOUR_MS) return 0;
          lastPurge = Date.now();
          const deleted = await purgeExpiredLogs(db, deps);
          if (deleted) log?.info({ deleted }, 'expired audit-log entries deleted');
          return 0;
        },
        table: logs,
        claimable: sql`false`,
        orderBy: logs.createdAt,
        claim: () => ({}),
        run: async () => ({ failed: false }),
        settle: async () => {},
      },
      { db, log, intervalMs: options.intervalMs ?? 5 * 60 * 1000, leaseMs: 60_000, claimLimit: 1 },
    );
  }
}
