import type { ErrorCode, RoleScope, RoleUser, Scope } from '@gatehouse/schemas';
import { DomainError, notFound } from '@gatehouse/schemas';
import { asc, eq, inArray } from 'drizzle-orm';
import { managementResource } from '../auth/issuers.ts';
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
import { addIds, type IdSet } from './organization-relations.ts';
import { assertAllFound, inRelation } from './relations.ts';
import { toResource, toScope } from './resources.ts';
import type { DomainEvent } from './write-path.ts';

/**
 * The rules of role assignments (role ↔ scopes, role ↔ users, role ↔ machine-to-machine applications),
 * for both sides of each relation: ids must exist in the tenant (404), types must match (422: user roles
 * go to users, machine-to-machine roles to machine-to-machine apps), and a user role never gets this
 * tenant's management API scopes (422). Every function runs inside the caller's write transaction.
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

const typeMismatch = (code: ErrorCode, ids: string[]) => new DomainError('unprocessable', code, { ids });

/** A machine-to-machine application (404 unknown, 422 `application.invalid_type` for another type). */
export async function findMachineToMachineApplication(tx: TenantDb, id: string): Promise<ApplicationRow> {
  const application = await findApplication(tx, id);
  if (application.type !== 'MachineToMachine') throw typeMismatch('application.invalid_type', [id]);
  return application;
}

// The link rows of each side (see organization-relations.ts).

export const roleScopeLinks = (roleId: string): IdSet<typeof rolesScopes> => ({
  table: rolesScopes,
  owner: eq(rolesScopes.roleId, roleId),
  column: rolesScopes.scopeId,
  pick: (row) => row.scopeId,
  row: (scopeId) => ({ roleId, scopeId }),
});

export const roleUserLinks = (roleId: string): IdSet<typeof usersRoles> => ({
  table: usersRoles,
  owner: eq(usersRoles.roleId, roleId),
  column: usersRoles.userId,
  pick: (row) => row.userId,
  row: (userId) => ({ userId, roleId }),
});

export const userRoleLinks = (userId: string): IdSet<typeof usersRoles> => ({
  table: usersRoles,
  owner: eq(usersRoles.userId, userId),
  column: usersRoles.roleId,
  pick: (row) => row.roleId,
  row: (roleId) => ({ userId, roleId }),
});

export const roleApplicationLinks = (roleId: string): IdSet<typeof applicationsRoles> => ({
  table: applicationsRoles,
  owner: eq(applicationsRoles.roleId, roleId),
  column: applicationsRoles.applicationId,
  pick: (row) => row.applicationId,
  row: (applicationId) => ({ applicationId, roleId }),
});

export const applicationRoleLinks = (applicationId: string): IdSet<typeof applicationsRoles> => ({
  table: applicationsRoles,
  owner: eq(applicationsRoles.applicationId, applicationId),
  column: applicationsRoles.roleId,
  pick: (row) => row.roleId,
  row: (roleId) => ({ applicationId, roleId }),
});

// The checks of each side's ids (the relations' accept hooks: the ids, then the owner).

/** Scopes for a role: all must exist (404); a user role never gets this tenant's management API scopes (422). */
export async function assertScopesForRole(tx: TenantDb, scopeIds: readonly string[], role: RoleRow) {
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
}

/** Adds scopes to a role (a new role's scopes); one already there is a 422 `role.scope_exists`. */
export async function addScopesToRole(tx: TenantDb, role: RoleRow, scopeIds: readonly string[]): Promise<void> {
  await assertScopesForRole(tx, scopeIds, role);
  await addIds(tx, roleScopeLinks(role.id), scopeIds, 'role.scope_exists');
}

/** Users for a role: the role must be a user role (422), the users must exist (404 `entity.not_found`, as users). */
export async function assertUsersForRole(tx: TenantDb, userIds: readonly string[], role: RoleRow) {
  if (role.type !== 'User') throw typeMismatch('role.invalid_type', [role.id]);
  const found = await tx.findMany(users, { where: inArray(users.id, [...userIds]) });
  assertAllFound(
    userIds,
    found.map((user) => user.id),
    'row',
  );
}

/**
 * Roles for a user: all must exist (404) and be user roles (422 `user.invalid_role_type`, the reference's code on this
 * path). The reference checks only on POST; PUT checks too, since a machine-to-machine role may hold the management
 * API's scopes and would make the user an administrator of the tenant.
 */
export async function assertRolesForUser(tx: TenantDb, roleIds: readonly string[]) {
  if (!roleIds.length) return;
  const wrongType = (await findAllRoles(tx, roleIds)).filter((role) => role.type !== 'User').map((role) => role.id);
  if (wrongType.length) throw typeMismatch('user.invalid_role_type', wrongType);
}

/**
 * Machine-to-machine applications for a role: all must exist (404), both sides be machine-to-machine (422
 * `application.invalid_type`, then `role.invalid_type`: the reference does not check this side).
 */
export async function assertApplicationsForRole(tx: TenantDb, applicationIds: readonly string[], role: RoleRow) {
  const applicationRows = await findAllApplications(tx, applicationIds);
  const wrongApps = applicationRows.filter((app) => app.type !== 'MachineToMachine').map((app) => app.id);
  if (wrongApps.length) throw typeMismatch('application.invalid_type', wrongApps);
  if (role.type !== 'MachineToMachine') throw typeMismatch('role.invalid_type', [role.id]);
}

/**
 * Roles for a machine-to-machine application (the owner, checked by its finder): all must exist (404) and be
 * machine-to-machine roles (422 `application.invalid_role_type`, the reference's code on this path; on PUT as well).
 */
export async function assertRolesForApplication(tx: TenantDb, roleIds: readonly string[], app: ApplicationRow) {
  if (app.type !== 'MachineToMachine') throw typeMismatch('application.invalid_type', [app.id]);
  const wrongRoles = (await findAllRoles(tx, roleIds))
    .filter((role) => role.type !== 'MachineToMachine')
    .map((role) => role.id);
  if (wrongRoles.length) throw typeMismatch('application.invalid_role_type', wrongRoles);
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

/** Role.Scopes.Updated carries the role's scopes after the change, as the reference API's hook does. */
/** Every permission (scope) of a role, by name. */
export async function scopesOfRole(tx: TenantDb, roleId: string): Promise<Scope[]> {
  const rows = await tx.findMany(scopes, {
    where: inRelation(tx, scopes.id, rolesScopes, rolesScopes.scopeId, eq(rolesScopes.roleId, roleId)),
    orderBy: [asc(scopes.name)],
  });
  return rows.map(toScope);
}

export async function roleScopesUpdatedEvent(tx: TenantDb, roleId: string): Promise<DomainEvent> {
  return { event: 'Role.Scopes.Updated', data: { roleId, scopes: await scopesOfRole(tx, roleId) } };
}

/** Scopes with their API resource (a role's permissions); a scope whose resource is gone is left out. */
export async function withResource(tx: TenantDb, rows: readonly (typeof scopes.$inferSelect)[]): Promise<RoleScope[]> {
  const resourceIds = [...new Set(rows.map((row) => row.resourceId))];
  const owners = resourceIds.length ? await tx.findMany(resources, { where: inArray(resources.id, resourceIds) }) : [];
  const byId = new Map(owners.map((resource) => [resource.id, resource]));
  return rows.flatMap((row) => {
    const resource = byId.get(row.resourceId);
    return resource ? [{ ...toScope(row), resource: toResource(resource) }] : [];
  });
}

/** A role's user as the role's user list shows it. */
export function toRoleUser(row: typeof users.$inferSelect): RoleUser {
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
