import {
  generateId,
  HOOK_RETRIES_DEFAULT,
  type Hook,
  hookCreateSchema,
  hookListQuerySchema,
  hookLogSchema,
  hookLogsQuerySchema,
  hookPatchSchema,
  hookSchema,
  hookStatsQuerySchema,
  hookTestResultSchema,
  hookTestSchema,
  idSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, gte, ilike, isNull, not, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { allOf, anyOf } from '../db/conditions.ts';
import { hookLogs, hooks } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError } from '../http/errors.ts';
import {
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  likePattern,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { assertQuota } from '../services/quota.ts';
import {
  auditedHook,
  deliveryBody,
  findHook,
  generateSigningKey,
  sendOnce,
  toHook,
  toHookLog,
} from '../services/webhooks.ts';
import { performWrite } from '../services/write-path.ts';

/** Webhooks: CRUD, signing key rotation, a test send, the recent requests (24 h) and replay. */

const tags = ['Hooks'];
const idParams = z.object({ id: idSchema });
const logParams = z.object({ id: idSchema, logId: idSchema });
/** Recent requests cover this window. */
const RECENT_MS = 24 * 60 * 60 * 1000;

const listHooks = createRoute({
  method: 'get',
  path: '/hooks',
  tags,
  summary: 'List webhooks',
  request: { query: hookListQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(hookSchema), 'A page of webhooks, newest first.'), headers: paginatedHeaders },
    ...errorResponses,
  },
});

const createHook = createRoute({
  method: 'post',
  path: '/hooks',
  tags,
  summary: 'Create a webhook (a signing key is generated)',
  request: { body: jsonBody(hookCreateSchema) },
  responses: { 201: jsonResponse(hookSchema, 'The new webhook with its signing key.'), ...errorResponses },
});

const getHook = createRoute({
  method: 'get',
  path: '/hooks/{id}',
  tags,
  summary: 'Get a webhook',
  request: { params: idParams, query: hookStatsQuerySchema },
  responses: { 200: jsonResponse(hookSchema, 'The webhook.'), ...errorResponses, ...notFoundResponse },
});

const patchHook = createRoute({
  method: 'patch',
  path: '/hooks/{id}',
  tags,
  summary: 'Update a webhook',
  description: '`config` fields are merged into the saved config; `headers`, when given, replaces all headers.',
  request: { params: idParams, body: jsonBody(hookPatchSchema) },
  responses: { 200: jsonResponse(hookSchema, 'The updated webhook.'), ...errorResponses, ...notFoundResponse },
});

