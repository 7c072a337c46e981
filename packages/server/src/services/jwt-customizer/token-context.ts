import { eq, inArray } from 'drizzle-orm';
import {
  applications,
  organizationRoles,
  organizations,
  organizationUserRoles,
  organizationUsers,
  resources,
  roles,
  rolesScopes,
  scopes,
  users,
  usersRoles,
} from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import { toUser } from '../users.ts';

/**
 * The `context` a custom JWT script gets (docs/custom-jwt.md; the console's type definitions describe the same shape):
 * the user with their roles (and each role's permissions with its API resource), organizations and organization roles;
 * the application; the grant. Never a password hash or an application secret.
 */

export type TokenApplication = {
  id: string;
  name: string;
  description: string | null;
  type: string;
  isThirdParty: boolean;
  customData: Record<string, unknown>;
};

export async function applicationContext(tenant: TenantDb, applicationId: string): Promise<TokenApplication | null> {
  const row = await tenant.findOne(applications, eq(applications.id, applicationId));
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    isThirdParty: row.isThirdParty,
    customData: row.customData,
  };
}

async function userRolesWithScopes(tenant: TenantDb, userId: string) {
  const links = await tenant.findMany(usersRoles, { where: eq(usersRoles.userId, userId) });
  const roleIds = links.map((link) => link.roleId);
  if (roleIds.length === 0) return [];
  const [roleRows, scopeLinks] = await Promise.all([
    tenant.findMany(roles, { where: inArray(roles.id, roleIds) }),
    tenant.findMany(rolesScopes, { where: inArray(rolesScopes.roleId, roleIds) }),
  ]);
  const scopeIds = [...new Set(scopeLinks.map((link) => link.scopeId))];
  const scopeRows = scopeIds.length ? await tenant.findMany(scopes, { where: inArray(scopes.id, scopeIds) }) : [];
  const resourceIds = [...new Set(scopeRows.map((scope) => scope.resourceId))];
  const resourceRows = resourceIds.length
    ? await tenant.findMany(resources, { where: inArray(resources.id, resourceIds) })
    : [];
  const indicator = new Map(resourceRows.map((resource) => [resource.id, resource.indicator]));
  const scopeById = new Map(scopeRows.map((scope) => [scope.id, scope]));
  return roleRows
    .map((role) => ({
      id: role.id,
      name: role.name,
      description: role.description,
      scopes: scopeLinks
        .filter((link) => link.roleId === role.id)
        .flatMap((link) => {
          const scope = scopeById.get(link.scopeId);
          return scope
            ? [
                {
                  id: scope.id,
                  name: scope.name,
                  description: scope.description,
                  resourceId: scope.resourceId,
                  resource: indicator.get(scope.resourceId) ?? null,
                },
              ]
            : [];
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

async function userOrganizations(tenant: TenantDb, userId: string) {
  const [memberships, held] = await Promise.all([
    tenant.findMany(organizationUsers, { where: eq(organizationUsers.userId, userId) }),
    tenant.findMany(organizationUserRoles, { where: eq(organizationUserRoles.userId, userId) }),
  ]);
  const organizationIds = memberships.map((row) => row.organizationId);
  const roleIds = [...new Set(held.map((row) => row.organizationRoleId))];
  const [organizationRows, roleRows] = await Promise.all([
    organizationIds.length
      ? tenant.findMany(organizations, { where: inArray(organizations.id, organizationIds) })
      : Promise.resolve([]),
    roleIds.length
      ? tenant.findMany(organizationRoles, { where: inArray(organizationRoles.id, roleIds) })
      : Promise.resolve([]),
  ]);
  const roleName = new Map(roleRows.map((role) => [role.id, role.name]));
  return {
    organizations: organizationRows
      .map((row) => ({ id: row.id, name: row.name, description: row.description }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    organizationRoles: held
      .map((row) => ({
        organizationId: row.organizationId,
        roleId: row.organizationRoleId,
        roleName: roleName.get(row.organizationRoleId) ?? '',
      }))
      .sort((a, b) => `${a.organizationId}:${a.roleName}`.localeCompare(`${b.organizationId}:${b.roleName}`)),
  };
}

/** The names of a user's roles (the `roles` extended claim), sorted. */
export async function userRoleNames(tenant: TenantDb, userId: string): Promise<string[]> {
  const links = await tenant.findMany(usersRoles, { where: eq(usersRoles.userId, userId) });
  if (links.length === 0) return [];
  const rows = await tenant.findMany(roles, {
    where: inArray(
      roles.id,
      links.map((link) => link.roleId),
    ),
  });
  return rows.map((role) => role.name).sort();
}

/** A user access token's context; undefined when the user is gone. */
export async function userTokenContext(
  tenant: TenantDb,
  input: { userId: string; applicationId: string; grantType: string | undefined },
): Promise<Record<string, unknown> | undefined> {
  const row = await tenant.findOne(users, eq(users.id, input.userId));
  if (!row) return undefined;
  const [roleList, memberships, application] = await Promise.all([
    userRolesWithScopes(tenant, row.id),
    userOrganizations(tenant, row.id),
    applicationContext(tenant, input.applicationId),
  ]);
  return {
    user: { ...toUser(row), roles: roleList, ...memberships },
    application,
    grant: { type: input.grantType ?? null },
  };
}

/** A machine-to-machine token's context. */
export async function applicationTokenContext(
  tenant: TenantDb,
  input: { applicationId: string; grantType: string | undefined },
): Promise<Record<string, unknown>> {
  return {
    application: await applicationContext(tenant, input.applicationId),
    grant: { type: input.grantType ?? 'client_credentials' },
  };
}
