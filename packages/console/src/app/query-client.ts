import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';
import { raiseIfQuotaExceeded } from '../cloud/quota/quota-exceeded.ts';
import { toaster } from './toaster.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** A query or mutation may silence the error toast for chosen error codes, or for all (spec §8). */
    queryMeta: { silenceErrorCodes?: readonly string[] | true };
    mutationMeta: { silenceErrorCodes?: readonly string[] | true };
  }
}

/**
 * Quotas are the cloud's: the OSS server never refuses with them, and its build leaves the check (and the plan
 * schemas it parses with) out of the first page.
 */
const editionQuotaCheck = import.meta.env.GATEHOUSE_EDITION === 'cloud' ? raiseIfQuotaExceeded : () => false;

/**
 * Spec §8: API errors show a toast with the server's message, except 401 (a session matter) and silenced codes. A
 * quota refusal (cloud) opens the quota modal instead, whatever the caller silenced: it is the one way it is told.
 */
export function toastApiError(
  error: Error,
  silence: readonly string[] | true | undefined,
  raiseQuota: (error: ApiError) => boolean = editionQuotaCheck,
): void {
  if (!(error instanceof ApiError) || error.status === 401) return;
  if (raiseQuota(error)) return;
  if (silence === true) return;
  if (error.code && silence?.includes(error.code)) return;
  const details = apiErrorDetails(error);
  toaster.error(details ? `${error.message} (${details})` : error.message);
}

/** At most this many details follow the message; the rest are counted. */
const SHOWN_DETAILS = 3;

/**
 * What the server said beside its message (`data` of `{code, message, data}`), in a line a person can act on: the
 * invalid fields (`guard.invalid_input`: `name: Too big…`), or the ids or names it refused. Undefined when `data` holds
 * nothing of those shapes (the message then says it all).
 */
export function apiErrorDetails(error: ApiError): string | undefined {
  const { data } = error;
  const items = Array.isArray(data)
    ? data.map((item) =>
        typeof item === 'object' && item !== null && 'path' in item
          ? [String(item.path), 'message' in item ? String(item.message) : ''].filter(Boolean).join(': ')
          : String(item),
      )
    : typeof data === 'object' && data !== null
      ? (['ids', 'names', 'fields'] as const).flatMap((key) => {
          const value = (data as Record<string, unknown>)[key];
          return Array.isArray(value) ? value.map(String) : [];
        })
      : [];
  const shown = items.filter(Boolean);
  if (!shown.length) return undefined;
  const rest = shown.length - SHOWN_DETAILS;
  return shown.slice(0, SHOWN_DETAILS).join('; ') + (rest > 0 ? `; +${rest}` : '');
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => toastApiError(error, query.meta?.silenceErrorCodes) }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => toastApiError(error, mutation.meta?.silenceErrorCodes),
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A 4xx answer will not change by asking again; network failures and 5xx might.
      retry: (failureCount, error) => failureCount < 2 && !(error instanceof ApiError && error.status < 500),
    },
  },
});
