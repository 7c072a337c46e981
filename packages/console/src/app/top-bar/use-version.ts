import { useQuery } from '@tanstack/react-query';
import { useConsoleConfig } from '../../api/console-config-query.ts';

/** Build-time setting; without it the console never calls out (the server's CSP also has to allow that origin). */
const releaseInfoUrl = import.meta.env.VITE_RELEASE_INFO_URL;

/** The running version, as the server reports it (its package.json's); undefined until it has answered. */
export function useProductVersion(): string | undefined {
  const config = useConsoleConfig({ silent: true });
  return config.data?.version || undefined;
}

/** The newer release the version badge's dot announces, checked once per visit. */
export function useNewerRelease(
  current: string | undefined,
  url: string | undefined = releaseInfoUrl,
): string | undefined {
  const newer = useQuery({
    queryKey: ['release-info', url, current],
    // TanStack Query refuses undefined as data, so 'nothing newer' is null.
    queryFn: async ({ signal }) => {
      if (!url || !current) return null;
      // The check's code comes with its request: a console built without the URL never loads it.
      const { fetchLatestRelease, newerRelease } = await import('./release-check.ts');
      const latest = await fetchLatestRelease(url, (input, init) => fetch(input, init), signal);
      return (latest && newerRelease(latest, current)) ?? null;
    },
    enabled: Boolean(url && current),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return newer.data ?? undefined;
}
