import { z } from 'zod';

const storageKey = 'gatehouse:redirect-after-sign-in';

/** Spec §5: stored redirect data has optional string pathname, search and hash. */
const targetSchema = z.object({
  pathname: z.string().optional(),
  search: z.string().optional(),
  hash: z.string().optional(),
});
export type RedirectTarget = z.infer<typeof targetSchema>;

/** Only same-origin console paths are followed; anything else (`//evil`, `https:`…) falls back to the root. */
function isSafeConsolePath(pathname: string): boolean {
  return pathname.startsWith('/') && !pathname.startsWith('//') && !pathname.includes('\\');
}

export function saveRedirectTarget(target: RedirectTarget): void {
  sessionStorage.setItem(storageKey, JSON.stringify(target));
}

/** Reads and forgets the stored target as a router path (relative to the /console basename), or '/'. */
export function takeRedirectTarget(basename: string): string {
  const raw = sessionStorage.getItem(storageKey);
  sessionStorage.removeItem(storageKey);
  let parsed: RedirectTarget | undefined;
  try {
    const result = targetSchema.safeParse(JSON.parse(raw ?? 'null'));
    parsed = result.success ? result.data : undefined;
  } catch {
    parsed = undefined;
  }
  const pathname = parsed?.pathname ?? '';
  if (!isSafeConsolePath(pathname) || !pathname.startsWith(basename)) return '/';
  const inApp = pathname.slice(basename.length) || '/';
  const search = parsed?.search?.startsWith('?') ? parsed.search : '';
  const hash = parsed?.hash?.startsWith('#') ? parsed.hash : '';
  return `${inApp.startsWith('/') ? inApp : `/${inApp}`}${search}${hash}`;
}
