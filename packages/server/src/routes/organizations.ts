import {
  generateId,
  idSchema,
  type OrganizationListItem,
  organizationCreateSchema,
  organizationListItemSchema,
  organizationListQuerySchema,
  organizationPatchSchema,
  organizationSchema,
  organizationWithRolesSchema,
  paginationQuerySchema,
  userIdSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import {
  organizationApplicationRoles,
  organizationApplications,
  organizations,
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
import {
  findOrganization,
  keywordCondition,
  type OrganizationRow,
  rolesPerOwner,
  toOrganization,
} from '../services/organizations.ts';
import { assertQuota } from '../services/quota.ts';
import { inRelation } from '../services/relations.ts';
import { findApplication } from '../services/role-assignments.ts';
import { findUser } from '../services/users.ts';
import { performWrite } from '../services/write-path.ts';

/** Organizations (spec §3): list, create, read, update, delete; and the organizations of a user or an application. */

const tags = ['Organizations'];
const listOrganizations = createRoute({
  method: 'get',
  path: '/organizations',
  tags,
  summary: 'List organizations, newest first',
  description:
    "`q` (or `search`) matches a substring of the id or the name, any case. `showFeatured=1` adds each organization's member count (`usersCount`) and up to three members (`featuredUsers`).",
  request: { query: organizationListQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationListItemSchema), 'A page of organizations, newest first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
  },
});

const createOrganization = createRoute({
  method: 'post',
  path: '/organizations',
  tags,
  summary: 'Create an organization',
  request: { body: jsonBody(organizationCreateSchema) },
  responses: { 201: jsonResponse(organizationSchema, 'The new organization.'), ...errorResponses },
});

const getOrganization = createRoute({
  method: 'get',
  path: '/organizations/{id}',
  tags,
  summary: 'Get an organization',
  request: { params: organizationParams },
  responses: { 200: jsonResponse(organizationSchema, 'The organization.'), ...errorResponses, ...notFoundResponse },
});

const patchOrganization = createRoute({
  method: 'patch',
  path: '/organizations/{id}',
  tags,
  summary: 'Update an organization',
  description: 'Each given field replaces the stored one (`customData`, `color` and `branding` as whole objects).',
  request: { params: organizationParams, body: jsonBody(organizationPatchSchema) },
  responses: {
    200: jsonResponse(organizationSchema, 'The updated organization.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const deleteOrganization = createRoute({
  method: 'delete',
  path: '/organizations/{id}',
  tags,
  summary: 'Delete an organization (its memberships, roles held there, invitations and JIT settings go with it)',
  request: { params: organizationParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

const listUserOrganizations = createRoute({
  method: 'get',
  path: '/users/{userId}/organizations',
  tags,
  summary: 'List the organizations a user is a member of, with the organization roles held in each',
  request: { params: z.object({ userId: userIdSchema }), query: paginationQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationWithRolesSchema), 'A page of organizations, newest first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const listApplicationOrganizations = createRoute({
  method: 'get',
  path: '/applications/{id}/organizations',
  tags,
  summary: 'List the organizations a machine-to-machine application belongs to, with its organization roles there',
  request: { params: z.object({ id: idSchema }), query: paginationQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationWithRolesSchema), 'A page of organizations, newest first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const newestFirst = [desc(organizations.createdAt), desc(organizations.id)];

/**
 * Member counts and up to three members of each organization of a page: one lateral query picks
 * the featured members (by id, which the primary key keeps in order) and one count per organization
 * reads only that organization's index range.
 */
async function withFeaturedUsers(tenant: TenantDb, rows: OrganizationRow[]): Promise<OrganizationListItem[]> {
  if (!rows.length) return [];
  const ids = sql.join(
    rows.map((row) => sql`${row.id}`),
    sql`, `,
  );
  const featured = await tenant.findMany(organizationUsers, {
    where: sql`(${organizationUsers.organizationId}, ${organizationUsers.userId}) in (
      select f.organization_id, f.user_id from unnest(array[${ids}]::varchar[]) as o(id)
      cross join lateral (
        select m.organization_id, m.user_id from ${organizationUsers} m
        where m.tenant_id = ${tenant.tenantId} and m.organization_id = o.id
        order by m.user_id limit 3
      ) f
    )`,
    orderBy: [asc(organizationUsers.userId)],
  });
  const [counts, people] = await Promise.all([
    Promise.all(rows.map((row) => tenant.count(organizationUsers, eq(organizationUsers.organizationId, row.id)))),
    featured.length
      ? tenant.findMany(users, { where: inArray(users.id, [...new Set(featured.map((member) => member.userId))]) })
      : Promise.resolve([]),
  ]);
  const byId = new Map(people.map((user) => [user.id, { id: user.id, name: user.name, avatar: user.avatar }]));
  return rows.map((row, index) => ({
    ...toOrganization(row),
    usersCount: counts[index] ?? 0,
    featuredUsers: featured
      .filter((member) => member.organizationId === row.id)
      .flatMap((member) => byId.get(member.userId) ?? []),
  }));
}

/** A page of the organizations linked through `relation`, each with the roles the member holds there. */
async function organizationsOf(
  c: Context<AppEnv>,
  query: z.infer<typeof paginationQuerySchema>,
  membership: { where: SQL; table: typeof organizationUsers | typeof organizationApplications },
  roleRows: (tenant: TenantDb, organizationIds: string[]) => Promise<{ organizationId: string; roleId: string }[]>,
) {
  const tenant = c.get('tenant');
  const rows = await listPage(c, organizations, query, {
    where: inRelation(tenant, organizations.id, membership.table, membership.table.organizationId, membership.where),
    orderBy: newestFirst,
  });
  const held = await rolesPerOwner(
    tenant,
    await roleRows(
      tenant,
      rows.map((row) => row.id),
    ),
    (row) => row.organizationId,
    (row) => row.roleId,
  );
  return rows.map((row) => ({ ...toOrganization(row), organizationRoles: held.get(row.id) ?? [] }));
}

export const organizationsRoutes = createRouter()
  .openapi(listOrganizations, async (c) => {
    const query = c.req.valid('query');
    const rows = await listPage(c, organizations, query, {
      where: keywordCondition(query, [organizations.id, organizations.name]),
      orderBy: newestFirst,
    });
    if (query.showFeatured) return c.json(await withFeaturedUsers(c.get('tenant'), rows), 200);
    return c.json(rows.map(toOrganization), 200);
  })
  .openapi(createOrganization, async (c) => {
    const organization = await performWrite(
      writeContext(c),
      { key: 'Admin.Organization.Created', schema: organizationCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        await assertQuota(tx, 'organizationsLimit', c.get('config'));
        const created = toOrganization(await tx.insert(organizations, { id: generateId(), ...input }));
        return {
          result: created,
          entity: { type: 'Organization', id: created.id },
          before: null,
          after: created,
          events: [{ event: 'Organization.Created', data: created }],
        };
      },
    );
    return c.json(organization, 201);
  })
  .openapi(getOrganization, async (c) => {
    return c.json(toOrganization(await findOrganization(c.get('tenant'), c.req.valid('param').id)), 200);
  })
  .openapi(patchOrganization, async (c) => {
    const { id } = c.req.valid('param');
    const organization = await performWrite(
      writeContext(c),
      { key: 'Admin.Organization.Updated', schema: organizationPatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const before = toOrganization(await findOrganization(tx, id));
        // An empty patch changes nothing: no statement, no event (the audit entry shows no changes).
        if (!Object.keys(input).length)
          return { result: before, entity: { type: 'Organization', id }, before, after: before };
        const [row] = await tx.update(organizations, eq(organizations.id, id), input);
        if (!row) throw new Error('the organization vanished inside its transaction');
        const after = toOrganization(row);
        return {
          result: after,
          entity: { type: 'Organization', id },
          before,
          after,
          events: [{ event: 'Organization.Data.Updated', data: after }],
        };
      },
    );
    return c.json(organization, 200);
  })
  .openapi(deleteOrganization, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Organization.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const before = toOrganization(await findOrganization(tx, id));
        await tx.delete(organizations, eq(organizations.id, id));
        return {
          result: undefined,
          entity: { type: 'Organization', id },
          before,
          after: null,
          events: [{ event: 'Organization.Deleted', data: before }],
        };
      },
    );
    return c.body(null, 204);
  })
  .openapi(listUserOrganizations, async (c) => {
    const { userId } = c.req.valid('param');
    await findUser(c.get('tenant'), userId);
    const list = await organizationsOf(
      c,
      c.req.valid('query'),
      { table: organizationUsers, where: eq(organizationUsers.userId, userId) },
      async (tenant, organizationIds) =>
        organizationIds.length
          ? (
              await tenant.findMany(organizationUserRoles, {
                where: allOf(
                  eq(organizationUserRoles.userId, userId),
                  inArray(organizationUserRoles.organizationId, organizationIds),
                ),
              })
            ).map((row) => ({ organizationId: row.organizationId, roleId: row.organizationRoleId }))
          : [],
    );
    return c.json(list, 200);
  })
  .openapi(listApplicationOrganizations, async (c) => {
    const { id } = c.req.valid('param');
    await findApplication(c.get('tenant'), id);
    const list = await organizationsOf(
      c,
      c.req.valid('query'),
      { table: organizationApplications, where: eq(organizationApplications.applicationId, id) },
      async (tenant, organizationIds) =>
        organizationIds.length
          ? (
              await tenant.findMany(organizationApplicationRoles, {
                where: allOf(
                  eq(organizationApplicationRoles.applicationId, id),
                  inArray(organizationApplicationRoles.organizationId, organizationIds),
                ),
              })
            ).map((row) => ({ organizationId: row.organizationId, roleId: row.organizationRoleId }))
          : [],
    );
    return c.json(list, 200);
  });
