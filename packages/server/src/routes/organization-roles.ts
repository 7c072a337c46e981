import {
  idSchema,
  keywordQuerySchema,
  organizationRoleCreateSchema,
  organizationRoleListQuerySchema,
  organizationRolePatchSchema,
  organizationRoleResourceScopesAssignSchema,
  organizationRoleResourceScopesReplaceSchema,
  organizationRoleSchema,
  organizationRoleScopesAssignSchema,
  organizationRoleScopesReplaceSchema,
  organizationRoleWithScopesSchema,
  organizationScopeSchema,
  roleScopeSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import {
  organizationRoleResourceScopes,
  organizationRoleScopes,
  organizationRoles,
  organizationScopes,
  resources,
  scopes,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { AppEnv } from '../http/context.ts';
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
import { idsOf, removeId } from '../services/organization-relations.ts';
import * as organizationRoleService from '../services/organization-roles.ts';
import {
  addOrganizationScopes,
  addResourceScopes,
  replaceOrganizationScopes,
  replaceResourceScopes,
  scopesUpdatedEvent,
} from '../services/organization-roles.ts';
import {
  findOrganizationRole,
  keywordCondition,
  type OrganizationRoleRow,
  roleResourceScopesOf,
  roleScopesOf,
  toOrganizationScope,
} from '../services/organizations.ts';
import { inRelation } from '../services/relations.ts';
import { toResource, toScope } from '../services/resources.ts';
import { performWrite } from '../services/write-path.ts';

/** The organization template's roles and their permissions (organization scopes and API resource scopes). */

const tags = ['Organization roles'];
const idParams = z.object({ id: idSchema });

const assignmentErrors = {
  404: errorResponse(
    'No such organization role (`entity.not_found`) or a scope id does not exist (`entity.relation_foreign_key_not_found`, data.ids).',
  ),
  422: errorResponse(
    'Already assigned (`organization_role.scope_exists`, `organization_role.resource_scope_exists`) or a management API permission for a user role (`role.management_api_scope_for_user_role`); data.ids names them.',
  ),
} as const;

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
    404: assignmentErrors[404],
    422: errorResponse(
      'The name is taken (`organization_role.name_in_use`) or a management API permission for a user role (`role.management_api_scope_for_user_role`).',
    ),
  },
});

