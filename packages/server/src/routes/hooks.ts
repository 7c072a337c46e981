import {
  hookCreateSchema,
  hookEventSchema,
  hookEventsSchema,
  hookListQuerySchema,
  hookLogSchema,
  hookLogsQuerySchema,
  hookPatchSchema,
  hookSchema,
  hookStatsQuerySchema,
  hookTestResultSchema,
  hookTestSchema,
  idSchema,
  TOTAL_NUMBER_IS_CAPPED_HEADER,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { entityRoutes } from '../http/entity-routes.ts';
import { ApiError } from '../http/errors.ts';
import {
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as hookService from '../services/hooks.ts';
import { LOG_COUNT_CAP } from '../services/logs.ts';
import { findHook, toHook, toHookLog } from '../services/webhooks.ts';

/** Webhooks: CRUD, signing key rotation, a test send, the recent requests (24 h) and replay. */

const tags = ['Hooks'];
const idParams = z.object({ id: idSchema });

/**
 * The reference's legacy single `event` (issue 24): still accepted on create and update, stored as `events: [event]`.
 * `events` wins when both are given.
 */
const legacyEvent = {
  event: hookEventSchema.optional().meta({ deprecated: true, description: 'Legacy single event; use `events`.' }),
};
const hookCreateBodySchema = hookCreateSchema.extend({ events: hookEventsSchema.optional(), ...legacyEvent });
const hookPatchBodySchema = hookPatchSchema.extend(legacyEvent);

function withLegacyEvent<T extends { events?: string[]; event?: string }>({ event, ...body }: T) {
  const events = body.events ?? (event === undefined ? undefined : [event]);
  return events === undefined ? body : { ...body, events };
}

const logParams = z.object({ id: idSchema, logId: idSchema });

/** The updates answer an unknown hook as the reference's updates do. */
const updateMissResponse = { 404: errorResponse('No such webhook (`entity.not_exists`).') } as const;

const rotateKey = createRoute({
  method: 'patch',
  path: '/hooks/{id}/signing-key',
  tags,
  summary: "Rotate a webhook's signing key (deliveries from now on are signed with the new one)",
  request: { params: idParams },
  responses: {
    200: jsonResponse(hookSchema, 'The webhook with its new key.'),
    ...errorResponses,
    ...updateMissResponse,
  },
});

const testHook = createRoute({
  method: 'post',
  path: '/hooks/{id}/test',
  tags,
  summary: 'Send sample payloads now and report what the endpoint answered',
  description:
    'Signed like real deliveries, sent once each (no retries) and not recorded in the recent requests. 204 when the ' +
    'endpoint answered 2xx, as the reference API; with `Prefer: return=representation`, 200 and the outcome instead. ' +
    '422 `hook.send_test_payload_failed` (no answer) or `hook.endpoint_responded_with_error` (another status), the ' +
    'outcome in `data`.',
  request: { params: idParams, body: { ...jsonBody(hookTestSchema), required: false } },
  responses: {
    200: jsonResponse(hookTestResultSchema, 'The outcome (with `Prefer: return=representation`).'),
    204: { description: 'The endpoint answered 2xx.' },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const listLogs = createRoute({
  method: 'get',
  path: '/hooks/{id}/recent-logs',
  tags,
  summary: 'Delivery attempts of the last 24 hours, newest first',
  description:
    "Each attempt carries Gatehouse's fields and, as the reference's audit-log entries of webhook requests, `key` " +
    '(`TriggerHook.<event>`) and `payload` (`result`, `hookId`, `hookRequest.body`, `response.statusCode|body`, ' +
    "`error`). Filters: `status`, `event`, and the reference's `logKey`, `start_time` and `end_time` (epoch ms); " +
    '`enableCap=true` stops counting at 10,000.',
  request: { params: idParams, query: hookLogsQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(hookLogSchema), 'A page of attempts.'),
      headers: paginatedHeaders.extend({
        [TOTAL_NUMBER_IS_CAPPED_HEADER]: z
          .string()
          .optional()
          .meta({ description: '`true` when `enableCap=true` and more than 10,000 attempts match.' }),
      }),
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const getLog = createRoute({
  method: 'get',
  path: '/hooks/{id}/recent-logs/{logId}',
  tags,
  summary: 'One delivery attempt with its request and response',
  request: { params: logParams },
  responses: { 200: jsonResponse(hookLogSchema, 'The attempt.'), ...errorResponses, ...notFoundResponse },
});

const replayLog = createRoute({
  method: 'post',
  path: '/hooks/{id}/recent-logs/{logId}/replay',
  tags,
  summary: 'Send the same body again now, signed with the current key and headers',
  request: { params: logParams },
  responses: {
    201: jsonResponse(hookLogSchema, 'The new attempt (its `replayOf` names the original).'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

export const hooksRoutes = entityRoutes({
  tags,
  path: '/hooks',
  id: { param: 'id', schema: idSchema },
  list: {
    summary: 'List webhooks',
    query: hookListQuerySchema,
    pagination: 'optional',
    item: { schema: hookSchema, description: 'A page of webhooks, newest first.' },
    rows: ({ tenant }, query) => hookService.hookList(tenant, query),
    toApi: async (rows, { tenant }, query) => {
      const list = rows.map(toHook);
      return query.includeExecutionStats === 'true' ? await hookService.withStats(tenant, list) : list;
    },
  },
  create: {
    summary: 'Create a webhook (a signing key is generated)',
    body: hookCreateBodySchema,
    status: 201,
    answer: { schema: hookSchema, description: 'The new webhook with its signing key.' },
    run: ({ write, config }, input) => {
      const { events, ...body } = withLegacyEvent(input);
      if (!events) {
        throw new ApiError(400, 'guard.invalid_input', [
          { path: 'events', message: 'Give the events (or the legacy event)', code: 'invalid_type' },
        ]);
      }
      return hookService.createHook(write(), config, { ...body, events });
    },
  },
  get: {
    summary: 'Get a webhook',
    query: hookStatsQuerySchema,
    answer: { schema: hookSchema, description: 'The webhook.' },
    run: ({ tenant, params }, query) =>
      hookService.getHook(tenant, params.id, { withStats: query.includeExecutionStats === 'true' }),
  },
  patch: {
    summary: 'Update a webhook',
    description: '`config` fields are merged into the saved config; `headers`, when given, replaces all headers.',
    body: hookPatchBodySchema,
    answer: { schema: hookSchema, description: 'The updated webhook.' },
    errors: updateMissResponse,
    run: ({ write, params }, body) => hookService.updateHook(write(), params.id, withLegacyEvent(body)),
  },
  delete: {
    summary: 'Delete a webhook (with its pending deliveries and request log)',
    run: ({ write, params }) => hookService.deleteHook(write(), params.id),
  },
})
  .openapi(rotateKey, async (c) => {
    return c.json(await hookService.rotateSigningKey(writeContext(c), c.req.valid('param').id), 200);
  })
  .openapi(testHook, async (c) => {
    const { id } = c.req.valid('param');
    // The body is optional, so the service reads it rather than the contract.
    const readBody = async (): Promise<unknown> => ((await c.req.text()) ? await c.req.json() : {});
    const { outbound } = c.get('config');
    const outcome = await hookService.testHook(c.get('tenant'), outbound, id, c.get('auth').actor, readBody);
    // RFC 7240: the console asks for the outcome of a success too (status, time, body); reference clients get 204.
    if (/\breturn=representation\b/.test(c.req.header('Prefer') ?? '')) return c.json(outcome, 200);
    return c.body(null, 204);
  })
  .openapi(listLogs, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    await findHook(c.get('tenant'), id);
    const countCap = query.enableCap === 'true' ? LOG_COUNT_CAP : undefined;
    const rows = await listPage(c, hookService.hookLogList(c.get('tenant'), id, query), query, { countCap });
    return c.json(rows.map(toHookLog), 200);
  })
  .openapi(getLog, async (c) => {
    const { id, logId } = c.req.valid('param');
    return c.json(await hookService.getHookLog(c.get('tenant'), id, logId), 200);
  })
  .openapi(replayLog, async (c) => {
    const { id, logId } = c.req.valid('param');
    const { outbound } = c.get('config');
    return c.json(await hookService.replayHookLog(c.get('tenant'), outbound, id, logId), 201);
  });
