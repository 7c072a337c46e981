import { useQuery } from '@tanstack/react-query';
import { request } from './client.ts';

export const serverStatusQueryKey = ['status'] as const;

/** True when `GET /api/status` answers 204, the server's "up" signal. */
export function useServerStatus() {
  return useQuery({
    queryKey: serverStatusQueryKey,
    queryFn: async ({ signal }) => (await request('/api/status', { signal })).status === 204,
    // The page shows 'unreachable' with its own retry button; silent retries would only delay that.
    retry: false,
  });
}
