import type { ErrorCode } from '@gatehouse/schemas';
import { DomainError, rowNotFound } from '@gatehouse/schemas';
import { eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { allOf } from '../db/conditions.ts';
import type { TenantDb, TenantTable } from '../db/tenant-db.ts';

/**
 * One set of ids under one owner in a relation table: an organization's members, a member's
 * organization roles, a role's permissions, an organization's JIT domains… Every organization
 * relation is read, added to, replaced and shrunk the same way, inside the caller's transaction.
 */
export type IdSet<T extends TenantTable> = {
  table: T;
  /** The owner's rows, e.g. `organization_id = X AND user_id = Y`. */
  owner: SQL;
  /** The column holding the ids of the set. */
  column: PgColumn;
  pick: (row: T['$inferSelect']) => string;
  /** The row that puts `id` into the set. */
  row: (id: string) => Omit<T['$inferInsert'], 'tenantId'>;
};

/** The ids in the set, sorted (audit before/after, answers). */
export async function idsOf<T extends TenantTable>(tx: TenantDb, set: IdSet<T>): Promise<string[]> {
  const rows = await tx.findMany(set.table, { where: set.owner });
  return rows.map(set.pick).sort();
}

/** Which of `ids` are in the set. */
export async function heldIds<T extends TenantTable>(
  tx: TenantDb,
  set: IdSet<T>,
  ids: readonly string[],
): Promise<Set<string>> {
  const rows = await tx.findMany(set.table, { where: allOf(set.owner, inArray(set.column, [...ids])) });
  return new Set(rows.map(set.pick));
}

/**
 * Adds ids to the set (an id repeated in `ids` counts once). Ids already in it answer 422 `existsCode` (data.ids)
 * and nothing is added, unless `existsCode` is omitted: then they are left as they are. Returns the ids added.
 */
export async function addIds<T extends TenantTable>(
  tx: TenantDb,
  set: IdSet<T>,
  ids: readonly string[],
  existsCode?: ErrorCode,
): Promise<string[]> {
  if (!ids.length) return [];
  const unique = [...new Set(ids)];
  const held = await heldIds(tx, set, unique);
  if (existsCode && held.size)
    throw new DomainError('conflict', existsCode, { ids: unique.filter((id) => held.has(id)) });
  const added = unique.filter((id) => !held.has(id));
  for (const id of added) await tx.insert(set.table, set.row(id));
  return added;
}

/** Makes the set exactly `ids` (repeats count once); returns what changed. */
export async function replaceIds<T extends TenantTable>(
  tx: TenantDb,
  set: IdSet<T>,
  ids: readonly string[],
): Promise<{ before: string[]; added: string[]; removed: string[] }> {
  const before = await idsOf(tx, set);
  const wanted = new Set(ids);
  const removed = before.filter((id) => !wanted.has(id));
  if (removed.length) await tx.delete(set.table, allOf(set.owner, inArray(set.column, removed)));
  const held = new Set(before);
  const added = [...wanted].filter((id) => !held.has(id));
  for (const id of added) await tx.insert(set.table, set.row(id));
  return { before, added: [...added].sort(), removed };
}

/** Takes one id out of the set; 404 `entity.not_found` when it is not in it (the reference's deletion miss). */
export async function removeId<T extends TenantTable>(tx: TenantDb, set: IdSet<T>, id: string): Promise<void> {
  const [row] = await tx.delete(set.table, allOf(set.owner, eq(set.column, id)));
  if (!row) throw rowNotFound();
}
