import {
  errorBodySchema,
  generateId,
  idSchema,
  organizationRoleCreateSchema,
  organizationRoleListQuerySchema,
  organizationRolePatchSchema,
  organizationRoleSchema,
  organizationRoleWithScopesSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { organizationRoles } from '../db/tables.ts';
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
import {
  addOrganizationScopes,
  addResourceScopes,
  scopesUpdatedEvent,
  withScopes,
} from '../services/organization-roles.ts';
import { findOrganizationRole, keywordCondition, toOrganizationRole } from '../services/organizations.ts';
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
  });
