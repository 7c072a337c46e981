import { idSchema, type Log, logResults } from '@gatehouse/schemas';
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import { logs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { ListQuery } from '../http/route-kit.ts';
import { withinRetention } from './log-retention.ts';

const epochMs = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a time in epoch milliseconds')
  .transform(Number);

/**
 * The log grows without bound (10,000,000 rows in the bench): an exact count of an unfiltered page took 8 s there,
 * so totals stop at this many matches and say they are capped; pages beyond it still load.
 */
export const LOG_COUNT_CAP = 10_000;

/** The filters of GET /logs, which GET /logs/export takes too. */
export const logFilterFields = {
  userId: idSchema.optional(),
  applicationId: idSchema.optional(),
  logKey: z.string().max(128).optional(),
  /** Whether the logged event succeeded (`payload.result`). */
  result: z.enum(logResults).optional(),
  start_time: epochMs.optional(),
  end_time: epochMs.optional(),
};
export const logFiltersSchema = z.object(logFilterFields);
export type LogFilters = z.output<typeof logFiltersSchema>;

/**
 * The filters' WHERE clause (TenantDb adds the tenant), within the tenant's retention (`retentionDays`, undefined:
 * forever; services/log-retention.ts); 400 when start_time is not before end_time.
 */
export function logListCondition(query: LogFilters, retentionDays?: number): SQL | undefined {
  if (query.start_time !== undefined && query.end_time !== undefined && query.start_time >= query.end_time) {
    throw new ApiError(400, 'guard.invalid_input', [
      { path: 'start_time', message: 'must be before end_time', code: 'custom' },
    ]);
  }
  const conditions: SQL[] = [];
  const retained = withinRetention(retentionDays);
  if (retained) conditions.push(retained);
  if (query.userId) conditions.push(eq(logs.userId, query.userId));
  if (query.applicationId) conditions.push(eq(logs.applicationId, query.applicationId));
  // Any key may be asked for (keys of older versions stay findable); an unknown one matches nothing.
  if (query.logKey) conditions.push(sql`${logs.key} = ${query.logKey}`);
  if (query.result) conditions.push(sql`${logs.payload}->>'result' = ${query.result}`);
  if (query.start_time !== undefined) conditions.push(gte(logs.createdAt, new Date(query.start_time)));
  if (query.end_time !== undefined) conditions.push(lt(logs.createdAt, new Date(query.end_time)));
  return conditions.length ? and(...conditions) : undefined;
}

/** The condition and order of GET /logs, newest first. */
export function logListQuery(query: LogFilters, retentionDays?: number): ListQuery {
  return { where: logListCondition(query, retentionDays), orderBy: [desc(logs.createdAt), desc(logs.id)] };
}

/**
 * An entry as the API answers it. The user and the application an entry concerns are columns (indexed for the
 * filters); the payload says them too, as the reference's does, whichever path wrote the entry.
 */
export function toLog(row: typeof logs.$inferSelect): Log {
  const payload = { ...(row.payload as Log['payload']) };
  if (row.userId && payload.userId === undefined) payload.userId = row.userId;
  if (row.applicationId && payload.applicationId === undefined) payload.applicationId = row.applicationId;
  return { id: row.id, key: row.key, payload, createdAt: row.createdAt.getTime() };
}

/** One entry; 404 also when it is past the tenant's retention (`retentionDays`). */
export async function findLog(tenant: TenantDb, id: string, retentionDays?: number): Promise<Log> {
  const retained = withinRetention(retentionDays);
  const row = await tenant.findOne(logs, retained ? allOf(eq(logs.id, id), retained) : eq(logs.id, id));
  if (!row) throw notFound();
  return toLog(row);
}
