import { z } from 'zod';
import { paginationQuerySchema } from '../api/pagination.ts';
import { idSchema } from '../ids.ts';
import { includePasswordHashSchema } from './user-input.ts';

export { TOTAL_NUMBER_IS_CAPPED_HEADER } from '../api/headers.ts';

/** Fields `search` looks in, and that `search.<field>` may name (the reference API's user search keys). */
export const userSearchFields = ['id', 'primaryEmail', 'primaryPhone', 'username', 'name'] as const;
export type UserSearchField = (typeof userSearchFields)[number];

/** `like` (default) matches a substring, `exact` the whole value (several values: any of them). */
export const userSearchModes = ['like', 'exact'] as const;
export type UserSearchMode = (typeof userSearchModes)[number];

const searchValue = z.string().max(256);
/** A repeated query parameter arrives as an array; exact mode accepts several values. */
const searchValues = z.union([searchValue, z.array(searchValue).min(1).max(20)]);
const booleanFlag = z.enum(['true', 'false']).transform((value) => value === 'true');

const fieldSearch = Object.fromEntries(
  userSearchFields.map((field) => [
    `search.${field}`,
    searchValues.optional().meta({ description: `Search in \`${field}\` only.` }),
  ]),
) as Record<`search.${UserSearchField}`, z.ZodOptional<typeof searchValues>>;
const fieldModes = Object.fromEntries(
  userSearchFields.map((field) => [`mode.${field}`, z.enum(userSearchModes).optional()]),
) as Record<`mode.${UserSearchField}`, z.ZodOptional<z.ZodEnum<{ like: 'like'; exact: 'exact' }>>>;

const knownKeys = new Set<string>([...userSearchFields.flatMap((field) => [`search.${field}`, `mode.${field}`])]);

/**
 * GET /users query: pagination, `search` over every search field (a substring, any case; a value
 * holding `%` is taken as a LIKE pattern, as the console sends `%kw%`), `search.<field>` per field,
 * `mode[.<field>]`, `joint` (how the search conditions combine), `isCaseSensitive`, and filters.
 */
export const userListQuerySchema = paginationQuerySchema
  .extend({
    search: searchValue.optional().meta({ description: 'Substring of id, email, phone, username or name.' }),
    ...fieldSearch,
    mode: z.enum(userSearchModes).optional(),
    ...fieldModes,
    joint: z.enum(['and', 'or']).optional().meta({ description: 'How search conditions combine (default or).' }),
    jointMode: z.enum(['and', 'or']).optional().meta({ description: 'Alias of joint.' }),
    isCaseSensitive: booleanFlag.optional(),
    isSuspended: booleanFlag.optional().meta({ description: 'Only suspended (true) or active (false) users.' }),
    roleId: idSchema.optional().meta({ description: 'Only users holding this role.' }),
    excludeRoleId: idSchema.optional().meta({ description: 'Leave out users holding this role.' }),
    includePasswordHash: includePasswordHashSchema,
    excludeOrganizationId: z
      .string()
      .min(1)
      .max(32)
      .optional()
      .meta({ description: 'Leave out members of this organization (to pick users to add).' }),
  })
  .loose()
  .superRefine((query, ctx) => {
    for (const key of Object.keys(query)) {
      if ((key.startsWith('search.') || key.startsWith('mode.')) && !knownKeys.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `Search field \`${key.slice(key.indexOf('.') + 1)}\` is not valid; use one of ${userSearchFields.join(', ')}.`,
        });
      }
    }
    for (const field of userSearchFields) {
      const value = query[`search.${field}`];
      const mode = query[`mode.${field}`] ?? query.mode ?? 'like';
      if (Array.isArray(value) && mode !== 'exact') {
        ctx.addIssue({
          code: 'custom',
          path: [`search.${field}`],
          message: 'Several values need mode exact.',
        });
      }
    }
  });
export type UserListQuery = z.infer<typeof userListQuerySchema>;
