import { DomainError, idSchema, type Log, type LogNames, logResults, notFound } from '@gatehouse/schemas';
import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import {
  applications,
  hooks,
  logs,
  organizationRoles,
  organizationScopes,
  organizations,
  resources,
  roles,
  scopes,
  ssoConnectors,
  users,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, tableList } from './list-query.ts';
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
    throw new DomainError('invalid', 'guard.invalid_input', [
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

/** GET /logs: the entries a filter selects (within the retention), newest first. */
export function logList(tenant: TenantDb, query: LogFilters, retentionDays?: number) {
  return tableList(tenant, logs, logListQuery(query, retentionDays));
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

/** One entry, with its names unless `names` is false; 404 also when it is past the tenant's retention (`retentionDays`). */
export async function findLog(tenant: TenantDb, id: string, retentionDays?: number, names = true): Promise<Log> {
  const retained = withinRetention(retentionDays);
  const row = await tenant.findOne(logs, retained ? allOf(eq(logs.id, id), retained) : eq(logs.id, id));
  if (!row) throw notFound();
  if (!names) return toLog(row);
  const [log] = await withNames(tenant, [toLog(row)]);
  return log ?? toLog(row);
}

/** A table whose rows an entry can refer to, and what a row is called. */
type NamedTable = { table: { tenantId: PgColumn; id: PgColumn }; name: SQL };

/**
 * The kinds of thing an entry refers to that have a name in the tenant: `payload.entity.type` as the write path
 * records it, and `User` / `Application` for the actor, `userId` and `applicationId`. A user is called by its name,
 * else its username, email or phone, as the console lists users.
 */
const namedTables: Record<string, NamedTable> = {
  User: {
    table: users,
    name: sql`coalesce(nullif(trim(${users.name}), ''), ${users.username}, ${users.primaryEmail}, ${users.primaryPhone})`,
  },
  Application: { table: applications, name: sql`${applications.name}` },
  Role: { table: roles, name: sql`${roles.name}` },
  Organization: { table: organizations, name: sql`${organizations.name}` },
  OrganizationRole: { table: organizationRoles, name: sql`${organizationRoles.name}` },
  OrganizationScope: { table: organizationScopes, name: sql`${organizationScopes.name}` },
  Resource: { table: resources, name: sql`${resources.name}` },
  Scope: { table: scopes, name: sql`${scopes.name}` },
  Hook: { table: hooks, name: sql`${hooks.name}` },
  SsoConnector: { table: ssoConnectors, name: sql`${ssoConnectors.connectorName}` },
};

type Reference = { kind: keyof LogNames; type: string; id: string };

/** What each reference of an entry is, as a kind of named thing and its id (none for kinds without names). */
function referencesOf(log: Log): Reference[] {
  const { actor, entity, userId, applicationId } = log.payload;
  const found: Reference[] = [];
  if (actor?.type === 'user') found.push({ kind: 'actor', type: 'User', id: actor.id });
  if (actor?.type === 'application') found.push({ kind: 'actor', type: 'Application', id: actor.id });
  if (userId) found.push({ kind: 'user', type: 'User', id: userId });
  if (applicationId) found.push({ kind: 'application', type: 'Application', id: applicationId });
  if (entity && Object.hasOwn(namedTables, entity.type))
    found.push({ kind: 'entity', type: entity.type, id: entity.id });
  return found.filter((reference) => typeof reference.id === 'string' && reference.id !== '');
}

/**
 * The entries with `names`: what their actor, user, application and entity are called in the tenant now. One
 * statement for the whole page, whatever its size (a `union all` of one lookup by primary key per kind the page
 * refers to), and none when it refers to nothing with a name. Read as the tenant: row-level security shows its rows
 * only, so a console admin (a user of the admin tenant) or another tenant's id never gets a name here.
 */
export async function withNames(tenant: TenantDb, entries: readonly Log[]): Promise<Log[]> {
  const references = entries.map(referencesOf);
  const idsByType = new Map<string, Set<string>>();
  for (const reference of references.flat()) {
    const ids = idsByType.get(reference.type) ?? new Set<string>();
    ids.add(reference.id);
    idsByType.set(reference.type, ids);
  }
  if (idsByType.size === 0) return [...entries];
  const lookups = [...idsByType].map(([type, ids]) => {
    const { table, name } = namedTables[type] as NamedTable;
    return sql`(select ${type}::text as "type", ${table.id}::text as "id", (${name})::text as "name" from ${table}
      where ${allOf(eq(table.tenantId, tenant.tenantId), inArray(table.id, [...ids]))})`;
  });
  const { rows } = (await tenant.asTenant((db) => db.execute(sql.join(lookups, sql` union all `)))) as unknown as {
    rows: { type: string; id: string; name: string | null }[];
  };
  const nameOf = new Map(rows.filter((row) => row.name).map((row) => [`${row.type}\u0000${row.id}`, row.name ?? '']));
  return entries.map((entry, index) => {
    const names: LogNames = {};
    for (const reference of references[index] ?? []) {
      const name = nameOf.get(`${reference.type}\u0000${reference.id}`);
      if (name) names[reference.kind] = name;
    }
    return Object.keys(names).length ? { ...entry, names } : entry;
  });
}
