import { z } from 'zod';
import { paginationQuerySchema } from '../api/pagination.ts';
import { type AcceptedHookEvent, acceptedHookEvents } from '../events.ts';
import { idSchema } from '../ids.ts';

/** Spec §3 hook, §5 retries 0–3. */
export const HOOK_NAME_MAX = 256;
export const HOOK_URL_MAX = 2048;
export const HOOK_RETRIES_MAX = 3;
export const HOOK_RETRIES_DEFAULT = 3;
export const HOOK_HEADERS_MAX = 20;
export const HOOK_HEADER_NAME_MAX = 256;
export const HOOK_HEADER_VALUE_MAX = 4096;
/** The header carrying hex HMAC-SHA256 of the raw body with the hook's signing key. */
export const HOOK_SIGNATURE_HEADER = 'gatehouse-signature-sha-256';
/** The same signature under the reference's header name, which receivers written for the reference read. */
export const HOOK_REFERENCE_SIGNATURE_HEADER = 'logto-signature-sha-256';

/**
 * Headers the sender sets itself (framing, content type, signature) or that would redirect the
 * request; a hook may not override them.
 */
export const hookReservedHeaders = [
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-connection',
  HOOK_SIGNATURE_HEADER,
  HOOK_REFERENCE_SIGNATURE_HEADER,
] as const;

/** An event name a hook may subscribe to (`acceptedHookEvents`: the reference's names, fired or not yet). */
export const hookEventSchema = z.enum(acceptedHookEvents as [AcceptedHookEvent, ...AcceptedHookEvent[]]);

export const hookEventsSchema = z
  .array(hookEventSchema)
  .min(1, 'choose at least one event')
  .refine((events) => new Set(events).size === events.length, 'each event at most once');

export const hookUrlSchema = z
  .string()
  .max(HOOK_URL_MAX)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  }, 'must be an absolute http(s) URL')
  .refine((value) => {
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'must not carry credentials (user:password@); send them in a header');

// RFC 9110 token for names; values without control characters (no header injection).
const headerNameRegex = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
const headerValueRegex = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;

export const hookHeadersSchema = z
  .record(
    z
      .string()
      .min(1)
      .max(HOOK_HEADER_NAME_MAX)
      .regex(headerNameRegex, "must be a header name (letters, digits and !#$%&'*+.^_`|~-)")
      .refine(
        (name) => !(hookReservedHeaders as readonly string[]).includes(name.toLowerCase()),
        'is set by the sender and cannot be overridden',
      ),
    z.string().max(HOOK_HEADER_VALUE_MAX).regex(headerValueRegex, 'must not contain line breaks or control characters'),
  )
  .refine((headers) => Object.keys(headers).length <= HOOK_HEADERS_MAX, `at most ${HOOK_HEADERS_MAX} headers`)
  .refine(
    (headers) => new Set(Object.keys(headers).map((name) => name.toLowerCase())).size === Object.keys(headers).length,
    'each header name at most once (names are case-insensitive)',
  );

export const hookRetriesSchema = z.number().int().min(0).max(HOOK_RETRIES_MAX);

export const hookConfigSchema = z.object({
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  retries: z.number().int(),
});
export type HookConfig = z.infer<typeof hookConfigSchema>;

export const hookSchema = z.object({
  tenantId: z.string(),
  id: idSchema,
  name: z.string(),
  events: z.array(z.string()),
  config: hookConfigSchema,
  signingKey: z.string(),
  enabled: z.boolean(),
  createdAt: z.number().int(),
  /** With `includeExecutionStats=true`: delivery attempts of the last 24 hours. */
  executionStats: z.object({ requestCount: z.number().int(), successCount: z.number().int() }).optional(),
});
export type Hook = z.infer<typeof hookSchema>;

export const hookStatsQuerySchema = z.object({
  includeExecutionStats: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'Add the attempts of the last 24 hours (`executionStats`).' }),
});
export const hookListQuerySchema = paginationQuerySchema.extend({
  ...hookStatsQuerySchema.shape,
  search: z.string().max(256).optional().meta({ description: 'Part of the name or endpoint URL.' }),
});

export const hookConfigInputSchema = z.strictObject({
  url: hookUrlSchema,
  headers: hookHeadersSchema.optional(),
  retries: hookRetriesSchema.optional(),
});

export const hookCreateSchema = z.strictObject({
  name: z.string().trim().min(1).max(HOOK_NAME_MAX),
  events: hookEventsSchema,
  config: hookConfigInputSchema,
  enabled: z.boolean().optional(),
});
export type HookCreate = z.infer<typeof hookCreateSchema>;

