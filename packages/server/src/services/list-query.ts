import type { SQL } from 'drizzle-orm';

/** What a list reads: its condition and its order (services build it, the edge's list helpers page through it). */
export type ListQuery = { where?: SQL | undefined; orderBy: SQL[] };

/** One page of a list: its number and size, and the rows it skips and takes. */
export type Page = { page: number; pageSize: number; limit: number; offset: number };

/** `search=kw` matches anywhere; `%` and `_` given by the caller (the console sends `%kw%`) are kept as wildcards. */
export function likePattern(search: string): string {
  return /[%_]/.test(search) ? search : `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
