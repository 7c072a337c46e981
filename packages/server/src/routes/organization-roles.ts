import {
  organizationRoleCreateSchema,
  organizationRoleListQuerySchema,
  organizationRolePatchSchema,
  organizationRoleSchema,
  organizationRoleWithScopesSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { organizationRoles } from '../db/tables.ts';
import { pathIdSchema } from '../http/params.ts';
import {
  conflictResponse,
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as organizationRoleService from '../services/organization-roles.ts';

/** The organization template's roles and their permissions (organization scopes and API resource scopes). */

const tags = ['Organization roles'];
const idParams = z.object({ id: pathIdSchema });

const listRoles = createRoute({
  method: 'get',
  path: '/organization-roles',
  tags,
  summary: 'List organization roles with the names of their permissions',
  description: '`q` (or `search`) matches a substring of the name; `type` keeps roles of that type.',
  request: { query: organizationRoleListQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationRoleWithScopesSchema), 'A page of roles, by name.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
  },
});

const createRole = createRoute({
  method: 'post',
  path: '/organization-roles',
  tags,
  summary: 'Create an organization role, optionally with permissions',
  request: { body: jsonBody(organizationRoleCreateSchema) },
  responses: {
    201: jsonResponse(organizationRoleSchema, 'The new role.'),
    ...errorResponses,
    422: errorResponse(
      'The name is taken (`entity.unique_integrity_violation`), a scope id does not exist (`entity.relation_foreign_key_not_found`, data.ids) or a management API permission for a user role (`role.management_api_scope_for_user_role`).',
    ),
  },
});

const getRole = createRoute({
  method: 'get',
  path: '/organization-roles/{id}',
  tags,
  summary: 'Get an organization role',
  description:
    'The shape of the create answer (reference); its permissions are `…/scopes` and `…/resource-scopes`, and the list shows their names.',
  request: { params: idParams },
  responses: {
    200: jsonResponse(organizationRoleSchema, 'The role.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const patchRole = createRoute({
  method: 'patch',
  path: '/organization-roles/{id}',
  tags,
  summary: 'Update the name or description of an organization role',
  request: { params: idParams, body: jsonBody(organizationRolePatchSchema) },
  responses: {
    200: jsonResponse(organizationRoleSchema, 'The updated role.'),
    ...errorResponses,
    ...notFoundResponse,
    ...conflictResponse,
  },
});

const deleteRole = createRoute({
  method: 'delete',
  path: '/organization-roles/{id}',
  tags,
  summary: 'Delete an organization role (members, applications, invitations and JIT settings lose it)',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

export const organizationRolesRoutes = createRouter()
  .openapi(listRoles, async (c) => {
    const query = c.req.valid('query');
    const rows = await listPage(c, organizationRoles, query, organizationRoleService.organizationRoleListQuery(query));
    return c.json(await organizationRoleService.withScopes(c.get('tenant'), rows), 200);
  })
  .openapi(createRole, async (c) => {
    return c.json(await organizationRoleService.createOrganizationRole(writeContext(c), c.req.valid('json')), 201);
  })
  .openapi(getRole, async (c) => {
    return c.json(await organizationRoleService.getOrganizationRole(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(patchRole, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await organizationRoleService.updateOrganizationRole(writeContext(c), id, c.req.valid('json')), 200);
  })
  .openapi(deleteRole, async (c) => {
    await organizationRoleService.deleteOrganizationRole(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  });
