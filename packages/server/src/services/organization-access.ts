import { asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { allOf } from '../db/conditions.ts';
import {
  organizationApplicationRoles,
  organizationApplications,
  organizationRoleResourceScopes,
  organizationRoleScopes,
  organizationRoles,
  organizationScopes,
  organizations,
  organizationUserRoles,
  organizationUsers,
  resources,
  scopes,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { inRelation } from './relations.ts';

/**
 * What a member (a user or a machine-to-machine application) may do in an organization: the reads
 * organization tokens are built from (the `organizations` and `organization_roles` claims, and
 * the scopes of a token for organization X). Every permission comes through the member's roles.
 */

export type Member = { userId: string } | { applicationId: string };

/** `column IN (ids of the organization roles the member holds in the organization)`. */
function heldRoles(tenant: TenantDb, organizationId: string, member: Member, column: PgColumn): SQL {
  if ('userId' in member) {
    return inRelation(
      tenant,
      column,
      organizationUserRoles,
      organizationUserRoles.organizationRoleId,
      allOf(eq(organizationUserRoles.organizationId, organizationId), eq(organizationUserRoles.userId, member.userId)),
    );
  }
  return inRelation(
    tenant,
    column,
    organizationApplicationRoles,
    organizationApplicationRoles.organizationRoleId,
    allOf(
      eq(organizationApplicationRoles.organizationId, organizationId),
      eq(organizationApplicationRoles.applicationId, member.applicationId),
    ),
  );
}

/** Condition on `organization_scopes`: the organization permissions the member's roles grant. */
export function memberScopeCondition(tenant: TenantDb, organizationId: string, member: Member): SQL {
  return inRelation(
    tenant,
    organizationScopes.id,
    organizationRoleScopes,
    organizationRoleScopes.organizationScopeId,
    heldRoles(tenant, organizationId, member, organizationRoleScopes.organizationRoleId),
  );
}

/** Whether the user or application belongs to the organization. */
export async function isOrganizationMember(tenant: TenantDb, organizationId: string, member: Member) {
  const row =
    'userId' in member
      ? await tenant.findOne(
          organizationUsers,
          allOf(eq(organizationUsers.organizationId, organizationId), eq(organizationUsers.userId, member.userId)),
        )
      : await tenant.findOne(
          organizationApplications,
          allOf(
            eq(organizationApplications.organizationId, organizationId),
            eq(organizationApplications.applicationId, member.applicationId),
          ),
        );
  return Boolean(row);
}

/** The names of the organization permissions the member holds in the organization (sorted, distinct). */
export async function memberScopeNames(tenant: TenantDb, organizationId: string, member: Member): Promise<string[]> {
  const rows = await tenant.findMany(organizationScopes, {
    where: memberScopeCondition(tenant, organizationId, member),
    orderBy: [asc(organizationScopes.name)],
  });
  return rows.map((row) => row.name);
}

/**
 * The names of the permissions of the API resource `indicator` that the member's organization
 * roles grant in the organization (an organization token for that resource).
 */
export async function memberResourceScopeNames(
  tenant: TenantDb,
  organizationId: string,
  member: Member,
  indicator: string,
): Promise<string[]> {
  const rows = await tenant.findMany(scopes, {
    where: allOf(
      inRelation(
        tenant,
        scopes.id,
        organizationRoleResourceScopes,
        organizationRoleResourceScopes.scopeId,
        heldRoles(tenant, organizationId, member, organizationRoleResourceScopes.organizationRoleId),
      ),
      inRelation(tenant, scopes.resourceId, resources, resources.id, eq(resources.indicator, indicator)),
    ),
    orderBy: [asc(scopes.name)],
  });
  return [...new Set(rows.map((row) => row.name))];
}

/**
 * A user's organizations and roles for the id token and userinfo: `organizations` (ids) and
 * `organization_roles` (`<organization id>:<role name>`, spec §3). Sorted, so tokens are stable.
 */
export async function userOrganizationClaims(
  tenant: TenantDb,
  userId: string,
): Promise<{ organizations: string[]; organizationRoles: string[] }> {
  const [memberships, held] = await Promise.all([
    tenant.findMany(organizationUsers, { where: eq(organizationUsers.userId, userId) }),
    tenant.findMany(organizationUserRoles, { where: eq(organizationUserRoles.userId, userId) }),
  ]);
  const roleIds = [...new Set(held.map((row) => row.organizationRoleId))];
  const roles = roleIds.length
    ? await tenant.findMany(organizationRoles, { where: inArray(organizationRoles.id, roleIds) })
    : [];
  const names = new Map(roles.map((role) => [role.id, role.name]));
  return {
    organizations: memberships.map((row) => row.organizationId).sort(),
    organizationRoles: held
      .flatMap((row) => {
        const name = names.get(row.organizationRoleId);
        return name ? [`${row.organizationId}:${name}`] : [];
      })
      .sort(),
  };
}

/** Whether members need MFA to get tokens for the organization (`isMfaRequired`); undefined if it does not exist. */
export async function organizationRequiresMfa(tenant: TenantDb, organizationId: string) {
  const row = await tenant.findOne(organizations, eq(organizations.id, organizationId));
  return row?.isMfaRequired;
}
