import {
  generateId,
  nothingUpdated,
  type OrganizationScope,
  type OrganizationScopeCreate,
  type OrganizationScopePatch,
  rowNotFound,
} from '@gatehouse/schemas';
import { asc, eq } from 'drizzle-orm';
import { organizationScopes } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, tableList } from './list-query.ts';
import { findOrganizationScope, keywordCondition, toOrganizationScope } from './organizations.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/** The organization template's scopes (permissions): the list and create, update, delete. */

/** The condition and order of GET /organization-scopes, by name. */
export function organizationScopeListQuery(filter: { q?: string | undefined; search?: string | undefined }): ListQuery {
  return { where: keywordCondition(filter, [organizationScopes.name]), orderBy: [asc(organizationScopes.name)] };
}

/** GET /organization-scopes: the permissions a filter selects, by name. */
export function organizationScopeList(
  tenant: TenantDb,
  filter: { q?: string | undefined; search?: string | undefined },
) {
  return tableList(tenant, organizationScopes, organizationScopeListQuery(filter));
}

export async function getOrganizationScope(tenant: TenantDb, id: string): Promise<OrganizationScope> {
  return toOrganizationScope(await findOrganizationScope(tenant, id));
}

export function createOrganizationScope(ctx: WriteContext, input: OrganizationScopeCreate): Promise<OrganizationScope> {
  return performWrite(ctx, 'Admin.OrganizationScope.Created', async (tx) => {
    const created = toOrganizationScope(await tx.insert(organizationScopes, { id: generateId(), ...input }));
    return {
      result: created,
      entity: { type: 'OrganizationScope', id: created.id },
      before: null,
      after: created,
      events: [{ event: 'OrganizationScope.Created', data: created }],
    };
  });
}

export function updateOrganizationScope(
  ctx: WriteContext,
  id: string,
  input: OrganizationScopePatch,
): Promise<OrganizationScope> {
  return performWrite(ctx, 'Admin.OrganizationScope.Updated', async (tx) => {
    const before = toOrganizationScope(await findOrganizationScope(tx, id, nothingUpdated));
    // An empty patch changes nothing: no statement, no event (the audit entry shows no changes).
    if (!Object.keys(input).length)
      return { result: before, entity: { type: 'OrganizationScope', id }, before, after: before };
    const [row] = await tx.update(organizationScopes, eq(organizationScopes.id, id), input);
    if (!row) throw new Error('the organization scope vanished inside its transaction');
    const after = toOrganizationScope(row);
    return {
      result: after,
      entity: { type: 'OrganizationScope', id },
      before,
      after,
      events: [{ event: 'OrganizationScope.Data.Updated', data: after }],
    };
  });
}

export function deleteOrganizationScope(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.OrganizationScope.Deleted', async (tx) => {
    const before = toOrganizationScope(await findOrganizationScope(tx, id, rowNotFound));
    await tx.delete(organizationScopes, eq(organizationScopes.id, id));
    return {
      result: undefined,
      entity: { type: 'OrganizationScope', id },
      before,
      after: null,
      events: [{ event: 'OrganizationScope.Deleted', data: before }],
    };
  });
}
