import {
  type Actor,
  DomainError,
  generateId,
  HOOK_RETRIES_DEFAULT,
  type Hook,
  type HookCreate,
  type HookLog,
  type HookPatch,
  type HookTestResult,
  hookLogKey,
  hookTestSchema,
  invalidFields,
} from '@gatehouse/schemas';
import { and, desc, eq, gte, ilike, isNull, lt, not, or, type SQL, sql } from 'drizzle-orm';
import { allOf, anyOf } from '../db/conditions.ts';
import { hookLogs, hooks } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, likePattern, tableList } from './list-query.ts';
import type { OutboundPolicy } from './outbound.ts';
import { assertQuota, type QuotaDeps } from './quota.ts';
import { auditedHook, deliveryBody, findHook, generateSigningKey, sendOnce, toHook, toHookLog } from './webhooks.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/** The management operations of webhooks: CRUD, key rotation, a test send, the recent requests and replay. */

/** Recent requests cover this window. */
const RECENT_MS = 24 * 60 * 60 * 1000;
const success = sql`${hookLogs.responseStatus} between 200 and 299`;

/** The condition and order of GET /hooks, newest first: `search` matches the name or the endpoint URL. */
export function hookListQuery(filter: { search?: string | undefined }): ListQuery {
  const pattern = filter.search ? likePattern(filter.search) : undefined;
  return {
    where: pattern ? or(ilike(hooks.name, pattern), sql`${hooks.config}->>'url' ilike ${pattern}`) : undefined,
    orderBy: [desc(hooks.createdAt), desc(hooks.id)],
  };
}

/** GET /hooks: the hooks a filter selects, newest first. */
export function hookList(tenant: TenantDb, filter: { search?: string | undefined }) {
  return tableList(tenant, hooks, hookListQuery(filter));
}

/** Adds each hook's attempts of the last 24 hours (two index range counts per hook; pages are ≤ 100). */
export async function withStats(tenant: TenantDb, list: Hook[]): Promise<Hook[]> {
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

export async function getHook(tenant: TenantDb, id: string, options: { withStats: boolean }): Promise<Hook> {
  const hook = toHook(await findHook(tenant, id));
  if (!options.withStats) return hook;
  const [withCounts = hook] = await withStats(tenant, [hook]);
  return withCounts;
}

export function createHook(ctx: WriteContext, deps: QuotaDeps, input: HookCreate): Promise<Hook> {
  return performWrite(ctx, 'Admin.Hook.Created', async (tx) => {
    await assertQuota(tx, 'hooksLimit', deps);
    const created = toHook(
      await tx.insert(hooks, {
        id: generateId(),
        name: input.name,
        events: input.events,
        config: { url: input.config.url, retries: input.config.retries ?? HOOK_RETRIES_DEFAULT },
        headers: input.config.headers ?? {},
        signingKey: generateSigningKey(),
        enabled: input.enabled ?? true,
      }),
    );
    return { result: created, entity: { type: 'Hook', id: created.id }, before: null, after: auditedHook(created) };
  });
}

/** A patch of a hook; `config` fields left out keep their stored values. */
export function updateHook(ctx: WriteContext, id: string, input: HookPatch): Promise<Hook> {
  return performWrite(ctx, 'Admin.Hook.Updated', async (tx) => {
    const before = toHook(await findHook(tx, id, 'entity.not_exists'));
    if (!Object.keys(input).length) {
      return { result: before, entity: { type: 'Hook', id }, before: auditedHook(before), after: auditedHook(before) };
    }
    const { config, ...rest } = input;
    const [row] = await tx.update(hooks, eq(hooks.id, id), {
      ...rest,
      ...(config
        ? {
            config: { url: config.url ?? before.config.url, retries: config.retries ?? before.config.retries },
            headers: config.headers ?? before.config.headers,
          }
        : {}),
    });
    if (!row) throw new Error('the hook vanished inside its transaction');
    const after = toHook(row);
    return { result: after, entity: { type: 'Hook', id }, before: auditedHook(before), after: auditedHook(after) };
  });
}

export function deleteHook(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.Hook.Deleted', async (tx) => {
    const before = toHook(await findHook(tx, id));
    await tx.delete(hooks, eq(hooks.id, id));
    return { result: undefined, entity: { type: 'Hook', id }, before: auditedHook(before), after: null };
  });
}

export function rotateSigningKey(ctx: WriteContext, id: string): Promise<Hook> {
  return performWrite(ctx, 'Admin.Hook.SigningKeyRotated', async (tx) => {
    const before = toHook(await findHook(tx, id, 'entity.not_exists'));
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
  });
}

/** Sends a sample payload once (no retries, not recorded), signed like a real delivery. */
/**
 * Sends sample payloads now, signed like real deliveries, once each (no retries) and unrecorded: one per event of
 * `events` in order (the reference's body), else the one `event`, else the hook's first event; to `config`'s endpoint
 * and headers when given, else the saved ones. Answers the last outcome when every endpoint answer was 2xx; otherwise
 * 422 with the failed outcome as `data`: `hook.send_test_payload_failed` when nothing came back (refused, timed out,
 * blocked by the outbound policy), `hook.endpoint_responded_with_error` for any other status (as the reference).
 */
