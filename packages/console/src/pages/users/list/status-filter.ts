/** The list's status filter, kept in the URL as `status` (absent means all users). */
export const statusFilters = ['all', 'active', 'suspended'] as const;
export type StatusFilter = (typeof statusFilters)[number];

/** An unknown value in a hand-edited URL shows every user rather than failing. */
export function statusFilterOf(value: string | null): StatusFilter {
  return statusFilters.find((filter) => filter === value) ?? 'all';
}