const deleteHook = createRoute({
  method: 'delete',
  path: '/hooks/{id}',
  tags,
  summary: 'Delete a webhook (with its pending deliveries and request log)',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

const rotateKey = createRoute({
  method: 'patch',
  path: '/hooks/{id}/signing-key',
  tags,
  summary: "Rotate a webhook's signing key (deliveries from now on are signed with the new one)",
  request: { params: idParams },
  responses: { 200: jsonResponse(hookSchema, 'The webhook with its new key.'), ...errorResponses, ...notFoundResponse },
});

const testHook = createRoute({
  method: 'post',
  path: '/hooks/{id}/test',
  tags,
  summary: 'Send a sample payload now and report what the endpoint answered',
  description: 'Signed like a real delivery, sent once (no retries) and not recorded in the recent requests.',
  request: { params: idParams, body: { ...jsonBody(hookTestSchema), required: false } },
  responses: { 200: jsonResponse(hookTestResultSchema, 'The outcome.'), ...errorResponses, ...notFoundResponse },
});

const listLogs = createRoute({
  method: 'get',
  path: '/hooks/{id}/recent-logs',
  tags,
  summary: 'Delivery attempts of the last 24 hours, newest first',
  request: { params: idParams, query: hookLogsQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(hookLogSchema), 'A page of attempts.'), headers: paginatedHeaders },
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

const success = sql`${hookLogs.responseStatus} between 200 and 299`;

/** Adds each hook's attempts of the last 24 hours (two index range counts per hook; pages are ≤ 100). */
async function withStats(tenant: TenantDb, list: Hook[]): Promise<Hook[]> {
  const since = gte(hookLogs.createdAt, new Date(Date.now() - RECENT_MS));
  return Promise.all(
    list.map(async (hook) => {
      const own = allOf(eq(hookLogs.hookId, hook.id), since);
      const [requestCount, successCount] = await Promise.all([
        tenant.count(hookLogs, own),
        tenant.count(hookLogs, allOf(own, success)),
      ]);
      return { ...hook, executionStats: { requestCount, successCount } };
    }),
  );
}

export const hooksRoutes = createRouter()
  .openapi(listHooks, async (c) => {
    const query = c.req.valid('query');
    const pattern = query.search ? likePattern(query.search) : undefined;
    const rows = await listPage(c, hooks, query, {
      where: pattern ? or(ilike(hooks.name, pattern), sql`${hooks.config}->>'url' ilike ${pattern}`) : undefined,
      orderBy: [desc(hooks.createdAt), desc(hooks.id)],
    });
    const list = rows.map(toHook);
    return c.json(query.includeExecutionStats === 'true' ? await withStats(c.get('tenant'), list) : list, 200);
  })
  .openapi(createHook, async (c) => {
    const hook = await performWrite(
      writeContext(c),
      { key: 'Admin.Hook.Created', schema: hookCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        await assertQuota(tx, 'hooksLimit', c.get('config'));
        const created = toHook(
          await tx.insert(hooks, {
            id: generateId(),
            name: input.name,
            events: input.events,
            config: {
              url: input.config.url,
              headers: input.config.headers ?? {},
              retries: input.config.retries ?? HOOK_RETRIES_DEFAULT,
            },
            signingKey: generateSigningKey(),
            enabled: input.enabled ?? true,
          }),
        );
        return {
          result: created,
          entity: { type: 'Hook', id: created.id },
          before: null,
          after: auditedHook(created),
        };
      },
    );
    return c.json(hook, 201);
  })
  .openapi(getHook, async (c) => {
    const hook = toHook(await findHook(c.get('tenant'), c.req.valid('param').id));
    if (c.req.valid('query').includeExecutionStats !== 'true') return c.json(hook, 200);
    const [withCounts = hook] = await withStats(c.get('tenant'), [hook]);
    return c.json(withCounts, 200);
  })
  .openapi(patchHook, async (c) => {
    const { id } = c.req.valid('param');
    const hook = await performWrite(
      writeContext(c),
      { key: 'Admin.Hook.Updated', schema: hookPatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const before = toHook(await findHook(tx, id));
        if (!Object.keys(input).length) {
          return {
            result: before,
            entity: { type: 'Hook', id },
            before: auditedHook(before),
            after: auditedHook(before),
          };
        }
        const { config, ...rest } = input;
        const [row] = await tx.update(hooks, eq(hooks.id, id), {
          ...rest,
          ...(config
            ? {
                config: {
                  url: config.url ?? before.config.url,
                  headers: config.headers ?? before.config.headers,
                  retries: config.retries ?? before.config.retries,
                },
              }
            : {}),
        });
        if (!row) throw new Error('the hook vanished inside its transaction');
        const after = toHook(row);
        return { result: after, entity: { type: 'Hook', id }, before: auditedHook(before), after: auditedHook(after) };
      },
    );
    return c.json(hook, 200);
  })
  .openapi(deleteHook, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(writeContext(c), { key: 'Admin.Hook.Deleted', schema: z.object({}), input: {} }, async (tx) => {
      const before = toHook(await findHook(tx, id));
      await tx.delete(hooks, eq(hooks.id, id));
      return { result: undefined, entity: { type: 'Hook', id }, before: auditedHook(before), after: null };
    });
    return c.body(null, 204);
  })
  .openapi(rotateKey, async (c) => {
    const { id } = c.req.valid('param');
    const hook = await performWrite(
      writeContext(c),
      { key: 'Admin.Hook.SigningKeyRotated', schema: z.object({}), input: {} },
      async (tx) => {
        const before = toHook(await findHook(tx, id));
        const [row] = await tx.update(hooks, eq(hooks.id, id), { signingKey: generateSigningKey() });
        if (!row) throw new Error('the hook vanished inside its transaction');
        const after = toHook(row);
        // The audit entry says the key changed without holding either key.
        return {
          result: after,
          entity: { type: 'Hook', id },
          before: { ...auditedHook(before), signingKey: 'previous' },
          after: { ...auditedHook(after), signingKey: 'rotated' },
        };
      },
    );
    return c.json(hook, 200);
  })
  .openapi(testHook, async (c) => {
    const { id } = c.req.valid('param');
    const hook = await findHook(c.get('tenant'), id);
    const input = hookTestSchema.safeParse((await c.req.text()) ? await c.req.json() : {});
    if (!input.success) throw new ApiError(400, 'guard.invalid_input');
    const event = input.data.event ?? hook.events[0] ?? 'User.Created';
    const body = deliveryBody(hook.id, `test-${generateId(12)}`, event, {
      createdAt: Date.now(),
      actor: c.get('auth').actor,
      data: { test: true, message: 'A sample payload sent from the Gatehouse management API.' },
    });
    const result = await sendOnce(hook, body, { outbound: c.get('config').outbound });
    return c.json(
      {
        success: result.success,
        responseStatus: result.responseStatus,
        responseBody: result.responseBody,
        durationMs: result.durationMs,
        error: result.error,
      },
      200,
    );
  })
  .openapi(listLogs, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    await findHook(c.get('tenant'), id);
    const conditions: SQL[] = [eq(hookLogs.hookId, id), gte(hookLogs.createdAt, new Date(Date.now() - RECENT_MS))];
    if (query.status === 'success') conditions.push(success);
    if (query.status === 'failed') conditions.push(anyOf(isNull(hookLogs.responseStatus), not(success)));
    if (query.event) conditions.push(eq(hookLogs.event, query.event));
    const rows = await listPage(c, hookLogs, query, {
      where: and(...conditions),
      orderBy: [desc(hookLogs.createdAt), desc(hookLogs.id)],
    });
    return c.json(rows.map(toHookLog), 200);
  })
  .openapi(getLog, async (c) => {
    const { id, logId } = c.req.valid('param');
    const row = await c.get('tenant').findOne(hookLogs, allOf(eq(hookLogs.hookId, id), eq(hookLogs.id, logId)));
    if (!row) throw new ApiError(404, 'entity.not_found');
    return c.json(toHookLog(row), 200);
  })
  .openapi(replayLog, async (c) => {
    const { id, logId } = c.req.valid('param');
    const tenant = c.get('tenant');
    const hook = await findHook(tenant, id);
    const original = await tenant.findOne(hookLogs, allOf(eq(hookLogs.hookId, id), eq(hookLogs.id, logId)));
    if (!original) throw new ApiError(404, 'entity.not_found');
    const result = await sendOnce(hook, original.request.body, { outbound: c.get('config').outbound });
    const row = await tenant.insert(hookLogs, {
      id: generateId(),
      hookId: id,
      deliveryId: original.deliveryId,
      event: original.event,
      attempt: 1,
      request: result.request,
      responseStatus: result.responseStatus,
      responseBody: result.responseBody,
      durationMs: result.durationMs,
      error: result.error,
      replayOf: original.id,
    });
    return c.json(toHookLog(row), 201);
  });
