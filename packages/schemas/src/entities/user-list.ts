import { z } from 'zod';
import { paginationQuerySchema } from '../api/pagination.ts';
import { type SearchMode, searchModes, searchSyntaxCheck, searchSyntaxShape } from '../api/search.ts';
import { idSchema } from '../ids.ts';
import { includePasswordHashSchema } from './user-input.ts';

export { TOTAL_NUMBER_IS_CAPPED_HEADER } from '../api/headers.ts';

/** Fields `search` looks in, and that `search.<field>` may name (the reference API's user search keys). */
export const userSearchFields = ['id', 'primaryEmail', 'primaryPhone', 'username', 'name'] as const;
export type UserSearchField = (typeof userSearchFields)[number];

const booleanFlag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** `like` (default) is a LIKE pattern (`%kw%` anywhere, no `%` the whole value), `exact` the whole value (several: any). */
export const userSearchModes = searchModes;
export type UserSearchMode = SearchMode;

/**
 * GET /users query: pagination, `search` over every search field (a LIKE pattern, any case, as the reference
 * reads it: `%kw%`, what the console sends, anywhere; a value without `%` the whole value), `search.<field>` per field,
 * `mode[.<field>]`, `joint` (how the search conditions combine), `isCaseSensitive` (the reference's search syntax,
 * `api/search.ts`), and filters.
 */
export const userListQuerySchema = paginationQuerySchema
  .extend({
    ...searchSyntaxShape(
      userSearchFields,
      'LIKE pattern over id, email, phone, username and name, any case: `%kw%` anywhere, without `%` the whole value.',
    ),
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
  .superRefine(searchSyntaxCheck(userSearchFields));
export type UserListQuery = z.infer<typeof userListQuerySchema>;