const getRole = createRoute({
  method: 'get',
  path: '/organization-roles/{id}',
  tags,
  summary: 'Get an organization role with the names of its permissions',
  request: { params: idParams },
  responses: {
    200: jsonResponse(organizationRoleWithScopesSchema, 'The role.'),
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

const listScopes = createRoute({
  method: 'get',
  path: '/organization-roles/{id}/scopes',
  tags,
  summary: 'List the organization permissions of a role',
  request: { params: idParams, query: keywordQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationScopeSchema), 'A page of organization permissions, by name.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const addScopes = createRoute({
  method: 'post',
  path: '/organization-roles/{id}/scopes',
  tags,
  summary: 'Add organization permissions to a role',
  request: { params: idParams, body: jsonBody(organizationRoleScopesAssignSchema) },
  responses: { 201: { description: 'Added.' }, ...errorResponses, ...assignmentErrors },
});

const replaceScopes = createRoute({
  method: 'put',
  path: '/organization-roles/{id}/scopes',
  tags,
  summary: "Replace a role's organization permissions (an empty list removes them all)",
  request: { params: idParams, body: jsonBody(organizationRoleScopesReplaceSchema) },
  responses: { 204: { description: 'Replaced.' }, ...errorResponses, ...assignmentErrors },
});

const removeScope = createRoute({
  method: 'delete',
  path: '/organization-roles/{id}/scopes/{organizationScopeId}',
  tags,
  summary: 'Remove an organization permission from a role',
  request: { params: idParams.extend({ organizationScopeId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const listResourceScopes = createRoute({
  method: 'get',
  path: '/organization-roles/{id}/resource-scopes',
  tags,
  summary: 'List the API resource permissions of a role, with their API resource',
  request: { params: idParams, query: keywordQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(roleScopeSchema), 'A page of API permissions, by name.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const addResourceScopesRoute = createRoute({
  method: 'post',
  path: '/organization-roles/{id}/resource-scopes',
  tags,
  summary: 'Add API resource permissions to a role',
  request: { params: idParams, body: jsonBody(organizationRoleResourceScopesAssignSchema) },
  responses: { 201: { description: 'Added.' }, ...errorResponses, ...assignmentErrors },
});

const replaceResourceScopesRoute = createRoute({
  method: 'put',
  path: '/organization-roles/{id}/resource-scopes',
  tags,
  summary: "Replace a role's API resource permissions (an empty list removes them all)",
  request: { params: idParams, body: jsonBody(organizationRoleResourceScopesReplaceSchema) },
  responses: { 204: { description: 'Replaced.' }, ...errorResponses, ...assignmentErrors },
});

const removeResourceScope = createRoute({
  method: 'delete',
  path: '/organization-roles/{id}/resource-scopes/{scopeId}',
  tags,
  summary: 'Remove an API resource permission from a role',
  request: { params: idParams.extend({ scopeId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

/** The audited change of a role's permissions: whole sets before and after, and the event. */
function changePermissions(
  c: Context<AppEnv>,
  id: string,
  spec: { schema: z.ZodType; input: unknown },
  work: (tx: TenantDb, role: OrganizationRoleRow) => Promise<void>,
) {
  return performWrite(writeContext(c), { key: 'Admin.OrganizationRole.Updated', ...spec }, async (tx) => {
    const role = await findOrganizationRole(tx, id);
    const permissions = async () => ({
      organizationScopeIds: await idsOf(tx, roleScopesOf(id)),
      resourceScopeIds: await idsOf(tx, roleResourceScopesOf(id)),
    });
    const before = await permissions();
    await work(tx, role);
    return {
      result: undefined,
      entity: { type: 'OrganizationRole', id },
      before,
      after: await permissions(),
      events: [await scopesUpdatedEvent(tx, role)],
    };
  });
}

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
  })
  .openapi(listScopes, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findOrganizationRole(tenant, id);
    const granted = inRelation(
      tenant,
      organizationScopes.id,
      organizationRoleScopes,
      organizationRoleScopes.organizationScopeId,
      eq(organizationRoleScopes.organizationRoleId, id),
    );
    const search = keywordCondition(query, [organizationScopes.name]);
    const rows = await listPage(c, organizationScopes, query, {
      where: search ? allOf(granted, search) : granted,
      orderBy: [asc(organizationScopes.name)],
    });
    return c.json(rows.map(toOrganizationScope), 200);
  })
  .openapi(addScopes, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await changePermissions(c, id, { schema: organizationRoleScopesAssignSchema, input }, (tx, role) =>
      addOrganizationScopes(tx, role, input.organizationScopeIds),
    );
    return c.body(null, 201);
  })
  .openapi(replaceScopes, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await changePermissions(c, id, { schema: organizationRoleScopesReplaceSchema, input }, (tx, role) =>
      replaceOrganizationScopes(tx, role, input.organizationScopeIds),
    );
    return c.body(null, 204);
  })
  .openapi(removeScope, async (c) => {
    const { id, organizationScopeId } = c.req.valid('param');
    await changePermissions(c, id, { schema: z.object({}), input: {} }, (tx) =>
      removeId(tx, roleScopesOf(id), organizationScopeId),
    );
    return c.body(null, 204);
  })
  .openapi(listResourceScopes, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findOrganizationRole(tenant, id);
    const granted = inRelation(
      tenant,
      scopes.id,
      organizationRoleResourceScopes,
      organizationRoleResourceScopes.scopeId,
      eq(organizationRoleResourceScopes.organizationRoleId, id),
    );
    const search = keywordCondition(query, [scopes.name]);
    const rows = await listPage(c, scopes, query, {
      where: search ? allOf(granted, search) : granted,
      orderBy: [asc(scopes.name), asc(scopes.id)],
    });
    const resourceIds = [...new Set(rows.map((row) => row.resourceId))];
    const owners = resourceIds.length
      ? await tenant.findMany(resources, { where: inArray(resources.id, resourceIds) })
      : [];
    const byId = new Map(owners.map((resource) => [resource.id, resource]));
    return c.json(
      rows.flatMap((row) => {
        const resource = byId.get(row.resourceId);
        return resource ? [{ ...toScope(row), resource: toResource(resource) }] : [];
      }),
      200,
    );
  })
  .openapi(addResourceScopesRoute, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await changePermissions(c, id, { schema: organizationRoleResourceScopesAssignSchema, input }, (tx, role) =>
      addResourceScopes(tx, role, input.scopeIds),
    );
    return c.body(null, 201);
  })
  .openapi(replaceResourceScopesRoute, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await changePermissions(c, id, { schema: organizationRoleResourceScopesReplaceSchema, input }, (tx, role) =>
      replaceResourceScopes(tx, role, input.scopeIds),
    );
    return c.body(null, 204);
  })
  .openapi(removeResourceScope, async (c) => {
    const { id, scopeId } = c.req.valid('param');
    await changePermissions(c, id, { schema: z.object({}), input: {} }, (tx) =>
      removeId(tx, roleResourceScopesOf(id), scopeId),
    );
    return c.body(null, 204);
  });
