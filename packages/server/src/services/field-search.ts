import { DomainError, type SearchMode, type SearchSyntaxQuery } from '@gatehouse/schemas';
import { ilike, inArray, like, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { allOf, anyOf } from '../db/conditions.ts';
import { likeSearchPattern } from './list-query.ts';

/**
 * The WHERE condition of the reference's search syntax (`api/search.ts` in the schemas) over a list's columns: roles,
 * scopes, applications and the relation lists that show them. Users have their own, index-aware reading of the same
 * syntax (`user-search.ts`). Every condition is a LIKE or an equality on the list's own rows, so a field search costs
 * no more than the plain `search` the lists took before: the rows the list reads, filtered.
 *
 * - `search` matches any of the fields; `search.<field>` one field; they combine by `joint` (`jointMode`), default or.
 * - `like` (the default mode) is SQL LIKE with the value as the pattern, as the reference maps it (`~~*`, `~~` when
 *   case-sensitive): `%` and `_` are wildcards and `\` escapes them, so a value without `%` matches the whole field
 *   (`search=ali` finds `Ali`, not `malice`; the console sends `%kw%`). Since issue 43 (before: a substring).
 * - `exact` matches the whole value; several values of one field (a repeated parameter) match any of them.
 * - Both ignore case unless `isCaseSensitive=true`.
 * - An empty value is 400 `request.invalid_input`, the reference's answer to a search it cannot parse.
 */

type Match = { mode: SearchMode; caseSensitive: boolean };

function fieldCondition(column: PgColumn, values: readonly string[], match: Match): SQL {
  if (match.mode === 'exact') {
    if (match.caseSensitive) return values.length === 1 ? sql`${column} = ${values[0]}` : inArray(column, [...values]);
    const lowered = values.map((value) => value.toLowerCase());
    return sql`lower(${column}) = any(${sql.param(lowered)}::text[])`;
  }
  const pattern = likeSearchPattern(values[0] ?? '');
  return match.caseSensitive ? like(column, pattern) : ilike(column, pattern);
}

/** 400 `request.invalid_input` for an empty search value (ignoring it would answer every row to a search). */
function assertNoEmptyValue(key: string, value: string | readonly string[]): void {
  if (value === '' || (Array.isArray(value) && value.includes(''))) {
    throw new DomainError('invalid', 'request.invalid_input', [
      { path: key, message: 'Search value cannot be empty.', code: 'custom' },
    ]);
  }
}

/** The search's condition over `columns` (one per field of the list), or undefined without a search. */
export function fieldSearchCondition<F extends string>(
  query: SearchSyntaxQuery<F>,
  columns: Record<F, PgColumn>,
): SQL | undefined {
  const fields = Object.keys(columns) as F[];
  const caseSensitive = query.isCaseSensitive ?? false;
  const conditions: SQL[] = [];
  if (query.search !== undefined) {
    assertNoEmptyValue('search', query.search);
    const match: Match = { mode: query.mode ?? 'like', caseSensitive };
    conditions.push(anyOf(...fields.map((field) => fieldCondition(columns[field], [query.search as string], match))));
  }
  for (const field of fields) {
    const value = (query as Record<string, string | string[] | undefined>)[`search.${field}`];
    if (value === undefined) continue;
    assertNoEmptyValue(`search.${field}`, value);
    const mode = (query as Record<string, SearchMode | undefined>)[`mode.${field}`] ?? query.mode ?? 'like';
    conditions.push(fieldCondition(columns[field], Array.isArray(value) ? value : [value], { mode, caseSensitive }));
  }
  if (conditions.length === 0) return undefined;
  const joint = query.joint ?? query.jointMode ?? 'or';
  return joint === 'and' ? allOf(...conditions) : anyOf(...conditions);
}
