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
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const page = pageOf(params.get('page'));
  const search = params.get('search') ?? '';

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

  const setPage = useCallback((next: number) => update({ page: next > 1 ? String(next) : undefined }), [update]);
  const setSearch = useCallback(
    (text: string) => update({ search: text || undefined, page: undefined }, { replace: true }),
    [update],
  );
  /** A filter change also goes back to page 1. */
  const setFilter = useCallback(
    (name: string, value: string | undefined) => update({ [name]: value, page: undefined }),
    [update],
  );

  return { page, pageSize: listPageSize, search, params, setPage, setSearch, setFilter };
}
