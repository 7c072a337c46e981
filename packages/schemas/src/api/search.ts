import { z } from 'zod';

/**
 * The reference API's search syntax of a list ("advanced search"): `search` over every field of the list,
 * `search.<field>` in one field, `mode[.<field>]`, `joint` (alias `jointMode`) and `isCaseSensitive`. One parser for
 * every list that takes it (users, roles, scopes, applications and their relation lists), with each list's fields.
 * The regular-expression modes (`similar_to`, `posix`) are left out on purpose: a pattern from the request run over a
 * tenant's rows is an unbounded cost per request (README, "Where Gatehouse differs").
 */

/**
 * `like` (default) is SQL LIKE with the value as the pattern, as the reference maps it (`~~*`, `~~` when
 * case-sensitive): `%` and `_` are wildcards, `\` escapes, so `%kw%` (what the console sends) matches anywhere and a
 * value without `%` the whole field. `exact` matches the whole value (several values: any of them).
 */
export const searchModes = ['like', 'exact'] as const;
export type SearchMode = (typeof searchModes)[number];

/** The reference's search fields of roles, scopes (permissions) and applications. */
export const entitySearchFields = ['id', 'name', 'description'] as const;
export type EntitySearchField = (typeof entitySearchFields)[number];

const searchValue = z.string().max(256);
/** A repeated query parameter arrives as an array; exact mode accepts several values. */
const searchValues = z.union([searchValue, z.array(searchValue).min(1).max(20)]);
const booleanFlag = z.enum(['true', 'false']).transform((value) => value === 'true');
const modeSchema = z.enum(searchModes);

/** The query fields of the search syntax over `fields`; `description` says what `search` matches. */
export function searchSyntaxShape<const F extends string>(fields: readonly F[], description: string) {
  const fieldSearch = Object.fromEntries(
    fields.map((field) => [
      `search.${field}`,
      searchValues.optional().meta({ description: `Search in \`${field}\` only.` }),
    ]),
  ) as Record<`search.${F}`, z.ZodOptional<typeof searchValues>>;
  const fieldModes = Object.fromEntries(fields.map((field) => [`mode.${field}`, modeSchema.optional()])) as Record<
    `mode.${F}`,
    z.ZodOptional<typeof modeSchema>
  >;
  return {
    search: searchValue.optional().meta({ description }),
    ...fieldSearch,
    mode: modeSchema.optional(),
    ...fieldModes,
    joint: z.enum(['and', 'or']).optional().meta({ description: 'How search conditions combine (default or).' }),
    jointMode: z.enum(['and', 'or']).optional().meta({ description: 'Alias of joint.' }),
    isCaseSensitive: booleanFlag.optional(),
  };
}

/** What the search syntax over `F` reads once parsed. */
export type SearchSyntaxQuery<F extends string> = {
  search?: string | undefined;
  mode?: SearchMode | undefined;
  joint?: 'and' | 'or' | undefined;
  jointMode?: 'and' | 'or' | undefined;
  isCaseSensitive?: boolean | undefined;
} & Partial<Record<`search.${F}`, string | string[] | undefined>> &
  Partial<Record<`mode.${F}`, SearchMode | undefined>>;

/**
 * The checks across keys of the search syntax (the query schema must be `.loose()` so unknown keys reach them): a
 * `search.<field>` or `mode.<field>` naming no field of the list, and several values without mode `exact`.
 */
export function searchSyntaxCheck<const F extends string>(fields: readonly F[]) {
  const knownKeys = new Set<string>(fields.flatMap((field) => [`search.${field}`, `mode.${field}`]));
  return (query: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const key of Object.keys(query)) {
      if ((key.startsWith('search.') || key.startsWith('mode.')) && !knownKeys.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `Search field \`${key.slice(key.indexOf('.') + 1)}\` is not valid; use one of ${fields.join(', ')}.`,
        });
      }
    }
    for (const field of fields) {
      const value = query[`search.${field}`];
      const mode = query[`mode.${field}`] ?? query.mode ?? 'like';
      if (Array.isArray(value) && mode !== 'exact') {
        ctx.addIssue({ code: 'custom', path: [`search.${field}`], message: 'Several values need mode exact.' });
      }
    }
  };
}
