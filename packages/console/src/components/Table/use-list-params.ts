import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** Spec §9: lists show 20 rows a page. */
export const listPageSize = 20;

function pageOf(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * A list's page, search text and filters live in the URL, so Back, reload and a shared link show the same rows.
 * Typing a search replaces the history entry (no entry per keystroke) and goes back to page 1.
 *
 * A page with several lists gives each a `prefix` (`users` → `users_page`, `users_search`), so their pages and
 * searches are kept apart in one address.
 */
export function useListParams({ prefix }: { prefix?: string } = {}) {
  const [params, setParams] = useSearchParams();
  const pageParam = prefix ? `${prefix}_page` : 'page';
  const searchParam = prefix ? `${prefix}_search` : 'search';
  const page = pageOf(params.get(pageParam));
  const search = params.get(searchParam) ?? '';

  const update = useCallback(
    (changes: Record<string, string | undefined>, options?: { replace?: boolean }) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace: options?.replace ?? false },
      ),
    [setParams],
  );

  const setPage = useCallback(
    (next: number) => update({ [pageParam]: next > 1 ? String(next) : undefined }),
    [update, pageParam],
  );
  const setSearch = useCallback(
    (text: string) => update({ [searchParam]: text || undefined, [pageParam]: undefined }, { replace: true }),
    [update, searchParam, pageParam],
  );
  /** A filter change also goes back to page 1. */
  const setFilter = useCallback(
    (name: string, value: string | undefined) => update({ [name]: value, [pageParam]: undefined }),
    [update, pageParam],
  );

  return { page, pageSize: listPageSize, search, params, setPage, setSearch, setFilter };
}
