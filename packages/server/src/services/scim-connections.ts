import {
  type Actor,
  DomainError,
  generateId,
  notFound,
  rowNotFound,
  SCIM_REQUEST_LOG_SIZE,
  SCIM_TOKEN_PREFIX,
  SCIM_TOKEN_RANDOM_LENGTH,
  type ScimConnection,
  type ScimConnectionCreate,
  type ScimConnectionListQuery,
  type ScimConnectionPatch,
  type ScimConnectionWithToken,
  type ScimGroupMapping,
  type ScimRequest,
  scimBasePath,
  type UserScimProvisioning,
} from '@gatehouse/schemas';
import { and, asc, desc, eq, inArray, isNull, lte, max, sql } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { organizations, scimConnections, scimRequests, scimUsers, ssoConnectors, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, tableList } from './list-query.ts';
import { storedValueHash } from './stored-value-hash.ts';
import { findUser, type UserRow } from './users.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * SCIM provisioning connections (issue 45; docs/areas/scim.md): their management (the `/scim-connections` API), the
 * bearer token a directory presents (`scim_` and 40 random characters, answered once; only its SHA-256 hash is kept,
 * as for personal access tokens), the log of each connection's last requests, and the lookups other areas make (the
 * SSO sign-in's account of a provisioned user, a user's provisioning).
 */

export type ScimConnectionRow = typeof scimConnections.$inferSelect;

export const hashScimToken = storedValueHash;
const generateScimToken = () => `${SCIM_TOKEN_PREFIX}${generateId(SCIM_TOKEN_RANDOM_LENGTH)}`;

/** Where a tenant's SCIM service is: the URL a directory is configured with. */
export const scimBaseUrl = (publicUrl: string, tenantId: string) => `${publicUrl}${scimBasePath(tenantId)}`;

/** Who a connection's writes are by, in the audit log and the webhooks' `actor`. */
export const scimActor = (row: ScimConnectionRow): Actor => ({ type: 'scim', id: row.id, name: row.name });

