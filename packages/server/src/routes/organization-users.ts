import {
  errorBodySchema,
  idSchema,
  keywordQuerySchema,
  organizationMemberListQuerySchema,
  organizationMemberRolesAssignSchema,
  organizationMemberRolesReplaceSchema,
  organizationMemberSchema,
  organizationRoleSchema,
  organizationScopeSchema,
  organizationUsersAddSchema,
  organizationUsersReplaceSchema,
  organizationUsersRolesAssignSchema,
  userIdSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { asc, desc, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import {
  organizationRoles,
  organizationScopes,
  organizationUserRoles,
  organizationUsers,
  users,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { AppEnv } from '../http/context.ts';
import { organizationParams } from '../http/params.ts';
import {
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { memberScopeCondition } from '../services/organization-access.ts';
import {
  assertAllMembers,
  assertMember,
  assertUsersExist,
  memberRoles,
  membershipEvent,
} from '../services/organization-members.ts';
import { addIds, idsOf, removeId, replaceIds } from '../services/organization-relations.ts';
import {
  findOrganization,
  findOrganizationRoles,
  keywordCondition,
  memberRolesOf,
  membersOf,
  organizationRoleIdsByName,
  toOrganizationRole,
  toOrganizationScope,
} from '../services/organizations.ts';
import { inRelation } from '../services/relations.ts';
import { toUser } from '../services/users.ts';
import { performWrite } from '../services/write-path.ts';

/** Members of an organization and the organization roles they hold there. */

const tags = ['Organization members'];
const memberParams = organizationParams.extend({ userId: userIdSchema });

const errors = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBodySchema } },
});
const assignmentErrors = {
  404: errors(
    'No such organization or member (`entity.not_found`), or an id in the body does not exist (`entity.relation_foreign_key_not_found`, data.ids or data.names).',
  ),
  422: errors(
    'Already there (`organization.user_exists`, `organization.role_exists`), not a member (`organization.require_membership`) or a machine-to-machine role (`organization_role.invalid_type`); data.ids names them.',
  ),
} as const;

const listMembers = createRoute({
  method: 'get',
  path: '/organizations/{id}/users',
  tags,
  summary: 'List the members of an organization with their organization roles',
  description:
    '`q` (or `search`) matches a substring of id, username, email, phone or name; `organizationRoleId` keeps the members holding that role.',
  request: { params: organizationParams, query: organizationMemberListQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationMemberSchema), 'A page of members, newest users first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const addMembers = createRoute({
  method: 'post',
  path: '/organizations/{id}/users',
  tags,
  summary: 'Add users to an organization',
  request: { params: organizationParams, body: jsonBody(organizationUsersAddSchema) },
  responses: { 201: { description: 'Added.' }, ...errorResponses, ...assignmentErrors },
});

const replaceMembers = createRoute({
  method: 'put',
  path: '/organizations/{id}/users',
  tags,
  summary: 'Replace the members of an organization (those left out lose their roles there)',
  request: { params: organizationParams, body: jsonBody(organizationUsersReplaceSchema) },
  responses: { 204: { description: 'Replaced.' }, ...errorResponses, ...assignmentErrors },
});

