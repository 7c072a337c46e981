import {
  DomainError,
  generateId,
  type NamedRef,
  nothingUpdated,
  type OrganizationRole,
  type OrganizationRoleCreate,
  type OrganizationRolePatch,
  type OrganizationRoleType,
  type OrganizationRoleWithScopes,
  rowNotFound,
} from '@gatehouse/schemas';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { managementResource } from '../auth/issuers.ts';
import {
  organizationRoleResourceScopes,
  organizationRoleScopes,
  organizationRoles,
  organizationScopes,
  resources,
  scopes,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, tableList } from './list-query.ts';
import { addIds, idsOf } from './organization-relations.ts';
import {
  findOrganizationRole,
  keywordCondition,
  type OrganizationRoleRow,
  roleResourceScopesOf,
  roleScopesOf,
  toOrganizationRole,
} from './organizations.ts';
import { assertAllFound } from './relations.ts';
import { type DomainEvent, performWrite, type WriteContext } from './write-path.ts';

/**
 * The rules of an organization role's permissions: organization scopes and API resource scopes
 * must exist in the tenant (422, as the reference's relation routes answer); a user role never gets this tenant's management API scopes
 * (422, as for roles: the tenant's issuer signs its users' organization tokens too).
 */

/** The organization scopes must exist in the tenant (422 `entity.relation_foreign_key_not_found`, data.ids). */
export async function assertOrganizationScopesExist(tx: TenantDb, ids: readonly string[]) {
  if (!ids.length) return;
  const found = await tx.findMany(organizationScopes, { where: inArray(organizationScopes.id, [...new Set(ids)]) });
  assertAllFound(
    ids,
    found.map((scope) => scope.id),
    'foreign_key',
  );
}

/** The API resource scopes must exist (422) and, for a user role, not be the management API's (422). */
export async function assertResourceScopesAllowed(tx: TenantDb, role: OrganizationRoleRow, ids: readonly string[]) {
  if (!ids.length) return;
  const found = await tx.findMany(scopes, { where: inArray(scopes.id, [...new Set(ids)]) });
  assertAllFound(
    ids,
    found.map((scope) => scope.id),
    'foreign_key',
  );
  if (role.type !== 'User') return;
  const management = await tx.findOne(resources, eq(resources.indicator, managementResource(tx.tenantId)));
  const forbidden = found.filter((scope) => scope.resourceId === management?.id).map((scope) => scope.id);
  if (forbidden.length)
    throw new DomainError('unprocessable', 'role.management_api_scope_for_user_role', { ids: forbidden });
}

export async function addOrganizationScopes(tx: TenantDb, role: OrganizationRoleRow, ids: readonly string[]) {
  await assertOrganizationScopesExist(tx, ids);
  await addIds(tx, roleScopesOf(role.id), ids, 'organization_role.scope_exists');
}

export async function addResourceScopes(tx: TenantDb, role: OrganizationRoleRow, ids: readonly string[]) {
  await assertResourceScopesAllowed(tx, role, ids);
  await addIds(tx, roleResourceScopesOf(role.id), ids, 'organization_role.resource_scope_exists');
}

/**
 * Roles with the names of their permissions, for a whole page in four queries: organization
 * scopes and resource scopes (with their API resource) by role.
 */
export async function withScopes(
  tx: TenantDb,
  roles: readonly OrganizationRoleRow[],
): Promise<OrganizationRoleWithScopes[]> {
  if (!roles.length) return [];
  const roleIds = roles.map((role) => role.id);
  const [scopeLinks, resourceLinks] = await Promise.all([
    tx.findMany(organizationRoleScopes, { where: inArray(organizationRoleScopes.organizationRoleId, roleIds) }),
    tx.findMany(organizationRoleResourceScopes, {
      where: inArray(organizationRoleResourceScopes.organizationRoleId, roleIds),
    }),
  ]);
  const scopeIds = [...new Set(scopeLinks.map((link) => link.organizationScopeId))];
  const resourceScopeIds = [...new Set(resourceLinks.map((link) => link.scopeId))];
  const [scopeRows, resourceScopeRows] = await Promise.all([
    scopeIds.length ? tx.findMany(organizationScopes, { where: inArray(organizationScopes.id, scopeIds) }) : [],
    resourceScopeIds.length ? tx.findMany(scopes, { where: inArray(scopes.id, resourceScopeIds) }) : [],
  ]);
  const resourceIds = [...new Set(resourceScopeRows.map((scope) => scope.resourceId))];
  const resourceRows = resourceIds.length
    ? await tx.findMany(resources, { where: inArray(resources.id, resourceIds) })
    : [];
  const scopeById = new Map(scopeRows.map((scope) => [scope.id, scope]));
  const resourceById = new Map(resourceRows.map((resource) => [resource.id, resource]));
  const resourceScopeById = new Map(resourceScopeRows.map((scope) => [scope.id, scope]));
  const byName = (a: NamedRef, b: NamedRef) => a.name.localeCompare(b.name);
  return roles.map((role) => ({
    ...toOrganizationRole(role),
    scopes: scopeLinks
      .filter((link) => link.organizationRoleId === role.id)
      .flatMap((link) => {
        const scope = scopeById.get(link.organizationScopeId);
        return scope ? [{ id: scope.id, name: scope.name }] : [];
      })
      .sort(byName),
    resourceScopes: resourceLinks
      .filter((link) => link.organizationRoleId === role.id)
      .flatMap((link) => {
        const scope = resourceScopeById.get(link.scopeId);
        const resource = scope && resourceById.get(scope.resourceId);
        return scope && resource
          ? [{ id: scope.id, name: scope.name, resource: { id: resource.id, name: resource.name } }]
          : [];
      })
      .sort(byName),
  }));
}

