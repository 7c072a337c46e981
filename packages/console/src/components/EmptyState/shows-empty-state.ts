type ListQuery = { isPending: boolean; error: unknown; data?: { items: readonly unknown[] } | undefined };

/**
 * Whether a list shows its `EmptyState`: loaded, not failed, no rows, no search or filter. The page's create action
 * is then the empty state's only, not the header's too: one 'Create …' at a time, for every user and every test.
 */
export function showsEmptyState(query: ListQuery, isFiltered: boolean): boolean {
  return !query.isPending && !query.error && query.data?.items.length === 0 && !isFiltered;
}
