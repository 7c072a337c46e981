import {
  idSchema,
  type Log,
  logResults,
  logSchema,
  paginationQuerySchema,
  TOTAL_NUMBER_IS_CAPPED_HEADER,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { logs } from '../db/tables.ts';
import { ApiError, notFound } from '../http/errors.ts';
import {
  createRouter,
  errorResponses,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';

const tags = ['Audit logs'];
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

/** The filters' WHERE clause (TenantDb adds the tenant); 400 when start_time is not before end_time. */
export function logListCondition(query: LogFilters): SQL | undefined {
  if (query.start_time !== undefined && query.end_time !== undefined && query.start_time >= query.end_time) {
    throw new ApiError(400, 'guard.invalid_input', [
      { path: 'start_time', message: 'must be before end_time', code: 'custom' },
    ]);
  }
  const conditions: SQL[] = [];
  if (query.userId) conditions.push(eq(logs.userId, query.userId));
  if (query.applicationId) conditions.push(eq(logs.applicationId, query.applicationId));
  // Any key may be asked for (keys of older versions stay findable); an unknown one matches nothing.
  if (query.logKey) conditions.push(sql`${logs.key} = ${query.logKey}`);
  if (query.result) conditions.push(sql`${logs.payload}->>'result' = ${query.result}`);
  if (query.start_time !== undefined) conditions.push(gte(logs.createdAt, new Date(query.start_time)));
  if (query.end_time !== undefined) conditions.push(lt(logs.createdAt, new Date(query.end_time)));
  return conditions.length ? and(...conditions) : undefined;
}

export function toLog(row: typeof logs.$inferSelect): Log {
  return { id: row.id, key: row.key, payload: row.payload as Log['payload'], createdAt: row.createdAt.getTime() };
}

const listLogs = createRoute({
  method: 'get',
  path: '/logs',
  tags,
  summary: 'List audit-log entries, newest first',
  description: `\`Total-Number\` counts up to ${LOG_COUNT_CAP.toLocaleString('en')}; beyond that it is capped and \`Total-Number-Is-Capped: true\` says so.`,
  request: {
    query: paginationQuerySchema.extend(logFilterFields),
  },
  responses: {
    200: {
      ...jsonResponse(z.array(logSchema), 'A page of audit-log entries.'),
      headers: paginatedHeaders.extend({
        [TOTAL_NUMBER_IS_CAPPED_HEADER]: z
          .string()
          .optional()
          .meta({ description: `\`true\` when more than ${LOG_COUNT_CAP} entries match.` }),
      }),
    },
    ...errorResponses,
  },
});

const getLog = createRoute({
  method: 'get',
  path: '/logs/{id}',
  tags,
  summary: 'Get one audit-log entry',
  request: { params: z.object({ id: idSchema }) },
  responses: { 200: jsonResponse(logSchema, 'The entry.'), ...errorResponses, ...notFoundResponse },
});

export const logsRoutes = createRouter()
  .openapi(listLogs, async (c) => {
    const query = c.req.valid('query');
    const rows = await listPage(c, logs, query, {
      where: logListCondition(query),
      orderBy: [desc(logs.createdAt), desc(logs.id)],
      countCap: LOG_COUNT_CAP,
    });
    return c.json(rows.map(toLog), 200);
  })
  .openapi(getLog, async (c) => {
    const row = await c.get('tenant').findOne(logs, eq(logs.id, c.req.valid('param').id));
    if (!row) throw notFound();
    return c.json(toLog(row), 200);
  });
