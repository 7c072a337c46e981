import {
  entitySearchFields,
  idSchema,
  paginationQuerySchema,
  roleCreateSchema,
  roleListItemSchema,
  rolePatchSchema,
  roleSchema,
  roleTypes,
  searchSyntaxCheck,
  searchSyntaxShape,
  userIdSchema,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { entityRoutes } from '../http/entity-routes.ts';
import { pathIdSchema } from '../http/params.ts';
import { conflictResponse, notFoundResponse } from '../http/route-kit.ts';
import * as roleService from '../services/roles.ts';

export const rolesRoutes = entityRoutes({
  tags: ['Roles'],
  path: '/roles',
  id: { param: 'id', schema: pathIdSchema },
  list: {
    summary: 'List roles',
    description:
      "The reference's search syntax: `search` is a LIKE pattern over id, name or description, any case (`%kw%` anywhere, " +
      'without `%` the whole value); ' +
      '`search.<field>` searches one field; `mode[.<field>]=exact` matches whole values; `joint=and` requires every ' +
      'search condition; `isCaseSensitive=true`.',
    query: paginationQuerySchema
      .extend({
        ...searchSyntaxShape(
          entitySearchFields,
          'LIKE pattern over id, name or description, any case: `%kw%` anywhere, without `%` the whole value.',
        ),
        type: z.enum(roleTypes).optional(),
        excludeUserId: userIdSchema.optional().meta({ description: 'Leave out roles this user holds.' }),
        excludeApplicationId: idSchema.optional().meta({ description: 'Leave out roles this application holds.' }),
      })
      .loose()
      .superRefine(searchSyntaxCheck(entitySearchFields)),
    searchSyntax: true,
    item: { schema: roleListItemSchema, description: 'A page of roles, newest first, with their counts.' },
    rows: ({ tenant }, query) => roleService.roleList(tenant, query),
    toApi: (rows, { tenant }) => roleService.withCounts(tenant, rows),
  },
  create: {
    summary: 'Create a role',
    body: roleCreateSchema,
    status: 200,
    answer: { schema: roleSchema, description: 'The new role.' },
    errors: conflictResponse,
    run: ({ write, config }, body) => roleService.createRole(write(), config, body),
  },
  get: {
    summary: 'Get a role',
    answer: { schema: roleSchema, description: 'The role.' },
    run: ({ tenant, params }) => roleService.getRole(tenant, params.id),
  },
  patch: {
    summary: 'Update a role',
    body: rolePatchSchema,
    answer: { schema: roleSchema, description: 'The updated role.' },
    errors: { ...notFoundResponse, ...conflictResponse },
    run: ({ write, params }, body) => roleService.updateRole(write(), params.id, body),
  },
  delete: {
    summary: 'Delete a role',
    run: ({ write, params }) => roleService.deleteRole(write(), params.id),
  },
});