const removeMember = createRoute({
  method: 'delete',
  path: '/organizations/{id}/users/{userId}',
  tags,
  summary: 'Remove a member (and the organization roles held there)',
  request: { params: memberParams },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const assignRolesToMembers = createRoute({
  method: 'post',
  path: '/organizations/{id}/users/roles',
  tags,
  summary: 'Give organization roles to several members (roles already held stay as they are)',
  request: { params: organizationParams, body: jsonBody(organizationUsersRolesAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...assignmentErrors },
});

const listMemberRoles = createRoute({
  method: 'get',
  path: '/organizations/{id}/users/{userId}/roles',
  tags,
  summary: "List a member's organization roles",
  request: { params: memberParams, query: keywordQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(organizationRoleSchema), 'A page of roles, by name.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const addMemberRoles = createRoute({
  method: 'post',
  path: '/organizations/{id}/users/{userId}/roles',
  tags,
  summary: 'Give organization roles to a member, by id and/or name',
  request: { params: memberParams, body: jsonBody(organizationMemberRolesAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...assignmentErrors },
});

const replaceMemberRoles = createRoute({
  method: 'put',
  path: '/organizations/{id}/users/{userId}/roles',
  tags,
  summary: "Replace a member's organization roles (an empty list removes them all)",
  request: { params: memberParams, body: jsonBody(organizationMemberRolesReplaceSchema) },
  responses: { 204: { description: 'Replaced.' }, ...errorResponses, ...assignmentErrors },
});

const removeMemberRole = createRoute({
  method: 'delete',
  path: '/organizations/{id}/users/{userId}/roles/{organizationRoleId}',
  tags,
  summary: 'Take an organization role away from a member',
  request: { params: memberParams.extend({ organizationRoleId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const listMemberScopes = createRoute({
  method: 'get',
  path: '/organizations/{id}/users/{userId}/scopes',
  tags,
  summary: "List the organization permissions a member's roles grant",
  request: { params: memberParams, query: keywordQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationScopeSchema), 'A page of organization permissions, by name.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

/**
 * The audited change of an organization's member set. An organization may have very many
 * members, so before/after name only the users this request touched (like a role's users).
 */
function changeMembers(
  c: Context<AppEnv>,
  organizationId: string,
  spec: { schema: z.ZodType; input: unknown },
  work: (tx: TenantDb) => Promise<{ added: string[]; removed: string[] }>,
) {
  return performWrite(writeContext(c), { key: 'Admin.Organization.Updated', ...spec }, async (tx) => {
    await findOrganization(tx, organizationId);
    const { added, removed } = await work(tx);
    return {
      result: undefined,
      entity: { type: 'Organization', id: organizationId },
      before: { userIds: [...removed].sort() },
      after: { userIds: [...added].sort() },
      events: membershipEvent(organizationId, { kind: 'users', added, removed }),
    };
  });
}

/** The audited change of one member's roles; a member holds few, so before/after are the whole set. */
function changeMemberRoles(
  c: Context<AppEnv>,
  params: { id: string; userId: string },
  spec: { schema: z.ZodType; input: unknown },
  work: (tx: TenantDb) => Promise<void>,
) {
  return performWrite(writeContext(c), { key: 'Admin.Organization.Updated', ...spec }, async (tx) => {
    await findOrganization(tx, params.id);
    await assertMember(tx, params.id, params.userId);
    const set = memberRolesOf(params.id, params.userId);
    const before = await idsOf(tx, set);
    await work(tx);
    return {
      result: undefined,
      entity: { type: 'Organization', id: params.id },
      before: { userId: params.userId, organizationRoleIds: before },
      after: { userId: params.userId, organizationRoleIds: await idsOf(tx, set) },
    };
  });
}

/** Ids and names of a member roles body as user-type role ids. */
async function userRoleIds(
  tx: TenantDb,
  body: { organizationRoleIds?: string[] | undefined; organizationRoleNames?: string[] | undefined },
): Promise<string[]> {
  const ids = body.organizationRoleIds ?? [];
  await findOrganizationRoles(tx, ids, 'User');
  const named = await organizationRoleIdsByName(tx, body.organizationRoleNames ?? [], 'User');
  return [...new Set([...ids, ...named])];
}

export const organizationUsersRoutes = createRouter()
  .openapi(listMembers, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findOrganization(tenant, id);
    const membership = query.organizationRoleId
      ? inRelation(
          tenant,
          users.id,
          organizationUserRoles,
          organizationUserRoles.userId,
          allOf(
            eq(organizationUserRoles.organizationId, id),
            eq(organizationUserRoles.organizationRoleId, query.organizationRoleId),
          ),
        )
      : inRelation(
          tenant,
          users.id,
          organizationUsers,
          organizationUsers.userId,
          eq(organizationUsers.organizationId, id),
        );
    const search = keywordCondition(query, [
      users.id,
      users.username,
      users.primaryEmail,
      users.primaryPhone,
      users.name,
    ]);
    const rows = await listPage(c, users, query, {
      where: search ? allOf(membership, search) : membership,
      orderBy: [desc(users.createdAt), desc(users.id)],
    });
    const held = await memberRoles(
      tenant,
      id,
      rows.map((row) => row.id),
    );
    return c.json(
      rows.map((row) => ({ ...toUser(row), organizationRoles: held.get(row.id) ?? [] })),
      200,
    );
  })
  .openapi(addMembers, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await changeMembers(c, id, { schema: organizationUsersAddSchema, input }, async (tx) => {
      await assertUsersExist(tx, input.userIds);
      const added = await addIds(tx, membersOf(id), input.userIds, 'organization.user_exists');
      return { added, removed: [] };
    });
    return c.body(null, 201);
  })
  .openapi(replaceMembers, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await changeMembers(c, id, { schema: organizationUsersReplaceSchema, input }, async (tx) => {
      await assertUsersExist(tx, input.userIds);
      return replaceIds(tx, membersOf(id), input.userIds);
    });
    return c.body(null, 204);
  })
  .openapi(removeMember, async (c) => {
    const { id, userId } = c.req.valid('param');
    await changeMembers(c, id, { schema: z.object({}), input: {} }, async (tx) => {
      await removeId(tx, membersOf(id), userId);
      return { added: [], removed: [userId] };
    });
    return c.body(null, 204);
  })
  .openapi(assignRolesToMembers, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Organization.Updated', schema: organizationUsersRolesAssignSchema, input },
      async (tx) => {
        await findOrganization(tx, id);
        await assertAllMembers(tx, id, input.userIds);
        await findOrganizationRoles(tx, input.organizationRoleIds, 'User');
        const added: { userId: string; organizationRoleIds: string[] }[] = [];
        for (const userId of input.userIds) {
          const roleIds = await addIds(tx, memberRolesOf(id, userId), input.organizationRoleIds);
          if (roleIds.length) added.push({ userId, organizationRoleIds: roleIds.sort() });
        }
        // The audit entry names the role assignments this request made.
        return {
          result: undefined,
          entity: { type: 'Organization', id },
          before: { memberRoles: [] },
          after: { memberRoles: added },
        };
      },
    );
    return c.body(null, 201);
  })
  .openapi(listMemberRoles, async (c) => {
    const { id, userId } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findOrganization(tenant, id);
    await assertMember(tenant, id, userId);
    const held = inRelation(
      tenant,
      organizationRoles.id,
      organizationUserRoles,
      organizationUserRoles.organizationRoleId,
      allOf(eq(organizationUserRoles.organizationId, id), eq(organizationUserRoles.userId, userId)),
    );
    const search = keywordCondition(query, [organizationRoles.name]);
    const rows = await listPage(c, organizationRoles, query, {
      where: search ? allOf(held, search) : held,
      orderBy: [asc(organizationRoles.name)],
    });
    return c.json(rows.map(toOrganizationRole), 200);
  })
  .openapi(addMemberRoles, async (c) => {
    const params = c.req.valid('param');
    const input = c.req.valid('json');
    await changeMemberRoles(c, params, { schema: organizationMemberRolesAssignSchema, input }, async (tx) => {
      const ids = await userRoleIds(tx, input);
      await addIds(tx, memberRolesOf(params.id, params.userId), ids, 'organization.role_exists');
    });
    return c.body(null, 201);
  })
  .openapi(replaceMemberRoles, async (c) => {
    const params = c.req.valid('param');
    const input = c.req.valid('json');
    await changeMemberRoles(c, params, { schema: organizationMemberRolesReplaceSchema, input }, async (tx) => {
      await replaceIds(tx, memberRolesOf(params.id, params.userId), await userRoleIds(tx, input));
    });
    return c.body(null, 204);
  })
  .openapi(removeMemberRole, async (c) => {
    const { organizationRoleId, ...params } = c.req.valid('param');
    await changeMemberRoles(c, params, { schema: z.object({}), input: {} }, async (tx) => {
      await removeId(tx, memberRolesOf(params.id, params.userId), organizationRoleId);
    });
    return c.body(null, 204);
  })
  .openapi(listMemberScopes, async (c) => {
    const { id, userId } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findOrganization(tenant, id);
    await assertMember(tenant, id, userId);
    const granted = memberScopeCondition(tenant, id, { userId });
    const search = keywordCondition(query, [organizationScopes.name]);
    const rows = await listPage(c, organizationScopes, query, {
      where: search ? allOf(granted, search) : granted,
      orderBy: [asc(organizationScopes.name)],
    });
    return c.json(rows.map(toOrganizationScope), 200);
  });
