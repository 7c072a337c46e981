import type {
  NamedRef,
  Organization,
  OrganizationRole,
  OrganizationRoleType,
  OrganizationScope,
} from '@gatehouse/schemas';
import { eq, ilike, inArray } from 'drizzle-orm';
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
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { likePattern } from '../http/route-kit.ts';
import type { IdSet } from './organization-relations.ts';
import { assertAllFound } from './relations.ts';

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

/** The organization of this tenant with that id, or 404 `entity.not_found`. */
export async function findOrganization(tx: TenantDb, id: string): Promise<OrganizationRow> {
  const row = await tx.findOne(organizations, eq(organizations.id, id));
  if (!row) throw notFound();
  return row;
}

export async function findOrganizationRole(tx: TenantDb, id: string): Promise<OrganizationRoleRow> {
  const row = await tx.findOne(organizationRoles, eq(organizationRoles.id, id));
  if (!row) throw notFound();
  return row;
}

export async function findOrganizationScope(tx: TenantDb, id: string): Promise<OrganizationScopeRow> {
  const row = await tx.findOne(organizationScopes, eq(organizationScopes.id, id));
  if (!row) throw notFound();
  return row;
}

/**
 * The organization roles of `ids`: all must exist in the tenant (404
 * `entity.relation_foreign_key_not_found`) and, when `type` is given, be of that type (422
 * `organization_role.invalid_type`: user roles go to members, machine-to-machine roles to apps).
 */
export async function findOrganizationRoles(
  tx: TenantDb,
  ids: readonly string[],
  type?: OrganizationRoleType,
): Promise<OrganizationRoleRow[]> {
  if (!ids.length) return [];
  const found = await tx.findMany(organizationRoles, { where: inArray(organizationRoles.id, [...ids]) });
  assertAllFound(
    ids,
    found.map((role) => role.id),
  );
  if (type) {
    const wrong = found.filter((role) => role.type !== type).map((role) => role.id);
    if (wrong.length) throw new ApiError(422, 'organization_role.invalid_type', { ids: wrong });
  }
  return found;
}

/** Role ids of role names (the reference accepts names in member role bodies); unknown names are 404. */
export async function organizationRoleIdsByName(
  tx: TenantDb,
  names: readonly string[],
  type: OrganizationRoleType,
): Promise<string[]> {
  if (!names.length) return [];
  const found = await tx.findMany(organizationRoles, { where: inArray(organizationRoles.name, [...names]) });
  const known = new Set(found.map((role) => role.name));
  const missing = names.filter((name) => !known.has(name));
  if (missing.length) throw new ApiError(404, 'entity.relation_foreign_key_not_found', { names: missing });
  const wrong = found.filter((role) => role.type !== type).map((role) => role.id);
  if (wrong.length) throw new ApiError(422, 'organization_role.invalid_type', { ids: wrong });
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
