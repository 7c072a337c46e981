/**
 * The list's query string, so an entry's 'Back to audit logs' returns to the same filters and page. Kept for the tab
 * only (sessionStorage): a new tab starts from the unfiltered list.
 */
const storageKey = 'gatehouse:audit-logs:list-search';

export function rememberListSearch(search: string): void {
  try {
    sessionStorage.setItem(storageKey, search);
  } catch {
    // Storage may be unavailable (private mode, quota); Back then opens the unfiltered list.
  }
}

export function lastListSearch(): string {
  try {
    return sessionStorage.getItem(storageKey) ?? '';
  } catch {
    return '';
  }
}
