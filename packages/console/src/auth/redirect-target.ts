const storageKey = 'gatehouse:redirect-after-sign-in';

/** Spec §5: stored redirect data has optional string pathname, search and hash. */
export type RedirectTarget = { pathname?: string; search?: string; hash?: string };

const targetKeys = ['pathname', 'search', 'hash'] as const;

/** Checked by hand, not with zod: the signed-out start (boot.ts) stores the target without the validation library. */
function parseTarget(value: unknown): RedirectTarget | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const target: RedirectTarget = {};
  for (const key of targetKeys) {
    const part = record[key];
    if (part === undefined) continue;
    if (typeof part !== 'string') return undefined;
    target[key] = part;
  }
  return target;
}

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
    parsed = parseTarget(JSON.parse(raw ?? 'null'));
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
