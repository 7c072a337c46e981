import type { Resource, Scope } from '@gatehouse/schemas';
import type { resources, scopes } from '../db/tables.ts';

/** The API shapes of an API resource and of a permission (scope). */
export function toResource(row: typeof resources.$inferSelect): Resource {
  return { ...row, createdAt: row.createdAt.getTime() };
}
export function toScope(row: typeof scopes.$inferSelect): Scope {
  return { ...row, createdAt: row.createdAt.getTime() };
}
