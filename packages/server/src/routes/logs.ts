import { logSchema, paginationQuerySchema, TOTAL_NUMBER_IS_CAPPED_HEADER } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { pathIdSchema } from '../http/params.ts';
import {
  createRouter,
  errorResponses,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { auditLogRetentionDays } from '../services/log-retention.ts';
import { findLog, LOG_COUNT_CAP, logFilterFields, logList, toLog, withNames } from '../services/logs.ts';

const tags = ['Audit logs'];

/**
 * The console asks for names (`includeNames=true`, after the reference's `includeExecutionStats`); clients of the
 * reference do not, and do not pay the statement that finds them (issue 38: a user's logs 858 → 527 req/s with it).
 */
const includeNamesQuery = {
  includeNames: z.enum(['true', 'false']).optional().meta({ description: "Add each entry's `names`." }),
};
const listLogs = createRoute({
  method: 'get',
  path: '/logs',
  tags,
  summary: 'List audit-log entries, newest first',
  // Entries past the tenant's retention (its plan's `auditLogsRetentionDays`, or AUDIT_LOG_RETENTION_DAYS) are gone.
  description: `\`Total-Number\` counts up to ${LOG_COUNT_CAP.toLocaleString('en')}; beyond that it is capped and \`Total-Number-Is-Capped: true\` says so. With \`includeNames=true\` (a Gatehouse addition; it costs a statement a page) each entry's \`names\` says what its actor, user, application and entity are called in the tenant now; a reference the tenant does not hold (deleted, or a console admin) has none.`,
  request: {
    query: paginationQuerySchema.extend(logFilterFields).extend(includeNamesQuery),
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
  request: { params: z.object({ id: pathIdSchema }), query: z.object(includeNamesQuery) },
  responses: { 200: jsonResponse(logSchema, 'The entry.'), ...errorResponses, ...notFoundResponse },
});

export const logsRoutes = createRouter()
  .openapi(listLogs, async (c) => {
    const query = c.req.valid('query');
    const retentionDays = await auditLogRetentionDays(c.get('tenant'), c.get('config'));
    const rows = await listPage(c, logList(c.get('tenant'), query, retentionDays), query, { countCap: LOG_COUNT_CAP });
    const entries = rows.map(toLog);
    return c.json(query.includeNames === 'true' ? await withNames(c.get('tenant'), entries) : entries, 200);
  })
  .openapi(getLog, async (c) => {
    const tenant = c.get('tenant');
    const retentionDays = await auditLogRetentionDays(tenant, c.get('config'));
    const withNamesToo = c.req.valid('query').includeNames === 'true';
    return c.json(await findLog(tenant, c.req.valid('param').id, retentionDays, withNamesToo), 200);
  });
