import type { Database } from './database.ts';

/**
 * Connections that are the tenant role already (PostgreSQL: a pool of its own, db/client.ts), handed to one tenant
 * at a time: `run` names the tenant on the connection when it is not the one named last, then runs `work` on it. A
 * statement on its own is then one round trip instead of four (begin, switch, statement, commit).
 */
export type TenantConnections = {
  run<R>(tenantId: string, work: (db: Database) => Promise<R>): Promise<R>;
};
export const tenantConnectionsOf = new WeakMap<Database, TenantConnections>();

/** Tenant statements on `db` go through `connections` (db/client.ts registers its tenant pool for PostgreSQL). */
export function useTenantConnections(db: Database, connections: TenantConnections): void {
  tenantConnectionsOf.set(db, connections);
}
