import { PRODUCT_VERSION } from '@gatehouse/schemas';
import { useQuery } from '@tanstack/react-query';
import { useConsoleConfig } from '../../api/tenant-endpoints.ts';
import { fetchLatestRelease, newerRelease } from './release-check.ts';

/** Build-time setting; without it the console never calls out (the server's CSP also has to allow that origin). */
const releaseInfoUrl = import.meta.env.VITE_RELEASE_INFO_URL;

/** The running version: the server's own when it reports one, else the product version of spec §9. */
export function useProductVersion(): string {
  const config = useConsoleConfig({ silent: true });
  return config.data?.version || PRODUCT_VERSION;
}

/** The newer release the version badge's dot announces, checked once per visit. */
export function useNewerRelease(current: string, url: string | undefined = releaseInfoUrl): string | undefined {
  const latest = useQuery({
    queryKey: ['release-info', url],
    // TanStack Query refuses undefined as data, so 'no answer' is null.
    queryFn: async ({ signal }) =>
      (url ? await fetchLatestRelease(url, (input, init) => fetch(input, init), signal) : undefined) ?? null,
    enabled: Boolean(url),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return latest.data ? newerRelease(latest.data, current) : undefined;
}
