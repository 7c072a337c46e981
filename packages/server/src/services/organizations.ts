import {
  DomainError,
  generateId,
  type Miss,
  type NamedRef,
  notFound,
  nothingUpdated,
  type Organization,
  type OrganizationCreate,
  type OrganizationListItem,
  type OrganizationPatch,
  type OrganizationRole,
  type OrganizationRoleType,
  type OrganizationScope,
  type OrganizationWithRoles,
  rowNotFound,
} from '@gatehouse/schemas';
import { asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { allOf, anyOf } from '../db/conditions.ts';
import {
  organizationApplicationRoles,
  organizationApplications,
  organizationInvitationRoles,
  organizationJitEmailDomains,
  organizationJitRoles,
  organizationRoleResourceScopes,
  organizationRoleScopes,
  organizationRoles,
  organizationScopes,
  organizations,
  organizationUserRoles,
  organizationUsers,
  users,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, likePattern, tableList } from './list-query.ts';
import type { IdSet } from './organization-relations.ts';
import { assertQuota, type QuotaDeps } from './quota.ts';
import { assertAllFound, inRelation } from './relations.ts';
import { performWrite, type WriteContext } from './write-path.ts';

export type OrganizationRow = typeof organizations.$inferSelect;
export type OrganizationRoleRow = typeof organizationRoles.$inferSelect;
export type OrganizationScopeRow = typeof organizationScopes.$inferSelect;

export function toOrganization(row: OrganizationRow): Organization {
  return { ...row, createdAt: row.createdAt.getTime() };
}

export function toOrganizationRole(row: OrganizationRoleRow): OrganizationRole {
  return { ...row, type: row.type as OrganizationRoleType, createdAt: row.createdAt.getTime() };
}

export function toOrganizationScope(row: OrganizationScopeRow): OrganizationScope {
  return { ...row, createdAt: row.createdAt.getTime() };
}

/**
 * The organization of this tenant with that id, or 404: `entity.not_exists_with_id` (the reference's generic finder)
 * unless `miss` says otherwise (its PATCH answers `entity.not_exists`, its DELETE `entity.not_found`). The same for
 * organization roles and scopes below, which are the same generic routes in the reference.
 */
export async function findOrganization(tx: TenantDb, id: string, miss: Miss = notFound): Promise<OrganizationRow> {
  const row = await tx.findOne(organizations, eq(organizations.id, id));
  if (!row) throw miss();
  return row;
}

export async function findOrganizationRole(
  tx: TenantDb,
  id: string,
  miss: Miss = notFound,
): Promise<OrganizationRoleRow> {
  const row = await tx.findOne(organizationRoles, eq(organizationRoles.id, id));
  if (!row) throw miss();
  return row;
}

export async function findOrganizationScope(
  tx: TenantDb,
  id: string,
  miss: Miss = notFound,
): Promise<OrganizationScopeRow> {
  const row = await tx.findOne(organizationScopes, eq(organizationScopes.id, id));
  if (!row) throw miss();
  return row;
}

/**
 * The organization roles of `ids`: all must exist in the tenant (422 `entity.relation_foreign_key_not_found`, as the
 * reference's organization relations answer) and, when `type` is given, be of that type (422
 * `organization_role.invalid_type`: user roles go to members, machine-to-machine roles to apps).
 */
export async function findOrganizationRoles(
  tx: TenantDb,
  ids: readonly string[],
  type?: OrganizationRoleType,
): Promise<OrganizationRoleRow[]> {
  if (!ids.length) return [];
  const found = await tx.findMany(organizationRoles, { where: inArray(organizationRoles.id, [...new Set(ids)]) });
  assertAllFound(
    ids,
    found.map((role) => role.id),
    'foreign_key',
  );
  if (type) {
    const wrong = found.filter((role) => role.type !== type).map((role) => role.id);
    if (wrong.length) throw new DomainError('unprocessable', 'organization_role.invalid_type', { ids: wrong });
  }
  return found;
}

/** Role ids of role names (the reference accepts names in member role bodies); unknown names are 422 (reference). */
export async function organizationRoleIdsByName(
  tx: TenantDb,
  names: readonly string[],
  type: OrganizationRoleType,
): Promise<string[]> {
  if (!names.length) return [];
  const found = await tx.findMany(organizationRoles, { where: inArray(organizationRoles.name, [...new Set(names)]) });
  const known = new Set(found.map((role) => role.name));
  const missing = [...new Set(names)].filter((name) => !known.has(name));
  if (missing.length) throw new DomainError('unprocessable', 'organization.role_names_not_found', { names: missing });
  const wrong = found.filter((role) => role.type !== type).map((role) => role.id);
  if (wrong.length) throw new DomainError('unprocessable', 'organization_role.invalid_type', { ids: wrong });
  return found.map((role) => role.id);
}

/** `{id, name}` of the given roles, by id. */
export async function roleRefsById(tx: TenantDb, ids: readonly string[]): Promise<Map<string, NamedRef>> {
  if (!ids.length) return new Map();
  const rows = await tx.findMany(organizationRoles, { where: inArray(organizationRoles.id, [...new Set(ids)]) });
  return new Map(rows.map((row) => [row.id, { id: row.id, name: row.name }]));
}

/** Rows grouped into role references per owner (a member's or an application's roles), sorted by name. */
export async function rolesPerOwner<R>(
  tx: TenantDb,
  rows: readonly R[],
  owner: (row: R) => string,
  roleId: (row: R) => string,
): Promise<Map<string, NamedRef[]>> {
  const refs = await roleRefsById(tx, rows.map(roleId));
  const grouped = new Map<string, NamedRef[]>();
  for (const row of rows) {
    const ref = refs.get(roleId(row));
    if (!ref) continue;
    const list = grouped.get(owner(row)) ?? [];
    list.push(ref);
    grouped.set(owner(row), list);
  }
  for (const list of grouped.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  return grouped;
}

// The relation sets of organizations and the template (see organization-relations.ts).

export const membersOf = (organizationId: string): IdSet<typeof organizationUsers> => ({
  table: organizationUsers,
  owner: eq(organizationUsers.organizationId, organizationId),
  column: organizationUsers.userId,
  pick: (row) => row.userId,
  row: (userId) => ({ organizationId, userId }),
});

export const memberRolesOf = (organizationId: string, userId: string): IdSet<typeof organizationUserRoles> => ({
  table: organizationUserRoles,
  owner: allOf(eq(organizationUserRoles.organizationId, organizationId), eq(organizationUserRoles.userId, userId)),
  column: organizationUserRoles.organizationRoleId,
  pick: (row) => row.organizationRoleId,
  row: (organizationRoleId) => ({ organizationId, userId, organizationRoleId }),
});

export const applicationsOf = (organizationId: string): IdSet<typeof organizationApplications> => ({
  table: organizationApplications,
  owner: eq(organizationApplications.organizationId, organizationId),
  column: organizationApplications.applicationId,
  pick: (row) => row.applicationId,
  row: (applicationId) => ({ organizationId, applicationId }),
});

export const applicationRolesOf = (
  organizationId: string,
  applicationId: string,
): IdSet<typeof organizationApplicationRoles> => ({
  table: organizationApplicationRoles,
  owner: allOf(
    eq(organizationApplicationRoles.organizationId, organizationId),
    eq(organizationApplicationRoles.applicationId, applicationId),
  ),
  column: organizationApplicationRoles.organizationRoleId,
  pick: (row) => row.organizationRoleId,
  row: (organizationRoleId) => ({ organizationId, applicationId, organizationRoleId }),
});

export const jitEmailDomainsOf = (organizationId: string): IdSet<typeof organizationJitEmailDomains> => ({
  table: organizationJitEmailDomains,
  owner: eq(organizationJitEmailDomains.organizationId, organizationId),
  column: organizationJitEmailDomains.emailDomain,
  pick: (row) => row.emailDomain,
  row: (emailDomain) => ({ organizationId, emailDomain }),
});

export const jitRolesOf = (organizationId: string): IdSet<typeof organizationJitRoles> => ({
  table: organizationJitRoles,
  owner: eq(organizationJitRoles.organizationId, organizationId),
  column: organizationJitRoles.organizationRoleId,
  pick: (row) => row.organizationRoleId,
  row: (organizationRoleId) => ({ organizationId, organizationRoleId }),
});

export const roleScopesOf = (organizationRoleId: string): IdSet<typeof organizationRoleScopes> => ({
  table: organizationRoleScopes,
  owner: eq(organizationRoleScopes.organizationRoleId, organizationRoleId),
  column: organizationRoleScopes.organizationScopeId,
  pick: (row) => row.organizationScopeId,
  row: (organizationScopeId) => ({ organizationRoleId, organizationScopeId }),
});

export const roleResourceScopesOf = (organizationRoleId: string): IdSet<typeof organizationRoleResourceScopes> => ({
  table: organizationRoleResourceScopes,
  owner: eq(organizationRoleResourceScopes.organizationRoleId, organizationRoleId),
  column: organizationRoleResourceScopes.scopeId,
  pick: (row) => row.scopeId,
  row: (scopeId) => ({ organizationRoleId, scopeId }),
});

export const invitationRolesOf = (invitationId: string): IdSet<typeof organizationInvitationRoles> => ({
  table: organizationInvitationRoles,
  owner: eq(organizationInvitationRoles.invitationId, invitationId),
  column: organizationInvitationRoles.organizationRoleId,
  pick: (row) => row.organizationRoleId,
  row: (organizationRoleId) => ({ invitationId, organizationRoleId }),
});

/** `q` (reference) or `search` as one condition over `columns` (substring, any case; `%` is a wildcard). */
export function keywordCondition(query: { q?: string | undefined; search?: string | undefined }, columns: PgColumn[]) {
  const keyword = query.q ?? query.search;
  if (!keyword) return undefined;
  const pattern = likePattern(keyword);
  return anyOf(...columns.map((column) => ilike(column, pattern)));
}

// Organizations themselves: the list, its featured members, the organizations of a user or an application, CRUD.

const newestFirst = [desc(organizations.createdAt), desc(organizations.id)];

/** Beyond this many matches a keyword is broad: its page walks the newest-first index with the condition instead. */
const KEYWORD_CANDIDATES_CAP = 10_000;

/**
 * The condition and order of GET /organizations, newest first. A keyword's matches are found through the trigram
 * indexes by `gatehouse_organization_search` (migration 0026: as the tenant role the ILIKE could not use them) and
 * fetched by primary key, the keyword's own condition kept on them; a keyword matching more than
 * {@link KEYWORD_CANDIDATES_CAP} organizations walks the newest-first index instead, finding its page quickly.
 */
export async function organizationListQuery(
  tenant: TenantDb,
  query: { q?: string | undefined; search?: string | undefined },
): Promise<ListQuery> {
  const keyword = keywordCondition(query, [organizations.id, organizations.name]);
  const text = query.q ?? query.search;
  if (!keyword || !text) return { where: keyword, orderBy: newestFirst };
  const result = (await tenant.asTenant((db) =>
    db.execute(
      sql`select id from gatehouse_organization_search(${likePattern(text)}, ${KEYWORD_CANDIDATES_CAP + 1}) as found(id)`,
    ),
  )) as unknown as { rows: { id: string }[] };
  if (result.rows.length > KEYWORD_CANDIDATES_CAP) return { where: keyword, orderBy: newestFirst };
  const ids = result.rows.map((row) => row.id);
  return { where: allOf(sql`${organizations.id} = any(${sql.param(ids)}::varchar[])`, keyword), orderBy: newestFirst };
}

/** GET /organizations: the organizations a keyword selects, newest first. */
export async function organizationList(
  tenant: TenantDb,
  query: { q?: string | undefined; search?: string | undefined },
) {
  return tableList(tenant, organizations, await organizationListQuery(tenant, query));
}

/**
 * Member counts and up to three members of each organization of a page: one lateral query picks
 * the featured members (by id, which the primary key keeps in order) and one count per organization
 * reads only that organization's index range.
 */
export async function withFeaturedUsers(tenant: TenantDb, rows: OrganizationRow[]): Promise<OrganizationListItem[]> {
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

/** A user or a machine-to-machine application, as a member of organizations. */
export type OrganizationMemberRef = { userId: string } | { applicationId: string };

/** The condition and order of the organizations a user or an application belongs to, newest first. */
export function organizationsOfQuery(tenant: TenantDb, member: OrganizationMemberRef): ListQuery {
  const where =
    'userId' in member
      ? inRelation(
          tenant,
          organizations.id,
          organizationUsers,
          organizationUsers.organizationId,
          eq(organizationUsers.userId, member.userId),
        )
      : inRelation(
          tenant,
          organizations.id,
          organizationApplications,
          organizationApplications.organizationId,
          eq(organizationApplications.applicationId, member.applicationId),
        );
  return { where, orderBy: newestFirst };
}

/** The organizations a user or an application belongs to, newest first. */
export function organizationsOf(tenant: TenantDb, member: OrganizationMemberRef) {
  return tableList(tenant, organizations, organizationsOfQuery(tenant, member));
}

/** Organizations, each with the roles the member holds there (sorted by name). */
export async function withRolesHeld(
  tenant: TenantDb,
  member: OrganizationMemberRef,
  rows: OrganizationRow[],
): Promise<OrganizationWithRoles[]> {
  const organizationIds = rows.map((row) => row.id);
  const roleRows = !organizationIds.length
    ? []
    : 'userId' in member
      ? (
          await tenant.findMany(organizationUserRoles, {
            where: allOf(
              eq(organizationUserRoles.userId, member.userId),
              inArray(organizationUserRoles.organizationId, organizationIds),
            ),
          })
        ).map((row) => ({ organizationId: row.organizationId, roleId: row.organizationRoleId }))
      : (
          await tenant.findMany(organizationApplicationRoles, {
            where: allOf(
              eq(organizationApplicationRoles.applicationId, member.applicationId),
              inArray(organizationApplicationRoles.organizationId, organizationIds),
            ),
          })
        ).map((row) => ({ organizationId: row.organizationId, roleId: row.organizationRoleId }));
  const held = await rolesPerOwner(
    tenant,
    roleRows,
    (row) => row.organizationId,
    (row) => row.roleId,
  );
  return rows.map((row) => ({ ...toOrganization(row), organizationRoles: held.get(row.id) ?? [] }));
}

export function createOrganization(
  ctx: WriteContext,
  deps: QuotaDeps,
  input: OrganizationCreate,
): Promise<Organization> {
  return performWrite(ctx, 'Admin.Organization.Created', async (tx) => {
    await assertQuota(tx, 'organizationsLimit', deps);
    const created = toOrganization(await tx.insert(organizations, { id: generateId(), ...input }));
    return {
      result: created,
      entity: { type: 'Organization', id: created.id },
      before: null,
      after: created,
      events: [{ event: 'Organization.Created', data: created }],
    };
  });
}

export function updateOrganization(ctx: WriteContext, id: string, input: OrganizationPatch): Promise<Organization> {
  return performWrite(ctx, 'Admin.Organization.Updated', async (tx) => {
    const before = toOrganization(await findOrganization(tx, id, nothingUpdated));
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
  });
}

export function deleteOrganization(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.Organization.Deleted', async (tx) => {
    const before = toOrganization(await findOrganization(tx, id, rowNotFound));
    await tx.delete(organizations, eq(organizations.id, id));
    return {
      result: undefined,
      entity: { type: 'Organization', id },
      before,
      after: null,
      events: [{ event: 'Organization.Deleted', data: before }],
    };
  });
}
