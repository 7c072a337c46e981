import type { SQL } from 'drizzle-orm';
import type { TenantDb, TenantTable } from '../db/tenant-db.ts';

/** What a list reads: its condition and its order (services build it, the edge's list helpers page through it). */
export type ListQuery = { where?: SQL | undefined; orderBy: SQL[] };

/** One page of a list: its number and size, and the rows it skips and takes. */
export type Page = { page: number; pageSize: number; limit: number; offset: number };

/**
 * A list a service answers, which the edge's list helpers (`listPage`, `listOptionalPage`) page through without
 * naming its table: the rows of a window, and how many rows there are.
 */
export type ListSource<Row> = {
  /** The rows after skipping `offset` (none when undefined), at most `limit`. */
  rows: (window: { limit: number; offset?: number | undefined }) => Promise<Row[]>;
  /**
   * How many rows there are; with a cap, counting stops there (very large tables) and answers more than `cap` when
   * there are more, remembered a while (`TenantDb.countUpTo` with `rememberOverCap`).
   */
  count: (cap?: number) => Promise<number>;
};

/** The rows of one tenant table that a {@link ListQuery} selects, in its order. */
export function tableList<T extends TenantTable>(
  tenant: TenantDb,
  table: T,
  query: ListQuery,
): ListSource<T['$inferSelect']> {
  return {
    rows: ({ limit, offset }) => tenant.findMany(table, { where: query.where, orderBy: query.orderBy, limit, offset }),
    count: (cap) =>
      cap === undefined
        ? tenant.count(table, query.where)
        : tenant.countUpTo(table, query.where, cap, { rememberOverCap: true }),
  };
}

/** A trailing lone `\` (an escape with nothing to escape, which PostgreSQL refuses) taken literally. */
function closeEscape(pattern: string): string {
  const trailing = /\\+$/.exec(pattern)?.[0].length ?? 0;
  return trailing % 2 === 1 ? `${pattern}\\` : pattern;
}

/**
 * The pattern of a keyword (`q`, and the `search` of lists without the reference's search syntax): it matches
 * anywhere, as the reference wraps `q` (`ilike '%q%'`); `%`, `_` and `\` the caller gives keep their LIKE meaning (the
 * console sends `%kw%` with `_` escaped: the same matches).
 */
export function likePattern(search: string): string {
  return `%${closeEscape(search)}%`;
}

/**
 * The pattern of a `like` value of the reference's search syntax (`search`, `search.<field>`): the value itself, as
 * the reference maps mode `like` to `~~*` (`~~`): `%` and `_` are wildcards, `\` escapes, and a value without `%`
 * matches the whole field, any case (the console sends `%kw%`). Since issue 43; before, such a value was a substring.
 */
export function likeSearchPattern(value: string): string {
  return closeEscape(value);
}
