import type { UserGrant } from '@gatehouse/schemas';
import { notFound } from '@gatehouse/schemas';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { allOf, anyOf } from '../db/conditions.ts';
import { applications, oidcModelInstances } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { findUser } from './users.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * A user's grants: what they allowed each application (oidc-provider's `Grant` model, stored with the provider's other
 * models). Revoking one ends it and everything issued under it (codes, refresh tokens, opaque access tokens) in one
 * statement; the next authorization of that application asks for consent again (third party) or grants anew.
 */

type GrantPayload = {
  accountId?: string;
  clientId?: string;
  iat?: number;
  exp?: number;
  openid?: { scope?: string };
  resources?: Record<string, string>;
};

const ofUser = (userId: string) =>
  allOf(eq(oidcModelInstances.modelName, 'Grant'), sql`${oidcModelInstances.payload}->>'accountId' = ${userId}`);
const live = () => or(isNull(oidcModelInstances.expiresAt), sql`${oidcModelInstances.expiresAt} > now()`);

/**
 * The grant a user gave an application most recently, still live: what a new sign-in of the same user to the same
 * application (from another browser, after the session ended) starts from, so consent given once is remembered.
 */
export async function latestUserGrantId(
  tenant: TenantDb,
  userId: string,
  clientId: string,
): Promise<string | undefined> {
  const [row] = await tenant.findMany(oidcModelInstances, {
    where: and(ofUser(userId), sql`${oidcModelInstances.payload}->>'clientId' = ${clientId}`, live()),
    orderBy: [sql`(${oidcModelInstances.payload}->>'iat')::bigint desc`],
    limit: 1,
  });
  return row?.id;
}

export async function listUserGrants(
  tenant: TenantDb,
  userId: string,
  appType?: 'firstParty' | 'thirdParty',
): Promise<UserGrant[]> {
  await findUser(tenant, userId);
  const rows = await tenant.findMany(oidcModelInstances, { where: and(ofUser(userId), live()) });
  const clientIds = [...new Set(rows.map((row) => String((row.payload as GrantPayload).clientId ?? '')))];
  const apps =
    clientIds.length > 0 ? await tenant.findMany(applications, { where: inArray(applications.id, clientIds) }) : [];
  const appById = new Map(apps.map((app) => [app.id, app]));
  return rows
    .map((row): UserGrant => {
      const payload = row.payload as GrantPayload;
      const app = appById.get(payload.clientId ?? '');
      return {
        id: row.id,
        applicationId: payload.clientId ?? '',
        application: app ? { id: app.id, name: app.name, type: app.type, isThirdParty: app.isThirdParty } : null,
        scopes: (payload.openid?.scope ?? '').split(' ').filter(Boolean),
        resourceScopes: Object.fromEntries(
          Object.entries(payload.resources ?? {}).map(([resource, scope]) => [
            resource,
            scope.split(' ').filter(Boolean),
          ]),
        ),
        createdAt: (payload.iat ?? 0) * 1000,
        expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
      };
    })
    .filter((grant) => {
      if (!appType) return true;
      const thirdParty = grant.application?.isThirdParty ?? false;
      return appType === 'thirdParty' ? thirdParty : !thirdParty;
    })
    .sort((a, b) => b.createdAt - a.createdAt);
}

/** Revokes one grant of the user and all it issued; audited. 404 for a grant that is not the user's. */
export function revokeUserGrant(ctx: WriteContext, userId: string, grantId: string): Promise<void> {
  return performWrite(ctx, 'Admin.UserGrant.Deleted', async (tx) => {
    await findUser(tx, userId);
    const grant = await tx.findOne(oidcModelInstances, allOf(ofUser(userId), eq(oidcModelInstances.id, grantId)));
    if (!grant) throw notFound();
    await tx.delete(
      oidcModelInstances,
      anyOf(
        allOf(eq(oidcModelInstances.modelName, 'Grant'), eq(oidcModelInstances.id, grantId)),
        sql`${oidcModelInstances.payload}->>'grantId' = ${grantId}`,
      ),
    );
    const payload = grant.payload as GrantPayload;
    return {
      result: undefined,
      entity: { type: 'UserGrant', id: grantId },
      before: { userId, applicationId: payload.clientId, scope: payload.openid?.scope },
      after: null,
    };
  });
}