/** A partial update; `config` fields are merged into the saved config (`url` optional here). */
export const hookPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(HOOK_NAME_MAX).optional(),
  events: hookEventsSchema.optional(),
  config: z
    .strictObject({
      url: hookUrlSchema.optional(),
      headers: hookHeadersSchema.optional(),
      retries: hookRetriesSchema.optional(),
    })
    .optional(),
  enabled: z.boolean().optional(),
});
export type HookPatch = z.infer<typeof hookPatchSchema>;

/** Why an attempt got no answer: none in time, the connection refused, the address not allowed, another network error,
 * or the server stopped while it was in flight. */
export const hookAttemptErrorKinds = ['timeout', 'refused', 'blocked', 'network', 'interrupted'] as const;
export type HookAttemptErrorKind = (typeof hookAttemptErrorKinds)[number];

/**
 * An attempt as the reference's audit-log entry of it (`TriggerHook.<event>`): the fields its clients read from `GET
 * /hooks/{id}/recent-logs`, beside Gatehouse's own.
 */
export const hookLogPayloadSchema = z.object({
  key: z.string(),
  result: z.enum(['Success', 'Error']),
  hookId: idSchema,
  hookRequest: z.object({ body: z.unknown().meta({ description: 'The body sent (parsed JSON).' }) }),
  response: z
    .object({ statusCode: z.number().int(), body: z.unknown() })
    .optional()
    .meta({ description: 'What the endpoint answered (absent without an answer); the body parsed when it is JSON.' }),
  error: z.string().optional(),
});
export type HookLogPayload = z.infer<typeof hookLogPayloadSchema>;

/** One delivery attempt as the recent-requests list and detail show it. */
export const hookLogSchema = z.object({
  id: idSchema,
  hookId: idSchema,
  deliveryId: z.string().nullable(),
  event: z.string(),
  attempt: z.number().int().meta({ description: 'Which attempt of its delivery this is, from 1.' }),
  maxAttempts: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'The attempts the delivery was allowed (1 + the retries then); a replay is 1 of 1.' }),
  request: z.object({ url: z.string(), headers: z.record(z.string(), z.string()), body: z.string() }),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  errorKind: z
    .enum(hookAttemptErrorKinds)
    .nullable()
    .meta({ description: 'Why the attempt got no answer (null when it got one; a status code says the rest).' }),
  replayOf: z.string().nullable(),
  success: z.boolean(),
  createdAt: z.number().int(),
  key: z.string().meta({ description: "The reference's log key of the attempt: `TriggerHook.<event>`." }),
  payload: hookLogPayloadSchema,
});
export type HookLog = z.infer<typeof hookLogSchema>;

/** The reference's log key of a webhook attempt. */
export const hookLogKey = (event: string) => `TriggerHook.${event}`;

const epochMs = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a time in epoch milliseconds')
  .transform(Number);

export const hookLogsQuerySchema = paginationQuerySchema.extend({
  status: z.enum(['success', 'failed']).optional().meta({ description: 'Only successful (2xx) or failed attempts.' }),
  event: hookEventSchema.optional().meta({ description: 'Only attempts of this event.' }),
  logKey: z
    .string()
    .max(128)
    .optional()
    .meta({ description: 'Only attempts with this reference log key (`TriggerHook.<event>`).' }),
  start_time: epochMs.optional().meta({ description: 'Only attempts at or after this time (epoch ms).' }),
  end_time: epochMs.optional().meta({ description: 'Only attempts before this time (epoch ms).' }),
  enableCap: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'Stop counting at 10,000 (`Total-Number-Is-Capped: true` beyond).' }),
});

/** The answer of POST /hooks/{id}/test: what the endpoint did with a sample payload. */
export const hookTestResultSchema = z.object({
  success: z.boolean(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export type HookTestResult = z.infer<typeof hookTestResultSchema>;

/**
 * The body of POST /hooks/{id}/test, all optional: the reference's `events` (a sample is sent for each, in order, until
 * one fails) and `config` (an endpoint to try instead of the saved one, e.g. before saving it), or Gatehouse's `event`
 * (one sample). Without them, the hook's first event goes to its saved endpoint.
 */
export const hookTestSchema = z.strictObject({
  event: hookEventSchema.optional(),
  events: z
    .array(hookEventSchema)
    .max(acceptedHookEvents.length)
    .refine((events) => new Set(events).size === events.length, 'each event at most once')
    .optional(),
  config: z.strictObject({ url: hookUrlSchema, headers: hookHeadersSchema.optional() }).optional(),
});
