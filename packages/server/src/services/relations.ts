import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TenantDb, TenantTable } from '../db/tenant-db.ts';
import { ApiError } from '../http/errors.ts';

/**
 * `column IN (SELECT pick FROM relation WHERE <tenant> AND where)`: rows linked through a relation
 * table (role ↔ user, role ↔ scope, …). The subquery is scoped to the tenant like every statement.
 */
export function inRelation(tenant: TenantDb, column: PgColumn, relation: TenantTable, pick: PgColumn, where: SQL): SQL {
  return sql`${column} in (select ${pick} from ${relation} where ${tenant.scope(relation, where)})`;
}

/** The negation of {@link inRelation}: rows not linked (the `exclude…Id` list filters). */
export function notInRelation(
  tenant: TenantDb,
  column: PgColumn,
  relation: TenantTable,
  pick: PgColumn,
  where: SQL,
): SQL {
  return sql`${column} not in (select ${pick} from ${relation} where ${tenant.scope(relation, where)})`;
}

/** 404 when some requested ids do not exist in this tenant; `data.ids` lists them. */
export function assertAllFound(requested: readonly string[], found: Iterable<string>): void {
  const known = new Set(found);
  const missing = requested.filter((id) => !known.has(id));
  if (missing.length) throw new ApiError(404, 'entity.relation_foreign_key_not_found', { ids: missing });
}
