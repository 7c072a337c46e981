import type { ErrorCode } from '@gatehouse/schemas';
import { and, eq, inArray } from 'drizzle-orm';
import { managementResource } from '../auth/issuers.ts';
import { allOf } from '../db/conditions.ts';
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
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { assertAllFound } from './relations.ts';

/**
 * The rules of role assignments, shared by the roles and applications routes (both sides of the
 * same relations): ids must exist in the tenant (404), types must match (422: user roles go to
 * users, machine-to-machine roles to machine-to-machine apps), and an existing assignment is a 422.
 * Every function runs inside the caller's write transaction.
 */

export type RoleRow = typeof roles.$inferSelect;
export type ApplicationRow = typeof applications.$inferSelect;

export async function findRole(tx: TenantDb, id: string): Promise<RoleRow> {
  const role = await tx.findOne(roles, eq(roles.id, id));
  if (!role) throw notFound();
  return role;
}

export async function findApplication(tx: TenantDb, id: string): Promise<ApplicationRow> {
  const application = await tx.findOne(applications, eq(applications.id, id));
  if (!application) throw notFound();
  return application;
}

const typeMismatch = (code: ErrorCode, ids: string[]) => new ApiError(422, code, { ids });

/** Adds scopes to a role. A user role never gets scopes of this tenant's own management API. */
export async function addScopesToRole(tx: TenantDb, role: RoleRow, scopeIds: readonly string[]): Promise<void> {
  const found = await tx.findMany(scopes, { where: inArray(scopes.id, [...scopeIds]) });
  assertAllFound(
    scopeIds,
    found.map((scope) => scope.id),
  );
  if (role.type === 'User') {
    // The tenant's issuer signs user tokens too, so a user role with these scopes would make its
    // users administrators of the tenant's management API.
    const management = await tx.findOne(resources, eq(resources.indicator, managementResource(tx.tenantId)));
    const forbidden = found.filter((scope) => scope.resourceId === management?.id).map((scope) => scope.id);
    if (forbidden.length) throw typeMismatch('role.management_api_scope_for_user_role', forbidden);
  }
  const existing = await tx.findMany(rolesScopes, {
    where: allOf(eq(rolesScopes.roleId, role.id), inArray(rolesScopes.scopeId, [...scopeIds])),
  });
  if (existing.length)
    throw typeMismatch(
      'role.scope_exists',
      existing.map((row) => row.scopeId),
    );
  for (const scopeId of scopeIds) await tx.insert(rolesScopes, { roleId: role.id, scopeId });
}

/** Gives a user role to users. */
export async function addUsersToRole(tx: TenantDb, role: RoleRow, userIds: readonly string[]): Promise<void> {
  if (role.type !== 'User') throw typeMismatch('role.invalid_type', [role.id]);
  const found = await tx.findMany(users, { where: inArray(users.id, [...userIds]) });
  assertAllFound(
    userIds,
    found.map((user) => user.id),
  );
  const existing = await tx.findMany(usersRoles, {
    where: allOf(eq(usersRoles.roleId, role.id), inArray(usersRoles.userId, [...userIds])),
  });
  if (existing.length)
    throw typeMismatch(
      'role.user_exists',
      existing.map((row) => row.userId),
    );
  for (const userId of userIds) await tx.insert(usersRoles, { userId, roleId: role.id });
}

/**
 * Links machine-to-machine roles and machine-to-machine applications: every role with every
 * application. `duplicateCode` names the side the request came from.
 */
export async function linkRolesAndApplications(
  tx: TenantDb,
  links: { roles: readonly RoleRow[]; applications: readonly ApplicationRow[] },
  duplicateCode: 'role.application_exists' | 'application.role_exists',
): Promise<void> {
  const wrongApps = links.applications.filter((app) => app.type !== 'MachineToMachine').map((app) => app.id);
  if (wrongApps.length) throw typeMismatch('application.invalid_type', wrongApps);
  const wrongRoles = links.roles.filter((role) => role.type !== 'MachineToMachine').map((role) => role.id);
  if (wrongRoles.length) throw typeMismatch('role.invalid_type', wrongRoles);
  const roleIds = links.roles.map((role) => role.id);
  const applicationIds = links.applications.map((app) => app.id);
  const existing = await tx.findMany(applicationsRoles, {
    where: and(inArray(applicationsRoles.roleId, roleIds), inArray(applicationsRoles.applicationId, applicationIds)),
  });
  if (existing.length) {
    const ids = existing.map((row) => (duplicateCode === 'role.application_exists' ? row.applicationId : row.roleId));
    throw typeMismatch(duplicateCode, ids);
  }
  for (const role of links.roles) {
    for (const application of links.applications) {
      await tx.insert(applicationsRoles, { applicationId: application.id, roleId: role.id });
    }
  }
}

/** The rows of `ids`, all of which must exist (404 otherwise), in the order asked for. */
export async function findAllRoles(tx: TenantDb, ids: readonly string[]): Promise<RoleRow[]> {
  const found = await tx.findMany(roles, { where: inArray(roles.id, [...ids]) });
  assertAllFound(
    ids,
    found.map((role) => role.id),
  );
  return ids.map((id) => found.find((role) => role.id === id) as RoleRow);
}

export async function findAllApplications(tx: TenantDb, ids: readonly string[]): Promise<ApplicationRow[]> {
  const found = await tx.findMany(applications, { where: inArray(applications.id, [...ids]) });
  assertAllFound(
    ids,
    found.map((app) => app.id),
  );
  return ids.map((id) => found.find((app) => app.id === id) as ApplicationRow);
}

/** The ids of a role's scopes, sorted (audit before/after, Role.Scopes.Updated). */
export async function roleScopeIds(tx: TenantDb, roleId: string): Promise<string[]> {
  const rows = await tx.findMany(rolesScopes, { where: eq(rolesScopes.roleId, roleId) });
  return rows.map((row) => row.scopeId).sort();
}
