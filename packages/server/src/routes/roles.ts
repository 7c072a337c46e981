import {
  applicationSchema,
  errorBodySchema,
  idSchema,
  paginationQuerySchema,
  type RoleUser,
  roleApplicationsAssignSchema,
  roleCreateSchema,
  rolePatchSchema,
  roleSchema,
  roleScopeSchema,
  roleScopesAssignSchema,
  roleTypes,
  roleUserSchema,
  roleUsersAssignSchema,
  userIdSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { allOf, anyOf } from '../db/conditions.ts';
import {
  applications,
  applicationsRoles,
  resources,
  roles,
  rolesScopes,
  scopes,
  users,
  usersRoles,
} from '../db/tables.ts';
import { notFound } from '../http/errors.ts';
import {
  conflictResponse,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  likePattern,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { toApplication } from '../services/applications.ts';
import { assertQuota } from '../services/quota.ts';
import { inRelation } from '../services/relations.ts';
import { toResource, toScope } from '../services/resources.ts';
import {
  addScopesToRole,
  addUsersToRole,
  findAllApplications,
  findRole,
  linkRolesAndApplications,
  roleScopeIds,
} from '../services/role-assignments.ts';
import * as roleService from '../services/roles.ts';
import { performWrite } from '../services/write-path.ts';

const tags = ['Roles'];
const idParams = z.object({ id: idSchema });

const listRoles = createRoute({
  method: 'get',
  path: '/roles',
  tags,
  summary: 'List roles',
  request: {
    query: paginationQuerySchema.extend({
      search: z.string().max(256).optional(),
      type: z.enum(roleTypes).optional(),
      excludeUserId: userIdSchema.optional().meta({ description: 'Leave out roles this user holds.' }),
      excludeApplicationId: idSchema.optional().meta({ description: 'Leave out roles this application holds.' }),
    }),
  },
  responses: {
    200: { ...jsonResponse(z.array(roleSchema), 'A page of roles, newest first.'), headers: paginatedHeaders },
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

const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });
const typeMismatchResponse = {
  422: {
    description:
      'The types do not match (`role.invalid_type`, `application.invalid_type`, `role.management_api_scope_for_user_role`) or the assignment exists.',
    content: { 'application/json': { schema: errorBodySchema } },
  },
} as const;
const relationNotFound = {
  404: {
    description:
      'No such role (`entity.not_found`) or an assigned id does not exist (`entity.relation_foreign_key_not_found`).',
    content: { 'application/json': { schema: errorBodySchema } },
  },
} as const;

function toRoleUser(row: typeof users.$inferSelect): RoleUser {
  return {
    id: row.id,
    username: row.username,
    primaryEmail: row.primaryEmail,
    primaryPhone: row.primaryPhone,
    name: row.name,
    avatar: row.avatar,
    isSuspended: row.isSuspended,
    lastSignInAt: row.lastSignInAt?.getTime() ?? null,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

const listRoleScopes = createRoute({
  method: 'get',
  path: '/roles/{id}/scopes',
  tags,
  summary: 'List the permissions (scopes) of a role, with their API resource',
  request: { params: idParams, query: searchQuery },
  responses: {
    200: { ...jsonResponse(z.array(roleScopeSchema), 'A page of scopes, newest first.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const assignRoleScopes = createRoute({
  method: 'post',
  path: '/roles/{id}/scopes',
  tags,
  summary: 'Add permissions (scopes) to a role',
  request: { params: idParams, body: jsonBody(roleScopesAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...relationNotFound, ...typeMismatchResponse },
});

const removeRoleScope = createRoute({
  method: 'delete',
  path: '/roles/{id}/scopes/{scopeId}',
  tags,
  summary: 'Remove a permission from a role',
  request: { params: z.object({ id: idSchema, scopeId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const listRoleUsers = createRoute({
  method: 'get',
  path: '/roles/{id}/users',
  tags,
  summary: 'List the users holding a role',
  request: { params: idParams, query: searchQuery },
  responses: {
    200: { ...jsonResponse(z.array(roleUserSchema), 'A page of users, newest first.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const assignRoleUsers = createRoute({
  method: 'post',
  path: '/roles/{id}/users',
  tags,
  summary: 'Give a user role to users',
  request: { params: idParams, body: jsonBody(roleUsersAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...relationNotFound, ...typeMismatchResponse },
});

const removeRoleUser = createRoute({
  method: 'delete',
  path: '/roles/{id}/users/{userId}',
  tags,
  summary: 'Take a role away from a user',
  request: { params: z.object({ id: idSchema, userId: userIdSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const listRoleApplications = createRoute({
  method: 'get',
  path: '/roles/{id}/applications',
  tags,
  summary: 'List the machine-to-machine applications holding a role',
  request: { params: idParams, query: searchQuery },
  responses: {
    200: {
      ...jsonResponse(z.array(applicationSchema), 'A page of applications, newest first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const assignRoleApplications = createRoute({
  method: 'post',
  path: '/roles/{id}/applications',
  tags,
  summary: 'Give a machine-to-machine role to machine-to-machine applications',
  request: { params: idParams, body: jsonBody(roleApplicationsAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...relationNotFound, ...typeMismatchResponse },
});

const removeRoleApplication = createRoute({
  method: 'delete',
  path: '/roles/{id}/applications/{applicationId}',
  tags,
  summary: 'Take a role away from an application',
  request: { params: z.object({ id: idSchema, applicationId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

export const rolesRoutes = createRouter()
  .openapi(listRoles, async (c) => {
    const query = c.req.valid('query');
    const rows = await listPage(c, roles, query, roleService.roleListQuery(c.get('tenant'), query));
    return c.json(rows.map(roleService.toRole), 200);
  })
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
  })
  .openapi(listRoleScopes, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findRole(tenant, id);
    const conditions: SQL[] = [
      inRelation(tenant, scopes.id, rolesScopes, rolesScopes.scopeId, eq(rolesScopes.roleId, id)),
    ];
    if (query.search) {
      const pattern = likePattern(query.search);
      conditions.push(
        anyOf(ilike(scopes.id, pattern), ilike(scopes.name, pattern), ilike(scopes.description, pattern)),
      );
    }
    const rows = await listPage(c, scopes, query, {
      where: and(...conditions),
      orderBy: [desc(scopes.createdAt), desc(scopes.id)],
    });
    const resourceIds = [...new Set(rows.map((row) => row.resourceId))];
    const owners = resourceIds.length
      ? await tenant.findMany(resources, { where: inArray(resources.id, resourceIds) })
      : [];
    return c.json(
      rows.flatMap((row) => {
        const resource = owners.find((owner) => owner.id === row.resourceId);
        return resource ? [{ ...toScope(row), resource: toResource(resource) }] : [];
      }),
      200,
    );
  })
  .openapi(assignRoleScopes, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Role.Updated', schema: roleScopesAssignSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const role = await findRole(tx, id);
        const before = await roleScopeIds(tx, id);
        await assertQuota(tx, 'scopesPerRoleLimit', c.get('config'), { parentId: id, added: input.scopeIds.length });
        await addScopesToRole(tx, role, input.scopeIds);
        return {
          result: undefined,
          entity: { type: 'Role', id },
          before: { scopeIds: before },
          after: { scopeIds: await roleScopeIds(tx, id) },
          events: [{ event: 'Role.Scopes.Updated', data: await roleService.scopesUpdatedEvent(tx, id) }],
        };
      },
    );
    return c.body(null, 201);
  })
  .openapi(removeRoleScope, async (c) => {
    const { id, scopeId } = c.req.valid('param');
    await performWrite(writeContext(c), { key: 'Admin.Role.Updated', schema: z.object({}), input: {} }, async (tx) => {
      await findRole(tx, id);
      const before = await roleScopeIds(tx, id);
      const [row] = await tx.delete(rolesScopes, allOf(eq(rolesScopes.roleId, id), eq(rolesScopes.scopeId, scopeId)));
      if (!row) throw notFound();
      return {
        result: undefined,
        entity: { type: 'Role', id },
        before: { scopeIds: before },
        after: { scopeIds: before.filter((scope) => scope !== scopeId) },
        events: [{ event: 'Role.Scopes.Updated', data: await roleService.scopesUpdatedEvent(tx, id) }],
      };
    });
    return c.body(null, 204);
  })
  .openapi(listRoleUsers, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findRole(tenant, id);
    const conditions: SQL[] = [inRelation(tenant, users.id, usersRoles, usersRoles.userId, eq(usersRoles.roleId, id))];
    if (query.search) {
      const pattern = likePattern(query.search);
      conditions.push(
        anyOf(
          ilike(users.id, pattern),
          ilike(users.username, pattern),
          ilike(users.primaryEmail, pattern),
          ilike(users.primaryPhone, pattern),
          ilike(users.name, pattern),
        ),
      );
    }
    const rows = await listPage(c, users, query, {
      where: and(...conditions),
      orderBy: [desc(users.createdAt), desc(users.id)],
    });
    return c.json(rows.map(toRoleUser), 200);
  })
  .openapi(assignRoleUsers, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Role.Updated', schema: roleUsersAssignSchema, input: c.req.valid('json') },
      async (tx, input) => {
        await addUsersToRole(tx, await findRole(tx, id), input.userIds);
        // A role may have very many users: the audit entry names the ones this request added.
        return {
          result: undefined,
          entity: { type: 'Role', id },
          before: { userIds: [] },
          after: { userIds: [...input.userIds].sort() },
        };
      },
    );
    return c.body(null, 201);
  })
  .openapi(removeRoleUser, async (c) => {
    const { id, userId } = c.req.valid('param');
    await performWrite(writeContext(c), { key: 'Admin.Role.Updated', schema: z.object({}), input: {} }, async (tx) => {
      await findRole(tx, id);
      const [row] = await tx.delete(usersRoles, allOf(eq(usersRoles.roleId, id), eq(usersRoles.userId, userId)));
      if (!row) throw notFound();
      return { result: undefined, entity: { type: 'Role', id }, before: { userIds: [userId] }, after: { userIds: [] } };
    });
    return c.body(null, 204);
  })
  .openapi(listRoleApplications, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findRole(tenant, id);
    const conditions: SQL[] = [
      inRelation(
        tenant,
        applications.id,
        applicationsRoles,
        applicationsRoles.applicationId,
        eq(applicationsRoles.roleId, id),
      ),
    ];
    if (query.search) {
      const pattern = likePattern(query.search);
      conditions.push(
        anyOf(
          ilike(applications.id, pattern),
          ilike(applications.name, pattern),
          ilike(applications.description, pattern),
        ),
      );
    }
    const rows = await listPage(c, applications, query, {
      where: and(...conditions),
      orderBy: [desc(applications.createdAt), desc(applications.id)],
    });
    return c.json(rows.map(toApplication), 200);
  })
  .openapi(assignRoleApplications, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Role.Updated', schema: roleApplicationsAssignSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const role = await findRole(tx, id);
        const assigned = await findAllApplications(tx, input.applicationIds);
        await linkRolesAndApplications(tx, { roles: [role], applications: assigned }, 'role.application_exists');
        return {
          result: undefined,
          entity: { type: 'Role', id },
          before: { applicationIds: [] },
          after: { applicationIds: [...input.applicationIds].sort() },
        };
      },
    );
    return c.body(null, 201);
  })
  .openapi(removeRoleApplication, async (c) => {
    const { id, applicationId } = c.req.valid('param');
    await performWrite(writeContext(c), { key: 'Admin.Role.Updated', schema: z.object({}), input: {} }, async (tx) => {
      await findRole(tx, id);
      const [row] = await tx.delete(
        applicationsRoles,
        allOf(eq(applicationsRoles.roleId, id), eq(applicationsRoles.applicationId, applicationId)),
      );
      if (!row) throw notFound();
      return {
        result: undefined,
        entity: { type: 'Role', id },
        before: { applicationIds: [applicationId] },
        after: { applicationIds: [] },
      };
    });
    return c.body(null, 204);
  });
