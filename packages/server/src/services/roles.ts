import type { Role } from '@gatehouse/schemas';
import type { roles } from '../db/tables.ts';

/** The API shape of a role row. */
export function toRole(row: typeof roles.$inferSelect): Role {
  return { ...row, type: row.type as Role['type'], createdAt: row.createdAt.getTime() };
}
