import { accessToken } from '../auth/session.ts';
import { i18n } from '../i18n/index.ts';

/** Long enough for a slow admin query, short enough that a dead server shows as an error, not a spinner. */
const requestTimeoutMs = 20_000;

/** A non-2xx answer. `code` is set when the server sent the `{code, message}` body of the API conventions. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, message: string, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

function isErrorBody(value: unknown): value is { code: string; message: string } {
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
  if (isErrorBody(body)) return new ApiError(response.status, body.message, body.code);
  return new ApiError(response.status, response.statusText || i18n.t('errors.unknown_server_error'));
}

/** The console's one HTTP client: answers in the interface language, gives up after the timeout. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const language = i18n.resolvedLanguage ?? i18n.language;
  if (language) headers.set('Accept-Language', language);
  // Spec §6: every console call carries the signed-in user's bearer token.
  if (!headers.has('Authorization')) {
    const token = await accessToken().catch(() => undefined);
    if (token) headers.set('Authorization', `Bearer ${token}`);
  }
  const timeout = AbortSignal.timeout(requestTimeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  const response = await fetch(path, { ...init, headers, signal });
  if (!response.ok) throw await toApiError(response);
  return response;
}
