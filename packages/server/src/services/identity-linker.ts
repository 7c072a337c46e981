import { generateId } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import { outbox, userSsoIdentities, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { provisionBySsoConnector } from './organization-jit.ts';

/**
 * Accounts of other identity providers (social connectors and enterprise SSO) and the users they belong to: the one
 * place that finds a user by such an account and links one to a user.
 *
 * A sign-in through another provider to an existing account changes that account (links the provider's account,
 * refreshes the profile, provisions organizations just in time). Those changes are an {@link IdentityLink}, worked
 * out by the first factor and applied by `completeSignIn` only when the whole interaction has succeeded: a provider
 * account that claims a user's email must not stay linked to that user when the user's MFA then refuses it.
 */

/** A provider's account: a social connector's user id under its target, or an SSO IdP's issuer and subject. */
export type ExternalIdentity =
  | { kind: 'social'; target: string; userId: string; details: Record<string, unknown> }
  | { kind: 'sso'; ssoConnectorId: string; issuer: string; identityId: string; detail: Record<string, unknown> };

/** What a sign-in through a provider changes on the existing account it signs in to (plain JSON: kept in the interaction). */
export type IdentityLink = {
  identity: ExternalIdentity;
  /** Profile fields the provider refreshes (the connector's `syncProfile`) or vouches for (a verified email). */
  profile?: {
    name?: string | null;
    avatar?: string | null;
    primaryEmail?: string | null;
    primaryEmailVerified?: boolean;
  };
  /** SSO: the organizations that list this connector for just-in-time membership take the user in. */
  jitSsoConnectorId?: string;
};

/** The user an external identity is linked to, if any. */
export async function findUserByIdentity(tenant: TenantDb, identity: ExternalIdentity) {
  if (identity.kind === 'social') {
    return tenant.findOne(users, sql`${users.identities}->${identity.target}->>'userId' = ${identity.userId}`);
  }
  const linked = await tenant.findOne(
    userSsoIdentities,
    sql`${userSsoIdentities.issuer} = ${identity.issuer} and ${userSsoIdentities.identityId} = ${identity.identityId}`,
  );
  return linked ? tenant.findOne(users, eq(users.id, linked.userId)) : undefined;
}

/**
 * Links the identity to the user: a social account under its target in `users.identities`; an SSO account in
 * `user_sso_identities` (one per connector and user; an account already linked keeps its row, refreshed).
 */
export async function linkIdentity(tx: TenantDb, userId: string, identity: ExternalIdentity): Promise<void> {
  if (identity.kind === 'social') {
    await tx.update(users, eq(users.id, userId), {
      identities: sql`${users.identities} || jsonb_build_object(${identity.target}::text, ${JSON.stringify({
        userId: identity.userId,
        details: identity.details,
      })}::jsonb)` as unknown as Record<string, unknown>,
    });
    return;
  }
  const values = {
    issuer: identity.issuer,
    identityId: identity.identityId,
    detail: identity.detail,
    updatedAt: new Date(),
  };
  const linked = await tx.findOne(
    userSsoIdentities,
    sql`${userSsoIdentities.issuer} = ${identity.issuer} and ${userSsoIdentities.identityId} = ${identity.identityId}`,
  );
  if (linked) {
    await tx.update(userSsoIdentities, eq(userSsoIdentities.id, linked.id), {
      detail: identity.detail,
      updatedAt: values.updatedAt,
    });
    return;
  }
  const current = await tx.findOne(
    userSsoIdentities,
    sql`${userSsoIdentities.userId} = ${userId} and ${userSsoIdentities.ssoConnectorId} = ${identity.ssoConnectorId}`,
  );
  if (current) await tx.update(userSsoIdentities, eq(userSsoIdentities.id, current.id), values);
  else {
    await tx.insert(userSsoIdentities, {
      id: generateId(),
      userId,
      ssoConnectorId: identity.ssoConnectorId,
      ...values,
    });
  }
}

/**
 * Applies a sign-in's link to the account, in the caller's transaction (completeSignIn's): profile, identity, and the
 * just-in-time organizations with their events. Answers what the audit entry says of it.
 */
export async function applyIdentityLink(
  tx: TenantDb,
  userId: string,
  link: IdentityLink,
): Promise<{ organizationIds: string[] }> {
  const profile = Object.fromEntries(Object.entries(link.profile ?? {}).filter(([, value]) => value !== undefined));
  if (Object.keys(profile).length > 0) await tx.update(users, eq(users.id, userId), profile);
  await linkIdentity(tx, userId, link.identity);
  if (!link.jitSsoConnectorId) return { organizationIds: [] };
  const jit = await provisionBySsoConnector(tx, userId, link.jitSsoConnectorId);
  const createdAt = Date.now();
  for (const { event, data } of jit.events) {
    await tx.insert(outbox, { event, payload: { event, data, actor: { type: 'user', id: userId }, createdAt } });
  }
  return { organizationIds: jit.organizationIds };
}
