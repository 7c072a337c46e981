import { type User, userListQuerySchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { stringify } from 'csv-stringify/sync';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Context } from 'hono';
import { z } from 'zod';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { AppEnv } from '../http/context.ts';
import { ApiError, invalidFields } from '../http/errors.ts';
import { createRouter, errorResponses } from '../http/route-kit.ts';
import { type LogFilters, logFiltersSchema, logListCondition, toLog } from '../services/logs.ts';
import { userListCondition } from '../services/user-search.ts';
import { toUser } from '../services/users.ts';

/**
 * Exports stream every row a list's filters match, in keyset pages of EXPORT_PAGE_SIZE on the list's
 * `(created_at DESC, id DESC)` index: memory stays constant and a late page costs what the first does. The
 * response is pulled page by page, so a slow client slows the reads instead of filling memory.
 */
export const EXPORT_PAGE_SIZE = 1000;

const formatQuery = z
  .object({ format: z.enum(['csv', 'json']).optional().meta({ description: 'csv (default) or json.' }) })
  .loose();

const fileResponse = (description: string) => ({
  description,
  content: {
    'text/csv': { schema: z.string() },
    'application/json': { schema: z.array(z.record(z.string(), z.unknown())) },
  },
});

const exportUsers = createRoute({
  method: 'get',
  path: '/users/export',
  tags: ['Users'],
  summary: 'Export every user the filters match, as CSV or JSON (streamed, all pages)',
  description:
    'Takes the filters of GET /users (search, search.<field>, mode, joint, isSuspended, roleId, excludeRoleId; page and page_size are ignored). Never includes password hashes. The CSV columns are named like the import fields, so an export can be imported again.',
  request: { query: formatQuery },
  responses: { 200: fileResponse('The file, as an attachment.'), ...errorResponses },
});

const exportLogs = createRoute({
  method: 'get',
  path: '/logs/export',
  tags: ['Audit logs'],
  summary: 'Export every audit-log entry the filters match, as CSV or JSON (streamed, all pages)',
  description: 'Takes the filters of GET /logs (userId, applicationId, logKey, result, start_time, end_time).',
  request: { query: formatQuery },
  responses: { 200: fileResponse('The file, as an attachment.'), ...errorResponses },
});

type Keyset = { createdAt: Date; id: string };
type Table = typeof users | typeof logs;

/**
 * The rows after `after` in list order (newest first, ties by id), as one row comparison the
 * `(tenant, created_at DESC, id DESC)` index serves. The cursor's time is read back from its own row: a JS Date
 * holds milliseconds, PostgreSQL microseconds, and the users of one import batch share one timestamp.
 */
function afterKey(tenant: TenantDb, table: Table, after: Keyset | undefined): SQL | undefined {
  if (!after) return undefined;
  const cursor = alias(table, 'export_cursor');
  return sql`(${table.createdAt}, ${table.id}) < (select ${cursor.createdAt}, ${cursor.id} from ${table} as ${sql.identifier('export_cursor')} where ${tenant.scope(cursor, eq(cursor.id, after.id))})`;
}

/** Query values as the list routes read them: a repeated parameter becomes an array. */
function queryValues(c: Context<AppEnv>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([key, values]) => [key, values.length === 1 ? (values[0] as string) : values]),
  );
}

function parseFilters<S extends z.ZodType>(schema: S, values: unknown): z.output<S> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw new ApiError(400, 'guard.invalid_input', invalidFields(parsed.error));
  return parsed.data;
}

type Columns<T> = { header: string; value: (item: T) => unknown }[];

const isoTime = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
const jsonText = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value));

const userColumns: Columns<User> = [
  { header: 'id', value: (user) => user.id },
  { header: 'username', value: (user) => user.username ?? '' },
  { header: 'primaryEmail', value: (user) => user.primaryEmail ?? '' },
  { header: 'primaryPhone', value: (user) => user.primaryPhone ?? '' },
  { header: 'name', value: (user) => user.name ?? '' },
  { header: 'avatar', value: (user) => user.avatar ?? '' },
  { header: 'customData', value: (user) => jsonText(user.customData) },
  { header: 'profile', value: (user) => jsonText(user.profile) },
  { header: 'isSuspended', value: (user) => String(user.isSuspended) },
  { header: 'hasPassword', value: (user) => String(user.hasPassword) },
  { header: 'lastSignInAt', value: (user) => isoTime(user.lastSignInAt) },
  { header: 'createdAt', value: (user) => isoTime(user.createdAt) },
  { header: 'updatedAt', value: (user) => isoTime(user.updatedAt) },
];