export function toScimConnection(row: ScimConnectionRow, baseUrl: string, lastRequestAt: Date | null): ScimConnection {
  return {
    tenantId: row.tenantId,
    id: row.id,
    name: row.name,
    ssoConnectorId: row.ssoConnectorId,
    groupMapping: row.groupMapping,
    deprovision: row.deprovision,
    baseUrl,
    hasToken: row.tokenHash !== null,
    tokenCreatedAt: row.tokenCreatedAt?.getTime() ?? null,
    lastRequestAt: lastRequestAt?.getTime() ?? null,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

/** What the audit log keeps of a connection: never the token or its hash. */
const auditImage = (row: ScimConnectionRow) => ({
  id: row.id,
  name: row.name,
  ssoConnectorId: row.ssoConnectorId,
  groupMapping: row.groupMapping,
  deprovision: row.deprovision,
  hasToken: row.tokenHash !== null,
  tokenCreatedAt: row.tokenCreatedAt?.getTime() ?? null,
});
const audited = (id: string) => ({ type: 'ScimConnection', id });

/** `GET /scim-connections`: oldest first, optionally one SSO connector's. */
export function scimConnectionListQuery(query: Pick<ScimConnectionListQuery, 'ssoConnectorId'>): ListQuery {
  return {
    where: query.ssoConnectorId === undefined ? undefined : eq(scimConnections.ssoConnectorId, query.ssoConnectorId),
    orderBy: [asc(scimConnections.createdAt), asc(scimConnections.id)],
  };
}

/** `GET /scim-connections`: the connections a filter selects, oldest first. */
export function scimConnectionList(tenant: TenantDb, query: Pick<ScimConnectionListQuery, 'ssoConnectorId'>) {
  return tableList(tenant, scimConnections, scimConnectionListQuery(query));
}

/** When each connection last made a request (one statement for a page of connections). */
export async function lastRequestsOf(tenant: TenantDb, ids: readonly string[]): Promise<Map<string, Date>> {
  if (!ids.length) return new Map();
  const rows = await tenant.aggregate(
    { connectionId: scimRequests.connectionId, last: max(scimRequests.createdAt) },
    scimRequests,
    inArray(scimRequests.connectionId, [...ids]),
    [scimRequests.connectionId],
  );
  return new Map(
    rows.flatMap((row) => (row.last ? [[String(row.connectionId), new Date(row.last as string | Date)]] : [])),
  );
}

export async function findScimConnection(tenant: TenantDb, id: string): Promise<ScimConnectionRow> {
  const row = await tenant.findOne(scimConnections, eq(scimConnections.id, id));
  if (!row) throw notFound();
  return row;
}

/** A connection in its API shape, with when it last made a request. */
export async function getScimConnection(tenant: TenantDb, id: string, baseUrl: string): Promise<ScimConnection> {
  const row = await findScimConnection(tenant, id);
  return toScimConnection(row, baseUrl, (await lastRequestsOf(tenant, [id])).get(id) ?? null);
}

/** 404 `entity.relation_foreign_key_not_found` (data.ids) when the mapping names an organization the tenant lacks. */
async function assertMappingTarget(tx: TenantDb, mapping: ScimGroupMapping): Promise<void> {
  if (mapping.kind !== 'organization') return;
  const found = await tx.findOne(organizations, eq(organizations.id, mapping.organizationId));
  if (!found)
    throw new DomainError('not_found', 'entity.relation_foreign_key_not_found', { ids: [mapping.organizationId] });
}

/** A new connection for an SSO connector (one each: 422 `scim_connection.sso_connector_in_use`), with its token once. */
export async function createScimConnection(
  ctx: WriteContext,
  input: ScimConnectionCreate,
  baseUrl: string,
): Promise<ScimConnectionWithToken> {
  const token = generateScimToken();
  const row = await performWrite(ctx, 'Admin.ScimConnection.Created', async (tx) => {
    const connector = await tx.findOne(ssoConnectors, eq(ssoConnectors.id, input.ssoConnectorId));
    if (!connector)
      throw new DomainError('not_found', 'entity.relation_foreign_key_not_found', { ids: [input.ssoConnectorId] });
    if (await tx.findOne(scimConnections, eq(scimConnections.ssoConnectorId, input.ssoConnectorId))) {
      throw new DomainError('conflict', 'scim_connection.sso_connector_in_use');
    }
    const groupMapping = input.groupMapping ?? { kind: 'roles' };
    await assertMappingTarget(tx, groupMapping);
    const now = new Date();
    const created = await tx.insert(scimConnections, {
      id: generateId(),
      name: input.name,
      ssoConnectorId: input.ssoConnectorId,
      groupMapping,
      deprovision: input.deprovision ?? 'suspend',
      tokenHash: hashScimToken(token),
      tokenCreatedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    return { result: created, entity: audited(created.id), before: null, after: auditImage(created) };
  });
  return { ...toScimConnection(row, baseUrl, null), token };
}

export async function updateScimConnection(
  ctx: WriteContext,
  id: string,
  patch: ScimConnectionPatch,
  baseUrl: string,
): Promise<ScimConnection> {
  const row = await performWrite(ctx, 'Admin.ScimConnection.Updated', async (tx) => {
    const existing = await findScimConnection(tx, id);
    if (patch.groupMapping) await assertMappingTarget(tx, patch.groupMapping);
    const [updated] = await tx.update(scimConnections, eq(scimConnections.id, id), { ...patch, updatedAt: new Date() });
    if (!updated) throw notFound();
    return { result: updated, entity: audited(id), before: auditImage(existing), after: auditImage(updated) };
  });
  return toScimConnection(row, baseUrl, (await lastRequestsOf(ctx.tenant, [id])).get(id) ?? null);
}

/**
 * Deletes a connection: its token stops at once; its users and what its groups granted stay (the accounts are the
 * tenant's), they are only no longer provisioned. 404 `entity.not_found` when there is none.
 */
export function deleteScimConnection(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.ScimConnection.Deleted', async (tx) => {
    const [row] = await tx.delete(scimConnections, eq(scimConnections.id, id));
    if (!row) throw rowNotFound();
    return { result: undefined, entity: audited(id), before: auditImage(row), after: null };
  });
}

/** A new token (answered once); the previous one stops working at once. */
export async function rotateScimToken(
  ctx: WriteContext,
  id: string,
  baseUrl: string,
): Promise<ScimConnectionWithToken> {
  const token = generateScimToken();
  const row = await performWrite(ctx, 'Admin.ScimConnection.TokenRotated', async (tx) => {
    const existing = await findScimConnection(tx, id);
    const now = new Date();
    const [updated] = await tx.update(scimConnections, eq(scimConnections.id, id), {
      tokenHash: hashScimToken(token),
      tokenCreatedAt: now,
      updatedAt: now,
    });
    if (!updated) throw notFound();
    return { result: updated, entity: audited(id), before: auditImage(existing), after: auditImage(updated) };
  });
  return { ...toScimConnection(row, baseUrl, (await lastRequestsOf(ctx.tenant, [id])).get(id) ?? null), token };
}

/** Revokes the token: the directory is refused (401) until a new one is made. */
export function revokeScimToken(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.ScimConnection.TokenRevoked', async (tx) => {
    const existing = await findScimConnection(tx, id);
    const [updated] = await tx.update(scimConnections, eq(scimConnections.id, id), {
      tokenHash: null,
      tokenCreatedAt: null,
      updatedAt: new Date(),
    });
    if (!updated) throw notFound();
    return {
      result: undefined,
      entity: audited(id),
      before: auditImage(existing),
      after: auditImage(updated),
      unchanged: existing.tokenHash === null,
    };
  });
}