/** OrganizationRole.Scopes.Updated carries the role's permissions after the change (like Role.Scopes.Updated). */
export async function scopesUpdatedEvent(tx: TenantDb, role: OrganizationRoleRow): Promise<DomainEvent> {
  const [withNames] = await withScopes(tx, [role]);
  return {
    event: 'OrganizationRole.Scopes.Updated',
    data: {
      organizationRoleId: role.id,
      scopes: withNames?.scopes ?? [],
      resourceScopes: withNames?.resourceScopes ?? [],
    },
  };
}

/** The events of a change of an organization role's permissions (its `OrganizationRole.Scopes.Updated`). */
export async function scopesUpdatedEvents(tx: TenantDb, role: OrganizationRoleRow): Promise<DomainEvent[]> {
  return [await scopesUpdatedEvent(tx, role)];
}

/** An organization role's permissions as its audit entry shows them: both sets, whichever changed. */
export async function rolePermissionsState(tx: TenantDb, { id }: { id: string }) {
  return {
    organizationScopeIds: await idsOf(tx, roleScopesOf(id)),
    resourceScopeIds: await idsOf(tx, roleResourceScopesOf(id)),
  };
}

// The roles themselves: the list and create, update, delete.

/** The condition and order of GET /organization-roles, by name. */
export function organizationRoleListQuery(filter: {
  type?: OrganizationRoleType | undefined;
  q?: string | undefined;
  search?: string | undefined;
}): ListQuery {
  const conditions = [
    filter.type ? eq(organizationRoles.type, filter.type) : undefined,
    keywordCondition(filter, [organizationRoles.name]),
  ].filter((condition): condition is SQL => Boolean(condition));
  return { where: conditions.length ? and(...conditions) : undefined, orderBy: [asc(organizationRoles.name)] };
}

/** GET /organization-roles: the roles a filter selects, by name. */
export function organizationRoleList(tenant: TenantDb, filter: Parameters<typeof organizationRoleListQuery>[0]) {
  return tableList(tenant, organizationRoles, organizationRoleListQuery(filter));
}

/** One organization role in the shape its create answers (reference); its permissions are its relation lists. */
export async function getOrganizationRole(tenant: TenantDb, id: string): Promise<OrganizationRole> {
  return toOrganizationRole(await findOrganizationRole(tenant, id));
}

/** A new organization role with its first permissions (organization scopes and API resource scopes). */
export function createOrganizationRole(ctx: WriteContext, input: OrganizationRoleCreate): Promise<OrganizationRole> {
  return performWrite(ctx, 'Admin.OrganizationRole.Created', async (tx) => {
    const { organizationScopeIds = [], resourceScopeIds = [], ...fields } = input;
    const row = await tx.insert(organizationRoles, { id: generateId(), ...fields });
    await addOrganizationScopes(tx, row, organizationScopeIds);
    await addResourceScopes(tx, row, resourceScopeIds);
    const created = toOrganizationRole(row);
    const withPermissions = organizationScopeIds.length || resourceScopeIds.length;
    return {
      result: created,
      entity: { type: 'OrganizationRole', id: created.id },
      before: null,
      after: {
        ...created,
        organizationScopeIds: [...organizationScopeIds].sort(),
        resourceScopeIds: [...resourceScopeIds].sort(),
      },
      events: [
        { event: 'OrganizationRole.Created', data: created },
        ...(withPermissions ? [await scopesUpdatedEvent(tx, row)] : []),
      ],
    };
  });
}

export function updateOrganizationRole(
  ctx: WriteContext,
  id: string,
  input: OrganizationRolePatch,
): Promise<OrganizationRole> {
  return performWrite(ctx, 'Admin.OrganizationRole.Updated', async (tx) => {
    const before = toOrganizationRole(await findOrganizationRole(tx, id, nothingUpdated));
    // An empty patch changes nothing: no statement, no event (the audit entry shows no changes).
    if (!Object.keys(input).length)
      return { result: before, entity: { type: 'OrganizationRole', id }, before, after: before };
    const [row] = await tx.update(organizationRoles, eq(organizationRoles.id, id), input);
    if (!row) throw new Error('the organization role vanished inside its transaction');
    const after = toOrganizationRole(row);
    return {
      result: after,
      entity: { type: 'OrganizationRole', id },
      before,
      after,
      events: [{ event: 'OrganizationRole.Data.Updated', data: after }],
    };
  });
}

export function deleteOrganizationRole(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.OrganizationRole.Deleted', async (tx) => {
    const before = toOrganizationRole(await findOrganizationRole(tx, id, rowNotFound));
    await tx.delete(organizationRoles, eq(organizationRoles.id, id));
    return {
      result: undefined,
      entity: { type: 'OrganizationRole', id },
      before,
      after: null,
      events: [{ event: 'OrganizationRole.Deleted', data: before }],
    };
  });
}
