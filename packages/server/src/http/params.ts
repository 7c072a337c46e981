import {
  entitySearchFields,
  paginationQuerySchema,
  searchSyntaxCheck,
  searchSyntaxShape,
  userSearchFields,
} from '@gatehouse/schemas';
import { z } from 'zod';

/** Path parameters shared by several route modules (relation routes nest under their owner's path). */
/**
 * An id in a path: any id-like text, so an id that cannot exist (`/users/not-an-id`, an organization id of 40
 * characters) is 404 like an unknown one (reference), not 400. Ids we generate are shorter (12 for users, 21 for most,
 * 32 for organizations); the bound only keeps absurd paths out. Ids in bodies keep their exact schemas.
 */
export const pathIdSchema = z.string().min(1).max(256);
export const idParams = z.object({ id: pathIdSchema });
export const organizationParams = z.object({ id: pathIdSchema });
export const userIdPathSchema = pathIdSchema;
export const userIdParams = z.object({ userId: userIdPathSchema });
/** `search` over a relation's list (substring, any case). */
export const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });

/**
 * A list of roles, scopes or applications with the reference's search syntax (`search`, `search.id|name|description`,
 * `mode`, `joint`, `isCaseSensitive`); its condition is `fieldSearchCondition` (services/field-search.ts).
 */
export const entitySearchQuery = paginationQuerySchema
  .extend(
    searchSyntaxShape(
      entitySearchFields,
      'LIKE pattern over id, name or description, any case: `%kw%` anywhere, without `%` the whole value.',
    ),
  )
  .loose()
  .superRefine(searchSyntaxCheck(entitySearchFields));

/** A list of users (a role's) with the reference's search syntax over the users' search fields. */
export const userSearchQuery = paginationQuerySchema
  .extend(
    searchSyntaxShape(
      userSearchFields,
      'LIKE pattern over id, email, phone, username or name, any case: `%kw%` anywhere, without `%` the whole value.',
    ),
  )
  .loose()
  .superRefine(searchSyntaxCheck(userSearchFields));
