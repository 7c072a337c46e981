import { type SQLWrapper, sql } from 'drizzle-orm';
import type { TenantDb } from '../../src/db/tenant-db.ts';

/**
 * The plan PostgreSQL makes for `query` as the data layer sends it: as the tenant role, under row-level security,
 * with sequential scans priced out so that small test tables ask whether an index can serve at all (issue 38: a plan
 * is checked, never a time).
 */
export function planAsTenant(tenant: TenantDb, query: SQLWrapper): Promise<string> {
  return tenant.transaction((tx) =>
    tx.asTenant(async (db) => {
      await db.execute(sql`set local enable_seqscan = off`);
      const result = (await db.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    }),
  );
}
