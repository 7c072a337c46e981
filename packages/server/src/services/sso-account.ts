import { DomainError, generateId } from '@gatehouse/schemas';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { recordDailyActiveUser } from './daily-active-users.ts';
import { type ExternalIdentity, findUserByIdentity, type IdentityLink, linkIdentity } from './identity-linker.ts';
import { interactionEventData } from './interaction-events.ts';
import { provisionBySsoConnector } from './organization-jit.ts';
import { REGISTER_LOG_KEY } from './registration.ts';
import { scimAccountForSsoSignIn } from './scim-connections.ts';
import { SIGN_IN_LOG_KEY } from './sign-in.ts';
import type { SsoConnectorRow } from './sso-connectors.ts';
import { emailDomainOf, type SsoProfile } from './sso-sign-in.ts';
import { performWrite } from './write-path.ts';

/**
 * The account of an enterprise SSO sign-in (after `services/sso-sign-in.ts` has checked the IdP's answer): the user an
 * IdP's profile signs in to or registers, and the audit of a refused attempt.
 */

type Meta = {
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  log?: Pick<Logger, 'warn'> | undefined;
};

export type SsoSignInResult =
  | {
      ok: true;
      userId: string;
      created: boolean;
      linked: boolean;
      /** The organizations a new account joined just in time (an existing one joins when the sign-in completes). */
      organizationIds: string[];
      detail: Record<string, unknown>;
      /** What completing the sign-in changes on an existing account. */
      link?: IdentityLink;
    }
  | { ok: false; reason: 'registration_closed' | 'suspended' | 'email_domain' | 'email_taken' };

const auditEntry = (
  connector: SsoConnectorRow,
  meta: Meta,
  result: 'Success' | 'Error',
  extra: Record<string, unknown>,
) => ({
  result,
  method: 'SingleSignOn',
  ssoConnectorId: connector.id,
  ip: meta.ip,
  userAgent: meta.userAgent,
  ...extra,
});

/** A failed attempt (the IdP's answer refused, or the account refused): one `Interaction.SignIn.Submit` Error. */
export async function auditSsoFailure(
  tenant: TenantDb,
  connector: SsoConnectorRow,
  error: string,
  meta: Meta & { userId?: string | undefined },
): Promise<void> {
  await tenant.insert(logs, {
    id: generateId(),
    key: SIGN_IN_LOG_KEY,
    userId: meta.userId ?? null,
    applicationId: meta.applicationId ?? null,
    payload: auditEntry(connector, meta, 'Error', { error: error.slice(0, 500) }),
  });
}

/**
 * Finds or makes the account of an IdP's user:
 * 1. the user linked to this IdP account (`user_sso_identities`: issuer + identity id);
 * 2. else the user with the IdP's email, which must be in one of the connector's domains (the admin who set up the
 *    connector vouches for those domains) — linked from now on;
 * 3. else a new user, when registration is open, with the identity and the email (verified).
 * Without an email of the connector's domains, only an already linked account signs in. `syncProfile` refreshes the
 * name (and email) at each sign-in. The organizations that list the connector for JIT take the user in with their
 * JIT roles. A new account is audited as `Interaction.Register.Submit` (method `SingleSignOn`) with PostRegister; a
 * sign-in to an existing one is recorded by `completeSignIn` once the whole interaction has succeeded.
 */
