import { TOTAL_NUMBER_HEADER, TOTAL_NUMBER_IS_CAPPED_HEADER } from '@gatehouse/schemas';
import { SessionExpiredError, type TokenTarget, tokenFor } from '../auth/session.ts';
import { handleForbidden, handleSessionExpired } from '../auth/session-errors.ts';
import { i18n } from '../i18n/index.ts';
import type { Parser } from './json-guards.ts';
import { managementTenantOf } from './management-path.ts';

/** Long enough for a slow admin query, short enough that a dead server shows as an error, not a spinner. */
const requestTimeoutMs = 20_000;

/** Spec §6: this exact 403 message means the account lost its access; it signs out. */
const insufficientPermissions = 'Insufficient permissions.';

/** A non-2xx answer. `code` is set when the server sent the `{code, message}` body of the API conventions. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly data: unknown;
  /** The server's id of the request (`X-Request-Id`), which its logs and audit entries carry: for support. */
  readonly requestId: string | undefined;

  constructor(status: number, message: string, code?: string, data?: unknown, requestId?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.data = data;
    this.requestId = requestId;
  }
}

/** The header the server names each request by (spec §8: the account deletion's error modal shows it). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

function isErrorBody(value: unknown): value is { code: string; message: string; data?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'code' in value &&
    typeof value.code === 'string' &&
    'message' in value &&
    typeof value.message === 'string'
  );
}

/** Spec §8: the server's message when the body reads, else the status text, else 'unknown server error'. */
async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
  if (isErrorBody(body)) return new ApiError(response.status, body.message, body.code, body.data, requestId);
  return new ApiError(
    response.status,
    response.statusText || i18n.t('errors.unknown_server_error'),
    undefined,
    undefined,
    requestId,
  );
}

export type RequestOptions = RequestInit & {
  /** The API the token is for (resource indicator); the management API when absent. */
  resource?: string | Promise<string>;
  /** The token to send, when it is not a resource's: a tenant's organization token. Wins over `resource`. */
  token?: TokenTarget;
  /** How long the whole exchange, body included, may take; 20 s unless a caller streams a large body. */
  timeoutMs?: number;
  /** A JSON body, sent as such with its Content-Type. */
  json?: unknown;
};

/**
 * Which token a request carries. Explicit `token` first; else a cloud tenant's management API path ('/m/{id}/api',
 * see management.ts) takes that tenant's organization token (spec §6), since every area's hooks build their paths
 * with managementPath(); else the resource's token (the sign-in's API when no resource is named).
 */
export function tokenTargetOf(path: string, token: TokenTarget | undefined, resource: string | undefined): TokenTarget {
  if (token) return token;
  if (resource === undefined) {
    const tenantId = managementTenantOf(path);
    if (tenantId !== undefined) return { kind: 'organization', tenantId };
  }
  return resource === undefined ? { kind: 'resource' } : { kind: 'resource', resource };
}

/**
 * The console's one HTTP client: answers in the interface language, gives up after the timeout,
 * carries the bearer token of the right API, and turns session failures into the spec's §4/§6
 * reactions (sign in afresh on 401 or a spent session, sign out on lost permissions).
 */
export async function request(path: string, init: RequestOptions = {}): Promise<Response> {
  const { resource, token: target, timeoutMs = requestTimeoutMs, json, ...fetchInit } = init;
  const headers = new Headers(fetchInit.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (json !== undefined) {
    headers.set('Content-Type', 'application/json');
    fetchInit.body = JSON.stringify(json);
  }
  const language = i18n.resolvedLanguage ?? i18n.language;
  if (language) headers.set('Accept-Language', language);
  if (!headers.has('Authorization')) {
    let token: string | undefined;
    try {
      token = await tokenFor(tokenTargetOf(path, target, await resource));
    } catch (error) {
      if (error instanceof SessionExpiredError) return handleSessionExpired();
      throw error;
    }
    if (token) headers.set('Authorization', `Bearer ${token}`);
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = fetchInit.signal ? AbortSignal.any([fetchInit.signal, timeout]) : timeout;
  const response = await fetch(path, { ...fetchInit, headers, signal });
  if (response.ok) return response;
  const error = await toApiError(response);
  if (error.status === 401) return handleSessionExpired();
  if (error.status === 403 && (error.code === 'auth.forbidden' || error.message === insufficientPermissions)) {
    await handleForbidden(error.code === 'auth.forbidden');
  }
  throw error;
}

/** A JSON request whose answer is checked against `schema` (the shared contract; or a guard, json-guards.ts). */
export async function requestJson<T>(path: string, schema: Parser<T>, init: RequestOptions = {}): Promise<T> {
  const response = await request(path, init);
  return schema.parse(await response.json());
}

/** `isTotalCapped`: the server stopped counting (very large lists), so `total` is a lower bound. */
export type Page<T> = { items: T[]; total: number; isTotalCapped?: boolean };

/** Spec §7: list GETs return a `Total-Number` header; without it the list cannot paginate (spec §8). */
export async function requestPage<T>(path: string, itemSchema: Parser<T>, init: RequestOptions = {}): Promise<Page<T>> {
  const response = await request(path, init);
  const header = response.headers.get(TOTAL_NUMBER_HEADER);
  const total = header === null ? Number.NaN : Number(header);
  if (!Number.isInteger(total) || total < 0) {
    throw new ApiError(response.status, i18n.t('errors.missing_total_number'), 'missing_total_number');
  }
  const body: unknown = await response.json();
  if (!Array.isArray(body)) throw new ApiError(response.status, i18n.t('errors.unknown_server_error'));
  return {
    items: body.map((item) => itemSchema.parse(item)),
    total,
    isTotalCapped: response.headers.get(TOTAL_NUMBER_IS_CAPPED_HEADER) === 'true',
  };
}
