import {
  errorBodySchema,
  idSchema,
  paginationQuerySchema,
  roleSchema,
  userRolesAssignedSchema,
  userRolesAssignSchema,
  userRolesReplaceSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { allOf, anyOf } from '../db/conditions.ts';
import { roles, usersRoles } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { userIdParams } from '../http/params.ts';
import {
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
import { inRelation } from '../services/relations.ts';
import { findAllRoles, type RoleRow } from '../services/role-assignments.ts';
import { toRole } from '../services/roles.ts';
import { findUser } from '../services/users.ts';
import { performWrite } from '../services/write-path.ts';

/** A user's roles: the user side of the role ↔ user relation (the role side is /roles/{id}/users). */

const tags = ['Users'];

const assignmentErrors = {
  404: {
    description:
      'No such user (`entity.not_found`) or a role id does not exist (`entity.relation_foreign_key_not_found`, data.ids).',
    content: { 'application/json': { schema: errorBodySchema } },
  },
  422: {
    description: 'A machine-to-machine role cannot be given to a user (`role.invalid_type`, data.ids).',
    content: { 'application/json': { schema: errorBodySchema } },
  },
} as const;

const listUserRoles = createRoute({
  method: 'get',
  path: '/users/{userId}/roles',
  tags,
  summary: "List a user's roles",
  request: { params: userIdParams, query: paginationQuerySchema.extend({ search: z.string().max(256).optional() }) },
  responses: {
    200: { ...jsonResponse(z.array(roleSchema), 'A page of roles, newest first.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const assignUserRoles = createRoute({
  method: 'post',
  path: '/users/{userId}/roles',
  tags,
  summary: 'Give user roles to a user (roles the user already holds are left as they are)',
  request: { params: userIdParams, body: jsonBody(userRolesAssignSchema) },
  responses: {
    201: jsonResponse(userRolesAssignedSchema, "The user's roles now, and the ones this request added."),
    ...errorResponses,
    ...assignmentErrors,
  },
});

const replaceUserRoles = createRoute({
  method: 'put',
  path: '/users/{userId}/roles',
  tags,
  summary: "Replace a user's roles (an empty list removes them all)",
  request: { params: userIdParams, body: jsonBody(userRolesReplaceSchema) },
  responses: {
    200: jsonResponse(z.object({ roleIds: z.array(idSchema) }), "The user's roles now."),
    ...errorResponses,
    ...assignmentErrors,
  },
});

const removeUserRole = createRoute({
  method: 'delete',
  path: '/users/{userId}/roles/{roleId}',
  tags,
  summary: 'Take a role away from a user',
  request: { params: userIdParams.extend({ roleId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

/** The ids of the roles a user holds, sorted (audit before/after, answers). */
async function heldRoleIds(tx: TenantDb, userId: string): Promise<string[]> {
  const rows = await tx.findMany(usersRoles, { where: eq(usersRoles.userId, userId) });
  return rows.map((row) => row.roleId).sort();
}

/** Every id must be a role of this tenant (404) and a user role (422), as on the role side. */
async function findUserRoles(tx: TenantDb, ids: readonly string[]): Promise<RoleRow[]> {
  const found = await findAllRoles(tx, ids);
  const wrongType = found.filter((role) => role.type !== 'User').map((role) => role.id);
  if (wrongType.length) throw new ApiError(422, 'role.invalid_type', { ids: wrongType });
  return found;
}

/** The audited change of a user's role set; a user holds few roles, so before/after are the whole set. */
function changeRoles<R>(
  c: Parameters<typeof writeContext>[0],
  userId: string,
  spec: { schema: z.ZodType; input: unknown },
  work: (tx: TenantDb, held: string[]) => Promise<R>,
) {
  return performWrite(writeContext(c), { key: 'Admin.User.Updated', ...spec }, async (tx) => {
    await findUser(tx, userId);
    const before = await heldRoleIds(tx, userId);
    const result = await work(tx, before);
    return {
      result,
      entity: { type: 'User', id: userId },
      before: { roleIds: before },
      after: { roleIds: await heldRoleIds(tx, userId) },
    };
  });
}

export const userRolesRoutes = createRouter()
  .openapi(listUserRoles, async (c) => {
    const { userId } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findUser(tenant, userId);
    const conditions: SQL[] = [
      inRelation(tenant, roles.id, usersRoles, usersRoles.roleId, eq(usersRoles.userId, userId)),
    ];
    if (query.search) {
      const pattern = likePattern(query.search);
      conditions.push(anyOf(ilike(roles.id, pattern), ilike(roles.name, pattern), ilike(roles.description, pattern)));
    }
    const rows = await listPage(c, roles, query, {
      where: and(...conditions),
      orderBy: [desc(roles.createdAt), desc(roles.id)],
    });
    return c.json(rows.map(toRole), 200);
  })
  .openapi(assignUserRoles, async (c) => {
    const { userId } = c.req.valid('param');
    const { roleIds } = c.req.valid('json');
    const result = await changeRoles(
      c,
      userId,
      { schema: userRolesAssignSchema, input: { roleIds } },
      async (tx, held) => {
        const added = roleIds.filter((id) => !held.includes(id));
        await findUserRoles(tx, roleIds);
        for (const roleId of added) await tx.insert(usersRoles, { userId, roleId });
        return { roleIds: [...new Set([...held, ...added])].sort(), addedRoleIds: added };
      },
    );
    return c.json(result, 201);
  })
  .openapi(replaceUserRoles, async (c) => {
    const { userId } = c.req.valid('param');
    const { roleIds } = c.req.valid('json');
    const result = await changeRoles(
      c,
      userId,
      { schema: userRolesReplaceSchema, input: { roleIds } },
      async (tx, held) => {
        if (roleIds.length) await findUserRoles(tx, roleIds);
        const removed = held.filter((id) => !roleIds.includes(id));
        if (removed.length)
          await tx.delete(usersRoles, allOf(eq(usersRoles.userId, userId), inArray(usersRoles.roleId, removed)));
        for (const roleId of roleIds.filter((id) => !held.includes(id)))
          await tx.insert(usersRoles, { userId, roleId });
        return { roleIds: [...roleIds].sort() };
      },
    );
    return c.json(result, 200);
  })
  .openapi(removeUserRole, async (c) => {
    const { userId, roleId } = c.req.valid('param');
    await changeRoles(c, userId, { schema: z.object({}), input: {} }, async (tx) => {
      const [row] = await tx.delete(usersRoles, allOf(eq(usersRoles.userId, userId), eq(usersRoles.roleId, roleId)));
      if (!row) throw notFound();
    });
    return c.body(null, 204);
  });
