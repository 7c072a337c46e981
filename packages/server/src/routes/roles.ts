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
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { roles } from '../db/tables.ts';
import { pathIdSchema } from '../http/params.ts';
import {
  conflictResponse,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
  searchSyntaxHook,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as roleService from '../services/roles.ts';

const tags = ['Roles'];
const idParams = z.object({ id: pathIdSchema });

const listRoles = createRoute({
  method: 'get',
  path: '/roles',
  tags,
  summary: 'List roles',
  description:
    "The reference's search syntax: `search` matches a substring of id, name or description (any case); " +
    '`search.<field>` searches one field; `mode[.<field>]=exact` matches whole values; `joint=and` requires every ' +
    'search condition; `isCaseSensitive=true`.',
  request: {
    query: paginationQuerySchema
      .extend({
        ...searchSyntaxShape(entitySearchFields, 'Substring of id, name or description.'),
        type: z.enum(roleTypes).optional(),
        excludeUserId: userIdSchema.optional().meta({ description: 'Leave out roles this user holds.' }),
        excludeApplicationId: idSchema.optional().meta({ description: 'Leave out roles this application holds.' }),
      })
      .loose()
      .superRefine(searchSyntaxCheck(entitySearchFields)),
  },
  responses: {
    200: {
      ...jsonResponse(z.array(roleListItemSchema), 'A page of roles, newest first, with their counts.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
  },
});

const createRole = createRoute({
  method: 'post',
  path: '/roles',
  tags,
  summary: 'Create a role',
  request: { body: jsonBody(roleCreateSchema) },
  responses: { 200: jsonResponse(roleSchema, 'The new role.'), ...errorResponses, ...conflictResponse },
});

const getRole = createRoute({
  method: 'get',
  path: '/roles/{id}',
  tags,
  summary: 'Get a role',
  request: { params: idParams },
  responses: { 200: jsonResponse(roleSchema, 'The role.'), ...errorResponses, ...notFoundResponse },
});

const patchRole = createRoute({
  method: 'patch',
  path: '/roles/{id}',
  tags,
  summary: 'Update a role',
  request: { params: idParams, body: jsonBody(rolePatchSchema) },
  responses: {
    200: jsonResponse(roleSchema, 'The updated role.'),
    ...errorResponses,
    ...notFoundResponse,
    ...conflictResponse,
  },
});

const deleteRole = createRoute({
  method: 'delete',
  path: '/roles/{id}',
  tags,
  summary: 'Delete a role',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

export const rolesRoutes = createRouter()
  .openapi(
    listRoles,
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listPage(c, roles, query, roleService.roleListQuery(c.get('tenant'), query));
      return c.json(await roleService.withCounts(c.get('tenant'), rows), 200);
    },
    searchSyntaxHook,
  )
  .openapi(createRole, async (c) => {
    return c.json(await roleService.createRole(writeContext(c), c.get('config'), c.req.valid('json')), 200);
  })
  .openapi(getRole, async (c) => {
    return c.json(await roleService.getRole(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(patchRole, async (c) => {
    return c.json(await roleService.updateRole(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200);
  })
  .openapi(deleteRole, async (c) => {
    await roleService.deleteRole(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  });
