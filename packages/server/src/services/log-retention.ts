import type { Edition, PlanId } from '@gatehouse/schemas';
import { gte, type SQL, sql } from 'drizzle-orm';
import { logs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { planQuota, tenantPlanId } from './quota.ts';

/**
 * Audit-log retention (spec §9 `auditLogsRetentionDays`: Free 3 days, Development and Pro 14). An entry older than
 * its tenant's retention is neither listed, read, exported nor kept: reads filter on it at once, and the purge
 * (services/log-retention-worker.ts) deletes it within the hour.
 *
 * - Cloud: the tenant's plan says; a plan without a limit (the admin tenant's) falls back to the setting below.
 * - OSS (no plan): `AUDIT_LOG_RETENTION_DAYS` for every tenant; unset, entries are kept forever, as a self-hosted
 *   installation that never configured anything expects of its audit trail.
 */
export type RetentionDeps = { edition: Edition; auditLogRetentionDays: number | undefined };

/** The days a tenant on `planId` keeps its audit log (undefined: forever). */
export function retentionDaysOf(deps: RetentionDeps, planId: PlanId | string | undefined): number | undefined {
  const planDays = deps.edition === 'cloud' && planId ? planQuota(planId).auditLogsRetentionDays : null;
  return typeof planDays === 'number' ? planDays : deps.auditLogRetentionDays;
}

/** The days this tenant keeps its audit log (one query in cloud, none in OSS). */
export async function auditLogRetentionDays(tenant: TenantDb, deps: RetentionDeps): Promise<number | undefined> {
  return retentionDaysOf(deps, deps.edition === 'cloud' ? await tenantPlanId(tenant) : undefined);
}

/** `now() - days`, on the database's clock (shared by every process and by the purge). */
export const retentionCutoff = (days: number): SQL => sql`now() - ${days} * interval '1 day'`;

/** The entries inside the retention window; undefined when everything is kept. */
export function withinRetention(days: number | undefined): SQL | undefined {
  return days === undefined ? undefined : gte(logs.createdAt, retentionCutoff(days));
}
