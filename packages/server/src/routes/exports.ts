import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { createRouter, errorResponses } from '../http/route-kit.ts';
import * as exportService from '../services/exports.ts';
import { auditLogRetentionDays } from '../services/log-retention.ts';
import type { AppEnv } from '../shared/app-env.ts';

export { EXPORT_PAGE_SIZE } from '../services/exports.ts';

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

/** Query values as the list routes read them: a repeated parameter becomes an array. */
function queryValues(c: Context<AppEnv>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([key, values]) => [key, values.length === 1 ? (values[0] as string) : values]),
  );
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

export const exportsRoutes = createRouter()
  .openapi(exportUsers, async (c) => {
    const format = c.req.valid('query').format ?? 'csv';
    const { format: _format, ...filters } = queryValues(c);
    return attachment(c, 'users', format, exportService.exportUsers(c.get('tenant'), format, filters));
  })
  .openapi(exportLogs, async (c) => {
    const { format: _format, ...filters } = queryValues(c);
    const format = c.req.valid('query').format ?? 'csv';
    const tenant = c.get('tenant');
    const retentionDays = await auditLogRetentionDays(tenant, c.get('config'));
    return attachment(c, 'audit-logs', format, exportService.exportLogs(tenant, format, filters, retentionDays));
  });
