import { sql } from 'drizzle-orm';
import { oidcModelInstances } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';

/**
 * Ends everything the OIDC provider holds for a user: sessions, grants, authorization codes,
 * refresh tokens and opaque access tokens all carry the user's `accountId`. After this a refresh
 * token is refused and the next authorization asks to sign in again. Access tokens already issued
 * as JWTs stay valid until they expire; the 'me' API refuses a suspended user's token at once.
 */
export async function endUserSessions(tx: TenantDb, userId: string): Promise<number> {
  const ended = await tx.delete(oidcModelInstances, sql`${oidcModelInstances.payload}->>'accountId' = ${userId}`);
  return ended.length;
}
