import { type User, userListQuerySchema } from '@gatehouse/schemas';
import { stringify } from 'csv-stringify/sync';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { logFiltersSchema, logListCondition, toLog } from './logs.ts';
import { searchCandidates, userListCondition } from './user-search.ts';
import { toUser } from './users.ts';
import { parseInput } from './write-path.ts';

/**
 * Exports stream every row a list's filters match, in keyset pages of EXPORT_PAGE_SIZE on the list's
 * `(created_at DESC, id DESC)` index: memory stays constant and a late page costs what the first does. The
 * response is pulled page by page, so a slow client slows the reads instead of filling memory.
 */
export const EXPORT_PAGE_SIZE = 1000;

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
        // A cell starting with = + - @ tab or CR would run as a formula in a spreadsheet (=HYPERLINK(...)): it gets a
        // leading ' (OWASP's CSV injection advice), which the import takes off again.
        chunk = stringify(first ? [columns.map((column) => column.header), ...records] : records, {
          escape_formulas: true,
        });
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

const page = (tenant: TenantDb, table: Table, where: SQL | undefined) => (after: Keyset | undefined) =>
  tenant.findMany(table, {
    where: and(where, afterKey(tenant, table, after)),
    orderBy: [desc(table.createdAt), desc(table.id)],
    limit: EXPORT_PAGE_SIZE,
  });

export type ExportFormat = 'csv' | 'json';

/** Every user the filters of GET /users match (validated here: 400 with the failing fields), as a stream. */
export function exportUsers(tenant: TenantDb, format: ExportFormat, filters: unknown): ReadableStream<Uint8Array> {
  const query = parseInput(userListQuerySchema, filters);
  // Built here so that a bad filter is a 400 before the stream starts; a search then reads its matches through
  // the search indexes (searchCandidates) when they are few, once, with the first page.
  const plain = userListCondition(tenant, query);
  let where: Promise<SQL | undefined> | undefined;
  const rows = async (after: Keyset | undefined) => {
    where ??= searchCandidates(tenant, query).then((candidates) =>
      candidates?.kind === 'ids' ? userListCondition(tenant, query, candidates) : plain,
    );
    return (await page(tenant, users, await where)(after)) as (typeof users.$inferSelect)[];
  };
  return exportStream(format, rows, toUser, userColumns);
}

/** Every audit-log entry the filters of GET /logs match (validated here), as a stream. */
export function exportLogs(
  tenant: TenantDb,
  format: ExportFormat,
  filters: unknown,
  retentionDays?: number,
): ReadableStream<Uint8Array> {
  const rows = page(tenant, logs, logListCondition(parseInput(logFiltersSchema, filters), retentionDays)) as (
    after: Keyset | undefined,
  ) => Promise<(typeof logs.$inferSelect)[]>;
  return exportStream(format, rows, toLog, logColumns);
}
