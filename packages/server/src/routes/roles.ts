import {
  generateId,
  idSchema,
  paginationQuerySchema,
  roleCreateSchema,
  rolePatchSchema,
  roleSchema,
  roleTypes,
  userIdSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, ilike, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { anyOf } from '../db/conditions.ts';
import { applicationsRoles, roles, usersRoles } from '../db/tables.ts';
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
import { assertQuota, roleQuotaKey } from '../services/quota.ts';
import { notInRelation } from '../services/relations.ts';
import { addScopesToRole, roleScopesUpdatedEvent } from '../services/role-assignments.ts';
import { toRole } from '../services/roles.ts';
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

export const rolesRoutes = createRouter()
  .openapi(listRoles, async (c) => {
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    const conditions: SQL[] = [];
    if (query.type) conditions.push(eq(roles.type, query.type));
    if (query.excludeUserId) {
      conditions.push(
        notInRelation(tenant, roles.id, usersRoles, usersRoles.roleId, eq(usersRoles.userId, query.excludeUserId)),
      );
    }
    if (query.excludeApplicationId) {
      conditions.push(
        notInRelation(
          tenant,
          roles.id,
          applicationsRoles,
          applicationsRoles.roleId,
          eq(applicationsRoles.applicationId, query.excludeApplicationId),
        ),
      );
    }
    if (query.search) {
      const pattern = likePattern(query.search);
      conditions.push(anyOf(ilike(roles.id, pattern), ilike(roles.name, pattern), ilike(roles.description, pattern)));
    }
    const rows = await listPage(c, roles, query, {
      where: conditions.length ? and(...conditions) : undefined,
      orderBy: [desc(roles.createdAt), desc(roles.id)],
    });
    return c.json(rows.map(toRole), 200);
  })
  .openapi(createRole, async (c) => {
    const role = await performWrite(
      writeContext(c),
      { key: 'Admin.Role.Created', schema: roleCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const { scopeIds = [], ...fields } = input;
        await assertQuota(tx, roleQuotaKey(fields.type), c.get('config'));
        const row = await tx.insert(roles, { id: generateId(), ...fields });
        const created = toRole(row);
        if (!scopeIds.length) {
          return {
            result: created,
            entity: { type: 'Role', id: created.id },
            before: null,
            after: created,
            events: [{ event: 'Role.Created', data: created }],
          };
        }
        await assertQuota(tx, 'scopesPerRoleLimit', c.get('config'), { parentId: row.id, added: scopeIds.length });
        await addScopesToRole(tx, row, scopeIds);
        return {
          result: created,
          entity: { type: 'Role', id: created.id },
          before: null,
          after: { ...created, scopeIds: [...scopeIds].sort() },
          events: [{ event: 'Role.Created', data: created }, await roleScopesUpdatedEvent(tx, created.id)],
        };
      },
    );
    return c.json(role, 200);
  })
  .openapi(getRole, async (c) => {
    const row = await c.get('tenant').findOne(roles, eq(roles.id, c.req.valid('param').id));
    if (!row) throw notFound();
    return c.json(toRole(row), 200);
  })
  .openapi(patchRole, async (c) => {
    const { id } = c.req.valid('param');
    const role = await performWrite(
      writeContext(c),
      { key: 'Admin.Role.Updated', schema: rolePatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const existing = await tx.findOne(roles, eq(roles.id, id));
        if (!existing) throw notFound();
        const [row] = await tx.update(roles, eq(roles.id, id), input);
        if (!row) throw notFound();
        const before = toRole(existing);
        const after = toRole(row);
        return {
          result: after,
          entity: { type: 'Role', id },
          before,
          after,
          events: [{ event: 'Role.Data.Updated', data: after }],
        };
      },
    );
    return c.json(role, 200);
  })
  .openapi(deleteRole, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(writeContext(c), { key: 'Admin.Role.Deleted', schema: z.object({}), input: {} }, async (tx) => {
      const [row] = await tx.delete(roles, eq(roles.id, id));
      if (!row) throw notFound();
      const before = toRole(row);
      return {
        result: undefined,
        entity: { type: 'Role', id },
        before,
        after: null,
        events: [{ event: 'Role.Deleted', data: before }],
      };
    });
    return c.body(null, 204);
  });