/** The connection whose token this is, in the tenant; undefined for anything else (revoked, rotated, foreign). */
export async function findConnectionByToken(tenant: TenantDb, token: string): Promise<ScimConnectionRow | undefined> {
  if (!token.startsWith(SCIM_TOKEN_PREFIX) || token.length > 256) return undefined;
  return tenant.findOne(scimConnections, eq(scimConnections.tokenHash, hashScimToken(token)));
}

// ——— The request log ———

/** Prune a connection's log once every this many requests (a delete per request would double their writes). */
const PRUNE_EVERY = 10;

export type ScimRequestEntry = { method: string; path: string; status: number; scimType: string | null };

/** Records a request of a connection; keeps about the last {@link SCIM_REQUEST_LOG_SIZE}. */
export async function recordScimRequest(
  tenant: TenantDb,
  connectionId: string,
  entry: ScimRequestEntry,
): Promise<void> {
  const row = await tenant.insert(scimRequests, {
    connectionId,
    method: entry.method.slice(0, 8),
    path: entry.path.slice(0, 512),
    status: entry.status,
    scimType: entry.scimType,
    createdAt: new Date(),
  });
  if (row.id % PRUNE_EVERY !== 0) return;
  const [boundary] = await tenant.findMany(scimRequests, {
    where: eq(scimRequests.connectionId, connectionId),
    orderBy: [desc(scimRequests.id)],
    limit: 1,
    offset: SCIM_REQUEST_LOG_SIZE,
  });
  if (boundary) {
    await tenant.delete(
      scimRequests,
      allOf(eq(scimRequests.connectionId, connectionId), lte(scimRequests.id, boundary.id)),
    );
  }
}

/** A connection's last requests, newest first (at most {@link SCIM_REQUEST_LOG_SIZE}). */
export async function listScimRequests(tenant: TenantDb, id: string): Promise<ScimRequest[]> {
  await findScimConnection(tenant, id);
  const rows = await tenant.findMany(scimRequests, {
    where: eq(scimRequests.connectionId, id),
    orderBy: [desc(scimRequests.id)],
    limit: SCIM_REQUEST_LOG_SIZE,
  });
  return rows.map((row) => ({
    id: String(row.id),
    method: row.method,
    path: row.path,
    status: row.status,
    scimType: row.scimType,
    createdAt: row.createdAt.getTime(),
  }));
}

// ——— What other areas ask ———

/** `GET /users/{userId}/scim`: the connection that provisioned the user, or null. */
export async function userScimProvisioning(tenant: TenantDb, userId: string): Promise<UserScimProvisioning> {
  await findUser(tenant, userId);
  const link = await tenant.findOne(scimUsers, allOf(eq(scimUsers.userId, userId), isNull(scimUsers.deletedAt)));
  const connection = link && (await tenant.findOne(scimConnections, eq(scimConnections.id, link.connectionId)));
  if (!link || !connection) return { provisioning: null };
  return {
    provisioning: {
      connectionId: connection.id,
      connectionName: connection.name,
      ssoConnectorId: connection.ssoConnectorId,
      userName: link.userName,
      externalId: link.externalId,
      createdAt: link.createdAt.getTime(),
      updatedAt: link.updatedAt.getTime(),
    },
  };
}

/**
 * The account a sign-in through an SSO connector reaches when no identity is linked yet: the user the connector's SCIM
 * connection provisioned whose userName or email is the profile's email (any case). The identity is then linked to it,
 * never a second account made.
 */
export async function scimAccountForSsoSignIn(
  tenant: TenantDb,
  ssoConnectorId: string,
  email: string,
): Promise<UserRow | undefined> {
  const connection = await tenant.findOne(scimConnections, eq(scimConnections.ssoConnectorId, ssoConnectorId));
  if (!connection) return undefined;
  const lower = email.toLowerCase();
  const [row] = await tenant.asTenant((db) =>
    db
      .select({ user: users })
      .from(scimUsers)
      .innerJoin(users, and(eq(users.tenantId, scimUsers.tenantId), eq(users.id, scimUsers.userId)))
      .where(
        allOf(
          eq(scimUsers.tenantId, tenant.tenantId),
          eq(scimUsers.connectionId, connection.id),
          isNull(scimUsers.deletedAt),
          sql`(lower(${scimUsers.userName}) = ${lower} or lower(${users.primaryEmail}) = ${lower})`,
        ),
      )
      .orderBy(asc(scimUsers.createdAt))
      .limit(1),
  );
  return row?.user;
}
