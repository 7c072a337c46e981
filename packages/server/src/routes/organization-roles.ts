import {
  errorBodySchema,
  generateId,
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
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
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
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { idsOf, removeId } from '../services/organization-relations.ts';
import {
  addOrganizationScopes,
  addResourceScopes,
  replaceOrganizationScopes,
  replaceResourceScopes,
  scopesUpdatedEvent,
  withScopes,
} from '../services/organization-roles.ts';
import {
  findOrganizationRole,
  keywordCondition,
  type OrganizationRoleRow,
  roleResourceScopesOf,
  roleScopesOf,
  toOrganizationRole,
  toOrganizationScope,
} from '../services/organizations.ts';
import { inRelation } from '../services/relations.ts';
import { toResource, toScope } from '../services/resources.ts';
import { performWrite } from '../services/write-path.ts';

/** The organization template's roles and their permissions (organization scopes and API resource scopes). */

const tags = ['Organization roles'];
const idParams = z.object({ id: idSchema });

const errors = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBodySchema } },
});
const assignmentErrors = {
  404: errors(
    'No such organization role (`entity.not_found`) or a scope id does not exist (`entity.relation_foreign_key_not_found`, data.ids).',
  ),
  422: errors(
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
    422: errors(
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
    const conditions = [
      query.type ? eq(organizationRoles.type, query.type) : undefined,
      keywordCondition(query, [organizationRoles.name]),
    ].filter((condition): condition is SQL => Boolean(condition));
    const rows = await listPage(c, organizationRoles, query, {
      where: conditions.length ? and(...conditions) : undefined,
      orderBy: [asc(organizationRoles.name)],
    });
    return c.json(await withScopes(c.get('tenant'), rows), 200);
  })
  .openapi(createRole, async (c) => {
    const role = await performWrite(
      writeContext(c),
      { key: 'Admin.OrganizationRole.Created', schema: organizationRoleCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const { organizationScopeIds = [], resourceScopeIds = [], ...fields } = input;
        const row = await tx.insert(organizationRoles, { id: generateId(), ...fields });
        await addOrganizationScopes(tx, row, organizationScopeIds);
        await addResourceScopes(tx, row, resourceScopeIds);
        const created = toOrganizationRole(row);
        const withPermissions = organizationScopeIds.length || resourceScopeIds.length;
        return {
          result: created,
          entity: { type: 'OrganizationRole', id: created.id },
          before: null,
          after: {
            ...created,
            organizationScopeIds: [...organizationScopeIds].sort(),
            resourceScopeIds: [...resourceScopeIds].sort(),
          },
          events: [
            { event: 'OrganizationRole.Created', data: created },
            ...(withPermissions ? [await scopesUpdatedEvent(tx, row)] : []),
          ],
        };
      },
    );
    return c.json(role, 201);
  })
  .openapi(getRole, async (c) => {
    const tenant = c.get('tenant');
    const [role] = await withScopes(tenant, [await findOrganizationRole(tenant, c.req.valid('param').id)]);
    return c.json(role, 200);
  })
  .openapi(patchRole, async (c) => {
    const { id } = c.req.valid('param');
    const role = await performWrite(
      writeContext(c),
      { key: 'Admin.OrganizationRole.Updated', schema: organizationRolePatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const before = toOrganizationRole(await findOrganizationRole(tx, id));
        // An empty patch changes nothing: no statement, no event (the audit entry shows no changes).
        if (!Object.keys(input).length)
          return { result: before, entity: { type: 'OrganizationRole', id }, before, after: before };
        const [row] = await tx.update(organizationRoles, eq(organizationRoles.id, id), input);
        if (!row) throw new Error('the organization role vanished inside its transaction');
        const after = toOrganizationRole(row);
        return {
          result: after,
          entity: { type: 'OrganizationRole', id },
          before,
          after,
          events: [{ event: 'OrganizationRole.Data.Updated', data: after }],
        };
      },
    );
    return c.json(role, 200);
  })
  .openapi(deleteRole, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.OrganizationRole.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const before = toOrganizationRole(await findOrganizationRole(tx, id));
        await tx.delete(organizationRoles, eq(organizationRoles.id, id));
        return {
          result: undefined,
          entity: { type: 'OrganizationRole', id },
          before,
          after: null,
          events: [{ event: 'OrganizationRole.Deleted', data: before }],
        };
      },
    );
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
