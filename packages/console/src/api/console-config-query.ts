import { useQuery } from '@tanstack/react-query';
import { loadConsoleConfig } from '../auth/console-config.ts';

/** The well-known console configuration (edition, version, admin issuer): loaded at sign-in, never stale. */
export function useConsoleConfig(options: { silent?: boolean } = {}) {
  return useQuery({
    queryKey: ['well-known', 'console'],
    queryFn: () => loadConsoleConfig(),
    staleTime: Number.POSITIVE_INFINITY,
    ...(options.silent ? { meta: { silenceErrorCodes: true } } : {}),
  });
}
