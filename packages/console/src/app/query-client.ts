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
  toaster.error(error.message);
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
