import { randomBytes } from 'node:crypto';
import { DomainError, generateId, type Language, type SignInExperienceSettings } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import type { Logger } from 'pino';
import { connectors, logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { socialModule } from './connectors/registry.ts';
import type { SocialProfile } from './connectors/social.ts';
import { recordDailyActiveUser } from './daily-active-users.ts';
import { emailBlockReason } from './email-blocklist.ts';
import { type ExternalIdentity, findUserByIdentity, type IdentityLink } from './identity-linker.ts';
import { interactionEventData } from './interaction-events.ts';
import { type OutboundPolicy, outboundFetch } from './outbound.ts';
import { SIGN_IN_LOG_KEY } from './sign-in.ts';
import { readSignInExperienceSettings } from './sign-in-experience.ts';
import { readState, signState } from './signed-state.ts';
import { performWrite } from './write-path.ts';

/**
 * Social sign-in (issue 21): the sign-in page sends the user to the provider with state, nonce and PKCE kept in a
 * signed, short-lived cookie bound to the interaction; the provider comes back to one fixed callback per connector
 * (the address registered at the provider), which checks the cookie and returns the browser to its interaction; the
 * interaction then redeems the code (openid-client: PKCE, state, nonce, ID token) and finds or makes the account.
 */

export const SOCIAL_COOKIE = 'gatehouse_social';
const SOCIAL_TTL_SECONDS = 10 * 60;
const TIMEOUT_MS = 15_000;

/** What the cookie carries: which interaction and connector, and the checks of the provider's answer. */
export type SocialState = {
  tenantId: string;
  uid: string;
  connectorId: string;
  state: string;
  nonce: string;
  verifier: string;
  exp: number;
};

/** The fixed address the provider returns to (registered at the provider). */
export const socialCallbackUrl = (publicUrl: string, tenantId: string, connectorId: string) =>
  `${publicUrl}/callback/social/${encodeURIComponent(tenantId)}/${encodeURIComponent(connectorId)}`;

/** The purpose of social states, so a signed state of another kind never reads as one. */
const PURPOSE = 'social';

export const signSocialState = (tenant: TenantDb, state: SocialState): Promise<string> =>
  signState(tenant, PURPOSE, state);

/** The cookie's state when its signature is the tenant's and it has not expired; undefined otherwise. */
export const readSocialState = (tenant: TenantDb, cookie: string | undefined): Promise<SocialState | undefined> =>
  readState<SocialState>(tenant, PURPOSE, cookie);

type ConnectorRow = typeof connectors.$inferSelect;

/**
 * The social connectors a sign-in page shows: those whose target the sign-in experience lists
 * (`socialSignInConnectorTargets`), in its order, named in the page's language when the connector has that name.
 */
export async function shownSocialConnectors(
  tenant: TenantDb,
  settings: Pick<SignInExperienceSettings, 'socialSignInConnectorTargets'>,
  language: Language,
): Promise<{ connectorId: string; name: string; logo: string }[]> {
  if (settings.socialSignInConnectorTargets.length === 0) return [];
  const rows = (await tenant.findMany(connectors, { where: eq(connectors.type, 'Social') })).filter((row) =>
    socialModule(row.connectorId),
  );
  return settings.socialSignInConnectorTargets.flatMap((target) => {
    const row = rows.find((candidate) => targetOf(candidate) === target);
    const factory = row && socialModule(row.connectorId)?.factory;
    if (!row || !factory) return [];
    const names = (row.metadata.name as Record<string, string> | undefined) ?? {};
    return [
      {
        connectorId: row.id,
        name: names[language] ?? names.en ?? factory.name[language] ?? factory.name.en ?? factory.target,
        logo: (row.metadata.logo as string | undefined) ?? factory.logo,
      },
    ];
  });
}

export async function socialConnectorOf(tenant: TenantDb, connectorId: string): Promise<ConnectorRow | undefined> {
  const row = await tenant.findOne(connectors, eq(connectors.id, connectorId));
  return row && socialModule(row.connectorId) ? row : undefined;
}

const contextOf = (outbound: OutboundPolicy) => ({ fetch: outboundFetch(outbound), timeoutMs: TIMEOUT_MS });

/** The provider's authorization URL and the signed state cookie for it. */
export async function startSocialSignIn(
  tenant: TenantDb,
  connector: ConnectorRow,
  input: { uid: string; publicUrl: string; outbound: OutboundPolicy },
): Promise<{ url: URL; cookie: string }> {
  const module = socialModule(connector.connectorId);
  if (!module) throw new DomainError('not_found', 'connector.not_found');
  const verifier = client.randomPKCECodeVerifier();
  const state: SocialState = {
    tenantId: tenant.tenantId,
    uid: input.uid,
    connectorId: connector.id,
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
    verifier,
    exp: Math.floor(Date.now() / 1000) + SOCIAL_TTL_SECONDS,
  };
  const url = await module.authorizationUrl(
    connector.config,
    {
      redirectUri: socialCallbackUrl(input.publicUrl, tenant.tenantId, connector.id),
      state: state.state,
      nonce: state.nonce,
      codeChallenge: await client.calculatePKCECodeChallenge(verifier),
    },
    contextOf(input.outbound),
  );
  return { url, cookie: await signSocialState(tenant, state) };
}

/** Redeems the provider's answer (the callback URL as it arrived) into who the user is there. */
export function socialProfile(
  connector: ConnectorRow,
  state: SocialState,
  callbackUrl: URL,
  outbound: OutboundPolicy,
): Promise<SocialProfile> {
  const module = socialModule(connector.connectorId);
  if (!module) throw new DomainError('not_found', 'connector.not_found');
  return module.profile(
    connector.config,
    { callbackUrl, codeVerifier: state.verifier, state: state.state, nonce: state.nonce },
    contextOf(outbound),
  );
}

export type SocialSignInResult =
  | {
      ok: true;
      userId: string;
      created: boolean;
      linked: boolean;
      detail: Record<string, unknown>;
      /** What completing the sign-in changes on an existing account. */
      link?: IdentityLink;
    }
  | { ok: false; reason: 'registration_closed' | 'suspended' | 'taken' | 'email_blocked' };

type Meta = {
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  log?: Pick<Logger, 'warn'> | undefined;
};

/** The identity's target: the connector's metadata target, else its factory's. */
export const targetOf = (connector: ConnectorRow) =>
  (connector.metadata.target as string | undefined) ??
  socialModule(connector.connectorId)?.factory.target ??
  connector.connectorId;

/**
 * Finds or makes the account of a provider's user:
 * - the user whose identity for this target has that provider id;
 * - else, when the provider vouches for the email and one of ours has it *verified*, that user, linked from now on
 *   (account linking by verified email: neither side's word alone is enough);
 * - else a new user, when registration is open, with the identity, the email (verified if the provider says so), the
 *   name and picture.
 * `syncProfile` refreshes name and picture at every sign-in. Audited like password sign-ins and sign-ups.
 */
export async function signInWithSocialProfile(
  tenant: TenantDb,
  connector: ConnectorRow,
  profile: SocialProfile,
  options: { registration: boolean },
  meta: Meta,
): Promise<SocialSignInResult> {
  const target = targetOf(connector);
  const identity = {
    userId: profile.id,
    details: { id: profile.id, email: profile.email, name: profile.name, avatar: profile.avatar, rawData: profile.raw },
  };
  const external: ExternalIdentity = { kind: 'social', target, ...identity };
  const byIdentity = await findUserByIdentity(tenant, external);
  const byEmail =
    !byIdentity && profile.email && profile.emailVerified
      ? await tenant.findOne(
          users,
          sql`lower(${users.primaryEmail}) = ${profile.email.toLowerCase()} and ${users.primaryEmailVerified}`,
        )
      : undefined;
  const existing = byIdentity ?? byEmail;
  const entry = (result: 'Success' | 'Error', extra: Record<string, unknown>) => ({
    result,
    connectorId: connector.id,
    target,
    method: 'Social',
    ip: meta.ip,
    userAgent: meta.userAgent,
    ...extra,
  });
  if (existing) {
    if (existing.isSuspended) {
      await tenant.insert(logs, {
        id: generateId(),
        key: SIGN_IN_LOG_KEY,
        userId: existing.id,
        applicationId: meta.applicationId ?? null,
        payload: entry('Error', { error: 'suspended' }),
      });
      return { ok: false, reason: 'suspended' };
    }
    // The first factor only: the link, the sign-in's entry, PostSignIn and the daily active user are written by
    // completeSignIn once every factor has passed.
    const link: IdentityLink = {
      identity: external,
      ...(connector.syncProfile
        ? { profile: { name: profile.name ?? existing.name, avatar: profile.avatar ?? existing.avatar } }
        : {}),
    };
    const detail = { connectorId: connector.id, target, ...(byIdentity ? {} : { linkedBy: 'verified_email' }) };
    return { ok: true, userId: existing.id, created: false, linked: !byIdentity, detail, link };
  }
  if (!options.registration) return { ok: false, reason: 'registration_closed' };
  // A new account from a provider is a sign-up: its email meets the tenant's blocklist like a typed one.
  const blocked =
    profile.email && emailBlockReason(profile.email, (await readSignInExperienceSettings(tenant)).emailBlocklistPolicy);
  if (blocked) {
    await tenant.insert(logs, {
      id: generateId(),
      key: 'Interaction.Register.Submit',
      userId: null,
      applicationId: meta.applicationId ?? null,
      payload: entry('Error', { error: `email_blocked.${blocked}`, email: profile.email }),
    });
    return { ok: false, reason: 'email_blocked' };
  }
  // An address someone else holds unverified is not taken over: the new account goes without it.
  const emailFree =
    profile.email !== undefined &&
    !(await tenant.findOne(users, sql`lower(${users.primaryEmail}) = ${profile.email.toLowerCase()}`));
  const userId = await performWrite(
    { tenant, actor: { type: 'system', id: 'registration' }, ip: meta.ip, userAgent: meta.userAgent },
    'Interaction.Register.Submit',
    async (tx) => {
      const user = await tx.insert(users, {
        id: generateId(12),
        primaryEmail: emailFree ? (profile.email ?? null) : null,
        primaryEmailVerified: emailFree && profile.emailVerified,
        name: profile.name?.slice(0, 128) ?? null,
        avatar: profile.avatar && /^https?:\/\//.test(profile.avatar) ? profile.avatar.slice(0, 2048) : null,
        identities: { [target]: identity },
        lastSignInAt: new Date(),
      });
      const after = { id: user.id, primaryEmail: user.primaryEmail, identities: Object.keys(user.identities) };
      return {
        result: user.id,
        entity: { type: 'User', id: user.id },
        before: null,
        after,
        events: [
          { event: 'PostRegister', data: await interactionEventData(tx, 'PostRegister', user, meta) },
          { event: 'User.Created', data: after },
        ],
      };
    },
  );
  await recordDailyActiveUser(tenant, userId, meta.log);
  return { ok: true, userId, created: true, linked: false, detail: { connectorId: connector.id, target } };
}