export async function signInWithSsoProfile(
  tenant: TenantDb,
  connector: SsoConnectorRow,
  profile: SsoProfile,
  options: { registration: boolean },
  meta: Meta,
): Promise<SsoSignInResult> {
  const email = profile.email?.toLowerCase();
  const emailInDomains = email !== undefined && connector.domains.includes(emailDomainOf(email));
  const detail = { email: profile.email, name: profile.name, rawData: profile.raw };
  const identity: ExternalIdentity = {
    kind: 'sso',
    ssoConnectorId: connector.id,
    issuer: profile.issuer,
    identityId: profile.identityId,
    detail,
  };
  const byIdentity = await findUserByIdentity(tenant, identity);
  // The user the connector's SCIM connection provisioned is the account, whatever the domains say (docs/areas/scim.md).
  const byScim = !byIdentity && email ? await scimAccountForSsoSignIn(tenant, connector.id, email) : undefined;
  if (!byIdentity && !byScim && !emailInDomains) {
    await auditSsoFailure(tenant, connector, 'email_domain', meta);
    return { ok: false, reason: 'email_domain' };
  }
  const byEmail =
    !byIdentity && !byScim && email
      ? await tenant.findOne(users, sql`lower(${users.primaryEmail}) = ${email}`)
      : undefined;
  const existing = byIdentity ?? byScim ?? byEmail;

  if (existing) {
    if (existing.isSuspended) {
      await auditSsoFailure(tenant, connector, 'suspended', { ...meta, userId: existing.id });
      return { ok: false, reason: 'suspended' };
    }
    // The email follows the IdP when the connector syncs and no one else holds the address.
    const emailTaken =
      connector.syncProfile && emailInDomains && email !== existing.primaryEmail?.toLowerCase()
        ? Boolean(await tenant.findOne(users, sql`lower(${users.primaryEmail}) = ${email}`))
        : false;
    const sync = connector.syncProfile
      ? {
          name: profile.name?.slice(0, 128) ?? existing.name,
          ...(emailInDomains && !emailTaken ? { primaryEmail: profile.email, primaryEmailVerified: true } : {}),
        }
      : {};
    // Linked by email: the address is the one the connector's domains vouch for.
    const vouched = byIdentity ? {} : { primaryEmailVerified: true };
    // The first factor only: the link, the just-in-time organizations, the sign-in's entry, PostSignIn and the daily
    // active user are written by completeSignIn once every factor has passed.
    const link: IdentityLink = { identity, profile: { ...vouched, ...sync }, jitSsoConnectorId: connector.id };
    const audit = {
      ssoConnectorId: connector.id,
      issuer: profile.issuer,
      ...(byIdentity ? {} : { linkedBy: byScim ? 'scim' : 'sso_email_domain' }),
    };
    return {
      ok: true,
      userId: existing.id,
      created: false,
      linked: !byIdentity,
      organizationIds: [],
      detail: audit,
      link,
    };
  }

  if (!options.registration) {
    await auditSsoFailure(tenant, connector, 'registration_closed', meta);
    return { ok: false, reason: 'registration_closed' };
  }
  const created = await performWrite(
    { tenant, actor: { type: 'system', id: 'registration' }, ip: meta.ip, userAgent: meta.userAgent },
    REGISTER_LOG_KEY,
    async (tx) => {
      const user = await tx.insert(users, {
        id: generateId(12),
        primaryEmail: profile.email ?? null,
        primaryEmailVerified: true,
        name: profile.name?.slice(0, 128) ?? null,
        lastSignInAt: new Date(),
      });
      await linkIdentity(tx, user.id, identity);
      const jit = await provisionBySsoConnector(tx, user.id, connector.id);
      const after = {
        id: user.id,
        primaryEmail: user.primaryEmail,
        method: 'SingleSignOn',
        ssoConnectorId: connector.id,
        ...(jit.organizationIds.length ? { organizationIds: jit.organizationIds } : {}),
      };
      return {
        result: { userId: user.id, organizationIds: jit.organizationIds },
        entity: { type: 'User', id: user.id },
        before: null,
        after,
        events: [
          { event: 'PostRegister', data: await interactionEventData(tx, 'PostRegister', user, meta) },
          { event: 'User.Created', data: { id: user.id, primaryEmail: user.primaryEmail } },
          ...jit.events,
        ],
      };
    },
  ).catch(async (error: unknown) => {
    // Another sign-in made the same account a moment ago (unique email or identity): refused, nothing kept.
    if (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'unprocessable')) {
      await auditSsoFailure(tenant, connector, 'email_taken', meta);
      return undefined;
    }
    throw error;
  });
  if (!created) return { ok: false, reason: 'email_taken' };
  await recordDailyActiveUser(tenant, created.userId, meta.log);
  return {
    ok: true,
    userId: created.userId,
    created: true,
    linked: false,
    organizationIds: created.organizationIds,
    detail: { ssoConnectorId: connector.id, issuer: profile.issuer },
  };
}
