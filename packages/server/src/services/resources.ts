import {
  DomainError,
  type EntitySearchField,
  generateId,
  type Miss,
  notFound,
  nothingUpdated,
  type Resource,
  type ResourceCreate,
  type ResourcePatch,
  type ResourceWithScopes,
  rowNotFound,
  type Scope,
  type ScopeCreate,
  type ScopePatch,
  type SearchSyntaxQuery,
} from '@gatehouse/schemas';
import { and, asc, desc, eq, ilike, inArray, ne, or, type SQL } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { resources, scopes } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { isBuiltInIndicator } from './built-in-resources.ts';
import { fieldSearchCondition } from './field-search.ts';
import { type ListQuery, likePattern, tableList } from './list-query.ts';
import { assertQuota, type QuotaDeps } from './quota.ts';
import { performWrite, type WriteContext } from './write-path.ts';

type ResourceRow = typeof resources.$inferSelect;

/** The API shapes of an API resource and of a permission (scope). */
export function toResource(row: ResourceRow): Resource {
  return { ...row, createdAt: row.createdAt.getTime() };
}
export function toScope(row: typeof scopes.$inferSelect): Scope {
  return { ...row, createdAt: row.createdAt.getTime() };
}

export async function findResource(tenant: TenantDb, id: string, miss: Miss = notFound): Promise<ResourceRow> {
  const row = await tenant.findOne(resources, eq(resources.id, id));
  if (!row) throw miss();
  return row;
}

/**
 * The resource, or 404 (`miss`, the finder's by default); built-in APIs (management, me) answer 403
 * `resource.read_only` to writes.
 */
async function writableResource(tx: TenantDb, id: string, miss: Miss = notFound): Promise<ResourceRow> {
  const row = await findResource(tx, id, miss);
  if (isBuiltInIndicator(row.indicator)) throw new DomainError('forbidden', 'resource.read_only');
  return row;
}

/** The condition and order of GET /resources, newest first. */
export function resourceListQuery(filter: { search?: string | undefined }): ListQuery {
  const where = filter.search
    ? or(
        ilike(resources.id, likePattern(filter.search)),
        ilike(resources.name, likePattern(filter.search)),
        ilike(resources.indicator, likePattern(filter.search)),
      )
    : undefined;
  return { where, orderBy: [desc(resources.createdAt), desc(resources.id)] };
}

/** GET /resources: the resources a filter selects, newest first. */
export function resourceList(tenant: TenantDb, filter: { search?: string | undefined }) {
  return tableList(tenant, resources, resourceListQuery(filter));
}

/** Resources with their scopes attached, sorted by name. */
export async function withScopes(tenant: TenantDb, rows: readonly Resource[]): Promise<ResourceWithScopes[]> {
  const scopeRows = rows.length
    ? await tenant.findMany(scopes, {
        where: inArray(
          scopes.resourceId,
          rows.map((row) => row.id),
        ),
        orderBy: [asc(scopes.name)],
      })
    : [];
  return rows.map((row) => ({
    ...row,
    scopes: scopeRows.filter((scope) => scope.resourceId === row.id).map(toScope),
  }));
}

export function createResource(ctx: WriteContext, deps: QuotaDeps, input: ResourceCreate): Promise<Resource> {
  return performWrite(ctx, 'Admin.Resource.Created', async (tx) => {
    if (isBuiltInIndicator(input.indicator)) throw new DomainError('unprocessable', 'resource.reserved_indicator');
    await assertQuota(tx, 'resourcesLimit', deps);
    const created = toResource(await tx.insert(resources, { id: generateId(), ...input }));
    return { result: created, entity: { type: 'Resource', id: created.id }, before: null, after: created };
  });
}

export function updateResource(ctx: WriteContext, id: string, input: ResourcePatch): Promise<Resource> {
  return performWrite(ctx, 'Admin.Resource.Updated', async (tx) => {
    const before = toResource(await writableResource(tx, id));
    const [row] = await tx.update(resources, eq(resources.id, id), input);
    if (!row) throw notFound();
    const after = toResource(row);
    return { result: after, entity: { type: 'Resource', id }, before, after };
  });
}

