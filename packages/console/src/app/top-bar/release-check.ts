import { guard, object, refine, string } from '../../api/json-guards.ts';

/**
 * Spec §3/§5: the published release-info file; latestRelease must be a string starting with 'v'. A guard, not a zod
 * schema: the top bar checks on every page, and the first page does without zod (api/json-guards.ts).
 */
export const releaseInfoSchema = guard(
  object({ latestRelease: refine(string, (value) => value.startsWith('v'), "a string starting with 'v'") }),
);

/** The numeric parts of 'v1.25.0' or '1.25.0-rc.1' ([1, 25, 0]); undefined when there are none. */
export function versionParts(version: string): number[] | undefined {
  const core = /^v?(\d+(?:\.\d+)*)/.exec(version.trim())?.[1];
  return core?.split('.').map(Number);
}

/** Spec §5: versions compare part by part as numbers (1.10 is newer than 1.9); a missing part counts as 0. */
export function compareVersions(a: string, b: string): number {
  const left = versionParts(a) ?? [];
  const right = versionParts(b) ?? [];
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** The latest release when it is newer than the running version; undefined otherwise. */
export function newerRelease(latestRelease: string, current: string): string | undefined {
  if (!versionParts(latestRelease) || !versionParts(current)) return undefined;
  return compareVersions(latestRelease, current) > 0 ? latestRelease : undefined;
}

export type FetchLike = (
  url: string,
  init: { signal?: AbortSignal; headers?: Record<string, string> },
) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}>;

/**
 * Reads the release-info file. Spec §7: a failing check must never disturb the console, so every failure (network,
 * HTTP status, malformed body) is only warned and gives undefined.
 */
export async function fetchLatestRelease(url: string, fetchImpl: FetchLike, signal?: AbortSignal) {
  try {
    const response = await fetchImpl(url, { signal, headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return releaseInfoSchema.parse(await response.json()).latestRelease;
  } catch (error) {
    console.warn('New-version check failed:', error instanceof Error ? error.message : error);
    return undefined;
  }
}