export async function testHook(
  tenant: TenantDb,
  outbound: OutboundPolicy,
  id: string,
  actor: Actor,
  /** Reads the request's optional body (hookTestSchema); called once the hook is known to exist. */
  readBody: () => Promise<unknown>,
): Promise<HookTestResult> {
  const hook = await findHook(tenant, id);
  const input = hookTestSchema.safeParse(await readBody());
  if (!input.success) throw new DomainError('invalid', 'guard.invalid_input', invalidFields(input.error));
  const { config } = input.data;
  const target = config
    ? { ...hook, config: { ...hook.config, url: config.url }, headers: config.headers ?? hook.headers }
    : hook;
  const events = input.data.events?.length ? input.data.events : [input.data.event ?? hook.events[0] ?? 'User.Created'];
  let outcome: HookTestResult | undefined;
  for (const event of events) {
    const body = deliveryBody(hook.id, `test-${generateId(12)}`, event, {
      createdAt: Date.now(),
      actor,
      data: { test: true, message: 'A sample payload sent from the Gatehouse management API.' },
    });
    const result = await sendOnce(target, body, { outbound });
    outcome = {
      success: result.success,
      responseStatus: result.responseStatus,
      responseBody: result.responseBody,
      durationMs: result.durationMs,
      error: result.error,
    };
    if (!outcome.success) {
      const code =
        outcome.responseStatus === null ? 'hook.send_test_payload_failed' : 'hook.endpoint_responded_with_error';
      throw new DomainError('unprocessable', code, outcome);
    }
  }
  return outcome as HookTestResult;
}

/** The condition and order of a hook's recent requests (the last 24 hours), newest first. */
/**
 * The condition and order of a hook's recent requests (the last 24 hours, newest first): Gatehouse's `status` and
 * `event` filters, and the reference's `logKey` (`TriggerHook.<event>`; another key matches nothing) and
 * `start_time`/`end_time` window (epoch ms, start inclusive; 400 unless start is before end, as on `GET /logs`).
 */
export function hookLogListQuery(
  hookId: string,
  filter: {
    status?: 'success' | 'failed' | undefined;
    event?: string | undefined;
    logKey?: string | undefined;
    start_time?: number | undefined;
    end_time?: number | undefined;
  },
): ListQuery {
  if (filter.start_time !== undefined && filter.end_time !== undefined && filter.start_time >= filter.end_time) {
    throw new DomainError('invalid', 'guard.invalid_input', [
      { path: 'start_time', message: 'must be before end_time', code: 'custom' },
    ]);
  }
  const conditions: SQL[] = [eq(hookLogs.hookId, hookId), gte(hookLogs.createdAt, new Date(Date.now() - RECENT_MS))];
  if (filter.status === 'success') conditions.push(success);
  if (filter.status === 'failed') conditions.push(anyOf(isNull(hookLogs.responseStatus), not(success)));
  if (filter.event) conditions.push(eq(hookLogs.event, filter.event));
  if (filter.logKey !== undefined) {
    const prefix = hookLogKey('');
    conditions.push(
      filter.logKey.startsWith(prefix) ? eq(hookLogs.event, filter.logKey.slice(prefix.length)) : sql`false`,
    );
  }
  if (filter.start_time !== undefined) conditions.push(gte(hookLogs.createdAt, new Date(filter.start_time)));
  if (filter.end_time !== undefined) conditions.push(lt(hookLogs.createdAt, new Date(filter.end_time)));
  return { where: and(...conditions), orderBy: [desc(hookLogs.createdAt), desc(hookLogs.id)] };
}

/** GET /hooks/{id}/recent-logs: a hook's attempts a filter selects, newest first. */
export function hookLogList(tenant: TenantDb, hookId: string, filter: Parameters<typeof hookLogListQuery>[1]) {
  return tableList(tenant, hookLogs, hookLogListQuery(hookId, filter));
}

async function findHookLog(tenant: TenantDb, hookId: string, logId: string) {
  const row = await tenant.findOne(hookLogs, allOf(eq(hookLogs.hookId, hookId), eq(hookLogs.id, logId)));
  if (!row) throw new DomainError('not_found', 'entity.not_exists_with_id');
  return row;
}

export async function getHookLog(tenant: TenantDb, hookId: string, logId: string): Promise<HookLog> {
  return toHookLog(await findHookLog(tenant, hookId, logId));
}

/** Sends a recorded body again now, signed with the current key and headers; the new attempt names the original. */
export async function replayHookLog(
  tenant: TenantDb,
  outbound: OutboundPolicy,
  hookId: string,
  logId: string,
): Promise<HookLog> {
  const hook = await findHook(tenant, hookId);
  const original = await findHookLog(tenant, hookId, logId);
  const result = await sendOnce(hook, original.request.body, { outbound });
  const row = await tenant.insert(hookLogs, {
    id: generateId(),
    hookId,
    deliveryId: original.deliveryId,
    event: original.event,
    attempt: 1,
    maxAttempts: 1,
    request: result.request,
    responseStatus: result.responseStatus,
    responseBody: result.responseBody,
    durationMs: result.durationMs,
    error: result.error,
    errorKind: result.errorKind,
    replayOf: original.id,
  });
  return toHookLog(row);
}