type LogItem = ReturnType<typeof toLog>;
const logColumns: Columns<LogItem> = [
  { header: 'id', value: (log) => log.id },
  { header: 'key', value: (log) => log.key },
  { header: 'createdAt', value: (log) => isoTime(log.createdAt) },
  { header: 'result', value: (log) => log.payload.result },
  { header: 'actor', value: (log) => (log.payload.actor ? `${log.payload.actor.type}:${log.payload.actor.id}` : '') },
  { header: 'entityType', value: (log) => log.payload.entity?.type ?? '' },
  { header: 'entityId', value: (log) => log.payload.entity?.id ?? '' },
  { header: 'ip', value: (log) => log.payload.ip ?? '' },
  { header: 'payload', value: (log) => jsonText(log.payload) },
];

/**
 * A streamed CSV or JSON body: `nextPage` is called when the client wants more, with the last row's key, until it
 * returns fewer rows than a page.
 */
function exportStream<R extends Keyset, T>(
  format: 'csv' | 'json',
  nextPage: (after: Keyset | undefined) => Promise<R[]>,
  toItem: (row: R) => T,
  columns: Columns<T>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Keyset | undefined;
  let first = true;
  let wroteItem = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      const rows = await nextPage(after);
      const items = rows.map(toItem);
      let chunk = '';
      if (format === 'csv') {
        const records = items.map((item) => columns.map((column) => column.value(item)));
        chunk = stringify(first ? [columns.map((column) => column.header), ...records] : records);
      } else {
        chunk = first ? '[' : '';
        for (const item of items) {
          chunk += `${wroteItem ? ',' : ''}\n${JSON.stringify(item)}`;
          wroteItem = true;
        }
      }
      first = false;
      const last = rows.at(-1);
      if (last) after = { createdAt: last.createdAt, id: last.id };
      if (rows.length < EXPORT_PAGE_SIZE) {
        done = true;
        if (format === 'json') chunk += '\n]\n';
      }
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
  });
}

function attachment(c: Context<AppEnv>, name: string, format: 'csv' | 'json', body: ReadableStream<Uint8Array>) {
  const date = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}-${date}.${format}"`,
      'Cache-Control': 'no-store',
      'X-Request-Id': c.get('requestId'),
    },
  });
}

const page = (tenant: TenantDb, table: Table, where: SQL | undefined) => (after: Keyset | undefined) =>
  tenant.findMany(table, {
    where: and(where, afterKey(tenant, table, after)),
    orderBy: [desc(table.createdAt), desc(table.id)],
    limit: EXPORT_PAGE_SIZE,
  });

export const exportsRoutes = createRouter()
  .openapi(exportUsers, async (c) => {
    const format = c.req.valid('query').format ?? 'csv';
    const { format: _format, ...values } = queryValues(c);
    const tenant = c.get('tenant');
    const where = userListCondition(tenant, parseFilters(userListQuerySchema, values));
    const rows = page(tenant, users, where) as (after: Keyset | undefined) => Promise<(typeof users.$inferSelect)[]>;
    return attachment(c, 'users', format, exportStream(format, rows, toUser, userColumns));
  })
  .openapi(exportLogs, async (c) => {
    const { format: _format, ...values } = queryValues(c);
    const filters: LogFilters = parseFilters(logFiltersSchema, values);
    const format = c.req.valid('query').format ?? 'csv';
    const stream = exportStream(
      format,
      page(c.get('tenant'), logs, logListCondition(filters)) as (
        after: Keyset | undefined,
      ) => Promise<(typeof logs.$inferSelect)[]>,
      toLog,
      logColumns,
    );
    return attachment(c, 'audit-logs', format, stream);
  });
