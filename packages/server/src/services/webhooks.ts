import { createHmac, randomBytes } from 'node:crypto';
import {
  DomainError,
  HOOK_REFERENCE_SIGNATURE_HEADER,
  HOOK_SIGNATURE_HEADER,
  type Hook,
  type HookAttemptErrorKind,
  type HookLog,
  type HookLogPayload,
  hookAttemptErrorKinds,
  hookLogKey,
  interactionEvents,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { type hookLogs, hooks } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { OutboundAddressRefused, type OutboundPolicy, outboundFetch } from './outbound.ts';

type HookRow = typeof hooks.$inferSelect;
type HookLogRow = typeof hookLogs.$inferSelect;

/** A receiver that does not answer within this time counts as a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is kept of an endpoint's answer: a short excerpt for the console, never a foreign server's whole body. */
export const RESPONSE_BODY_MAX = 512;
const REDACTED = '[redacted]';

/** 32 random bytes as 64 hex characters: the HMAC key of a hook. */
export const generateSigningKey = (): string => randomBytes(32).toString('hex');

/** Hex HMAC-SHA256 of the raw body: what the receiver recomputes to verify a delivery. */
export const signBody = (body: string, signingKey: string): string =>
  createHmac('sha256', signingKey).update(body).digest('hex');

export function toHook(row: HookRow): Hook {
  return {
    tenantId: row.tenantId,
    id: row.id,
    name: row.name,
    events: row.events,
    config: { url: row.config.url, headers: row.headers, retries: row.config.retries },
    signingKey: row.signingKey,
    enabled: row.enabled,
    createdAt: row.createdAt.getTime(),
  };
}

/** The hook as the audit log keeps it: no signing key, and header values hidden (they often hold tokens). */
export function auditedHook(hook: Hook): Record<string, unknown> {
  const { signingKey: _secret, ...rest } = hook;
  return {
    ...rest,
    config: {
      ...hook.config,
      headers: Object.fromEntries(Object.keys(hook.config.headers).map((name) => [name, REDACTED])),
    },
  };
}

/**
 * The hook of this tenant with that id, or 404: `entity.not_exists_with_id` by default; the updates (PATCH of the hook
 * and of its signing key) pass `entity.not_exists`, the reference's code for an update that found no row.
 */
export async function findHook(
  tenant: TenantDb,
  id: string,
  missing: 'entity.not_exists_with_id' | 'entity.not_exists' = 'entity.not_exists_with_id',
): Promise<HookRow> {
  const row = await tenant.findOne(hooks, eq(hooks.id, id));
  if (!row) throw new DomainError('not_found', missing);
  return row;
}

export function toHookLog(row: HookLogRow): HookLog {
  return {
    id: row.id,
    hookId: row.hookId,
    deliveryId: row.deliveryId,
    event: row.event,
    attempt: row.attempt,
    maxAttempts: row.maxAttempts,
    request: row.request,
    responseStatus: row.responseStatus,
    responseBody: row.responseBody,
    durationMs: row.durationMs,
    error: row.error,
    errorKind: isErrorKind(row.errorKind) ? row.errorKind : null,
    replayOf: row.replayOf,
    success: isSuccess(row.responseStatus),
    createdAt: row.createdAt.getTime(),
    key: hookLogKey(row.event),
    payload: referencePayload(row),
  };
}

/** Parsed JSON, or the text itself when it is not JSON (as the reference logs bodies). */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The attempt as the reference's audit-log entry of a webhook request (`TriggerHook.<event>`): result, the body sent,
 * the endpoint's status and body when it answered, and the error when it failed.
 */
function referencePayload(row: HookLogRow): HookLogPayload {
  const succeeded = isSuccess(row.responseStatus);
  const error =
    row.error ??
    (succeeded || row.responseStatus === null ? undefined : `Request failed with status code ${row.responseStatus}`);
  return {
    key: hookLogKey(row.event),
    result: succeeded ? 'Success' : 'Error',
    hookId: row.hookId,
    hookRequest: { body: jsonOrText(row.request.body) },
    ...(row.responseStatus === null
      ? {}
      : { response: { statusCode: row.responseStatus, body: jsonOrText(row.responseBody ?? '') } }),
    ...(error === undefined ? {} : { error }),
  };
}

const isErrorKind = (value: string | null): value is HookAttemptErrorKind =>
  hookAttemptErrorKinds.some((kind) => kind === value);

const isSuccess = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

/**
 * The JSON body a hook receives for one event: Gatehouse's fields (`hookId`, `deliveryId`, `event`, `createdAt`,
 * `actor`, `data`) and, beside them, the reference's (docs/areas/webhooks.md), so a receiver written for either parses
 * it unchanged. An event a management API request caused carries the request as the reference's data hooks do (`path`,
 * `method`, `matchedRoute`, `status`, `params`, `ip`, `userAgent`); a sign-in flow's event carries the reference's
 * interaction fields at the top level (`interactionEvent`, `userId`, `user`, `application`, `userIp`, `userAgent`).
 */
export function deliveryBody(
  hookId: string,
  deliveryId: string,
  event: string,
  payload: Record<string, unknown>,
): string {
  const createdAt = typeof payload.createdAt === 'number' ? payload.createdAt : Date.now();
  const data = payload.data ?? null;
  return JSON.stringify({
    hookId,
    deliveryId,
    event,
    createdAt: new Date(createdAt).toISOString(),
    ...requestFields(payload.request),
    ...interactionFields(event, data),
    actor: payload.actor ?? null,
    data,
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The reference's API context of a data hook, from the request the outbox row kept (nothing for other writes). */
function requestFields(request: unknown): Record<string, unknown> {
  if (!isRecord(request)) return {};
  const { path, method, matchedRoute, status, params, ip, userAgent } = request;
  return {
    path,
    method,
    matchedRoute,
    status,
    params,
    ...(typeof ip === 'string' ? { ip } : {}),
    ...(typeof userAgent === 'string' ? { userAgent } : {}),
  };
}

const interactionEventNames: ReadonlySet<string> = new Set(interactionEvents);

/** A sign-in flow's data (services/interaction-events.ts) at the top level, under the reference's names. */
function interactionFields(event: string, data: unknown): Record<string, unknown> {
  if (!interactionEventNames.has(event) || !isRecord(data)) return {};
  const { interactionEvent, userId, user, application, ip, userAgent } = data;
  return {
    interactionEvent,
    userId,
    user,
    ...(application ? { application } : {}),
    ...(typeof ip === 'string' ? { userIp: ip } : {}),
    ...(typeof userAgent === 'string' ? { userAgent } : {}),
  };
}

export type AttemptResult = {
  request: { url: string; headers: Record<string, string>; body: string };
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
  /** Why no answer came (null when one did). */
  errorKind: HookAttemptErrorKind | null;
  success: boolean;
};

/**
 * The signed request of one attempt: the headers to send (custom headers, content type, signature) and the
 * request as the attempt log keeps it (custom header values redacted). The signature depends only on the body
 * and the key, so an attempt recorded before sending matches what is sent. It goes in two headers with the same
 * value: Gatehouse's and the reference's (`logto-signature-sha-256`), which receivers written for it verify.
 */
export function signedRequest(hook: Pick<HookRow, 'config' | 'headers' | 'signingKey'>, body: string) {
  const custom = hook.headers;
  const signature = signBody(body, hook.signingKey);
  const signed = {
    'Content-Type': 'application/json',
    'User-Agent': 'Gatehouse-Webhooks/1',
    [HOOK_SIGNATURE_HEADER]: signature,
    [HOOK_REFERENCE_SIGNATURE_HEADER]: signature,
  };
  const headers: Record<string, string> = { ...custom, ...signed };
  const logged: Record<string, string> = {
    ...Object.fromEntries(Object.keys(custom).map((name) => [name, REDACTED])),
    ...signed,
  };
  return { headers, request: { url: hook.config.url, headers: logged, body } };
}

/**
 * One POST of `body` to the hook's endpoint with its headers and the signature, within the timeout.
 * Never throws: a network error, a timeout or a non-2xx answer is a failed attempt. Redirects are
 * not followed (the signed request goes only where the admin said).
 */
export async function sendOnce(
  hook: Pick<HookRow, 'config' | 'headers' | 'signingKey'>,
  body: string,
  { timeoutMs = DELIVERY_TIMEOUT_MS, outbound }: { timeoutMs?: number; outbound: OutboundPolicy },
): Promise<AttemptResult> {
  const { headers, request } = signedRequest(hook, body);
  const started = performance.now();
  try {
    const response = await outboundFetch(outbound)(hook.config.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await readTruncated(response);
    const durationMs = Math.round(performance.now() - started);
    const success = isSuccess(response.status);
    return {
      request,
      responseStatus: response.status,
      responseBody: text,
      durationMs,
      error: success ? null : `The endpoint answered ${response.status}.`,
      errorKind: null,
      success,
    };
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
    const refused = error instanceof OutboundAddressRefused ? error : cause instanceof OutboundAddressRefused && cause;
    const message = timedOut
      ? `No answer within ${timeoutMs} ms.`
      : refused
        ? refused.message
        : `${error instanceof Error ? error.message : String(error)}${cause ? `: ${cause.message}` : ''}`;
    const errorKind: HookAttemptErrorKind = timedOut
      ? 'timeout'
      : refused
        ? 'blocked'
        : isConnectionRefused(cause)
          ? 'refused'
          : 'network';
    return { request, responseStatus: null, responseBody: null, durationMs, error: message, errorKind, success: false };
  }
}

/** Node's fetch puts the socket error (`ECONNREFUSED`: nothing listens there) in the cause. */
const isConnectionRefused = (cause: Error | undefined): boolean =>
  cause !== undefined && 'code' in cause && cause.code === 'ECONNREFUSED';

/** The response text, cut at {@link RESPONSE_BODY_MAX} characters without reading a huge body to its end. */
async function readTruncated(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < RESPONSE_BODY_MAX) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, RESPONSE_BODY_MAX);
}
