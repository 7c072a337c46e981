import { asc, eq, sql } from 'drizzle-orm';
import { organizationJitSsoConnectors, ssoConnectors } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';

/**
 * The few reads of enterprise SSO connectors that sign-in needs. Placeholder for the management API's service
 * (`services/sso-connectors.ts`): at merge these are pointed at (or replaced by) its `findSsoConnector`,
 * `ssoConnectorsForEmailDomain` and `listSsoConnectorsForSignIn`, which answer the same rows.
 */

export type SsoConnectorRow = typeof ssoConnectors.$inferSelect;

/** A connector by id, its config unsealed; undefined when the tenant has none of that id. */
export function findSsoConnector(tx: TenantDb, id: string): Promise<SsoConnectorRow | undefined> {
  return tx.findOne(ssoConnectors, eq(ssoConnectors.id, id));
}

/** The connectors whose `domains` hold this email domain (lower case), oldest first. */
export function ssoConnectorsForEmailDomain(tx: TenantDb, domain: string): Promise<SsoConnectorRow[]> {
  return tx.findMany(ssoConnectors, {
    where: sql`${ssoConnectors.domains} @> ${JSON.stringify([domain.toLowerCase()])}::jsonb`,
    orderBy: [asc(ssoConnectors.createdAt), asc(ssoConnectors.id)],
  });
}

/** The connectors a sign-in page can reach: those with at least one email domain, oldest first. */
export function listSsoConnectorsForSignIn(tx: TenantDb): Promise<SsoConnectorRow[]> {
  return tx.findMany(ssoConnectors, {
    where: sql`jsonb_array_length(${ssoConnectors.domains}) > 0`,
    orderBy: [asc(ssoConnectors.createdAt), asc(ssoConnectors.id)],
  });
}

/** The organizations that provision users of this connector just in time. */
export async function jitOrganizationIdsOfSsoConnector(tx: TenantDb, ssoConnectorId: string): Promise<string[]> {
  const rows = await tx.findMany(organizationJitSsoConnectors, {
    where: eq(organizationJitSsoConnectors.ssoConnectorId, ssoConnectorId),
  });
  return rows.map((row) => row.organizationId);
}