/** At most one resource of a tenant is the default: setting it unsets the previous one. */
export function setDefaultResource(ctx: WriteContext, id: string, isDefault: boolean): Promise<Resource> {
  return performWrite(ctx, 'Admin.Resource.Updated', async (tx) => {
    // The reference updates without looking the resource up: an unknown one is its update miss.
    const before = toResource(await writableResource(tx, id, nothingUpdated));
    // The previous default stops being one in the same transaction (the unique index holds the rule).
    if (isDefault) {
      await tx.update(resources, allOf(eq(resources.isDefault, true), ne(resources.id, id)), { isDefault: false });
    }
    const [row] = await tx.update(resources, eq(resources.id, id), { isDefault });
    if (!row) throw nothingUpdated();
    const after = toResource(row);
    return { result: after, entity: { type: 'Resource', id }, before, after };
  });
}

export function deleteResource(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.Resource.Deleted', async (tx) => {
    const resource = toResource(await writableResource(tx, id));
    const removedScopes = (
      await tx.findMany(scopes, { where: eq(scopes.resourceId, id), orderBy: [asc(scopes.name)] })
    ).map(toScope);
    // Scopes and their role assignments go with the resource (foreign keys cascade).
    await tx.delete(resources, eq(resources.id, id));
    return {
      result: undefined,
      entity: { type: 'Resource', id },
      before: { ...resource, scopes: removedScopes },
      after: null,
      events: removedScopes.map((scope) => ({ event: 'Scope.Deleted' as const, data: scope })),
    };
  });
}

/** The condition and order of GET /resources/{id}/scopes, newest first. */
/** The scopes of a resource, newest first, with the reference's search syntax over id, name and description. */
export function scopeListQuery(resourceId: string, filter: SearchSyntaxQuery<EntitySearchField>): ListQuery {
  const conditions: SQL[] = [eq(scopes.resourceId, resourceId)];
  const search = fieldSearchCondition(filter, { id: scopes.id, name: scopes.name, description: scopes.description });
  if (search) conditions.push(search);
  return { where: and(...conditions), orderBy: [desc(scopes.createdAt), desc(scopes.id)] };
}

/** GET /resources/{id}/scopes: a resource's scopes a filter selects, newest first. */
export function scopeList(tenant: TenantDb, resourceId: string, filter: SearchSyntaxQuery<EntitySearchField>) {
  return tableList(tenant, scopes, scopeListQuery(resourceId, filter));
}

export function createScope(ctx: WriteContext, deps: QuotaDeps, resourceId: string, input: ScopeCreate) {
  return performWrite(ctx, 'Admin.Scope.Created', async (tx) => {
    await writableResource(tx, resourceId);
    await assertQuota(tx, 'scopesPerResourceLimit', deps, { parentId: resourceId });
    const created = toScope(await tx.insert(scopes, { id: generateId(), resourceId, ...input }));
    return {
      result: created,
      entity: { type: 'Scope', id: created.id },
      before: null,
      after: created,
      events: [{ event: 'Scope.Created', data: created }],
    };
  });
}

export function updateScope(ctx: WriteContext, resourceId: string, scopeId: string, input: ScopePatch) {
  return performWrite(ctx, 'Admin.Scope.Updated', async (tx) => {
    await writableResource(tx, resourceId);
    const where = allOf(eq(scopes.id, scopeId), eq(scopes.resourceId, resourceId));
    const existing = await tx.findOne(scopes, where);
    if (!existing) throw nothingUpdated();
    const [row] = await tx.update(scopes, where, input);
    if (!row) throw nothingUpdated();
    const after = toScope(row);
    return {
      result: after,
      entity: { type: 'Scope', id: scopeId },
      before: toScope(existing),
      after,
      events: [{ event: 'Scope.Data.Updated', data: after }],
    };
  });
}

export function deleteScope(ctx: WriteContext, resourceId: string, scopeId: string): Promise<void> {
  return performWrite(ctx, 'Admin.Scope.Deleted', async (tx) => {
    await writableResource(tx, resourceId);
    const [row] = await tx.delete(scopes, allOf(eq(scopes.id, scopeId), eq(scopes.resourceId, resourceId)));
    if (!row) throw rowNotFound();
    const before = toScope(row);
    return {
      result: undefined,
      entity: { type: 'Scope', id: scopeId },
      before,
      after: null,
      events: [{ event: 'Scope.Deleted', data: before }],
    };
  });
}
