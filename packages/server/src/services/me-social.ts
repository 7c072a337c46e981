import {
  DomainError,
  HANDLE_SOCIAL_PATH,
  type MeSocialConnector,
  type MeSocialIdentity,
  rowNotFound,
} from '@gatehouse/schemas';
import { and, count, eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { connectors, userMfaVerifications, userSsoIdentities, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { socialModule } from './connectors/registry.ts';
import { type ExternalIdentity, findUserByIdentity, linkIdentity } from './identity-linker.ts';
import { currentUser } from './me.ts';
import { ensureCookieKeys } from './oidc-keys.ts';
import { type OutboundPolicy, outboundFetch } from './outbound.ts';
import { readSignInExperienceSettings } from './sign-in-experience.ts';
import { readState, type StateBase, signState } from './signed-state.ts';
import { socialConnectorOf, targetOf } from './social-sign-in.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * The cloud profile's social identities (issue 42, spec §4/§7, docs/areas/me.md "Linked accounts"): a console account
 * lists the admin tenant's social connectors with its identity through each, links a provider's account through a
 * popup and unlinks one. The provider returns the popup to the console's own `/handle-social` page, which hands the
 * answer to `POST /api/me/social/link-identity`; the account is then found by that identity at sign-in, as any
 * identity the social sign-in linked.
 *
 * What the provider's answer is checked against (the state, the nonce, the PKCE verifier, the redirect URI) travels as
 * a signed, 10-minute, httpOnly cookie of the 'me' social paths, bound to the account and the connector, like the
 * sign-in's social cookie: the API keeps no table for it, and no one else's request can redeem it.
 */

export const ME_SOCIAL_COOKIE = 'gatehouse_me_social';
/** The cookie's path: only the linking routes receive it. */
export const ME_SOCIAL_COOKIE_PATH = '/api/me/social';
export const ME_SOCIAL_TTL_SECONDS = 10 * 60;
const PURPOSE = 'me-social-link';
const TIMEOUT_MS = 15_000;

type User = Awaited<ReturnType<typeof currentUser>>;
type ConnectorRow = typeof connectors.$inferSelect;

type LinkingState = StateBase & {
  userId: string;
  connectorId: string;
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
};

/** The one address a linking popup may return to: the console's `/handle-social` on the public URL. */
export const handleSocialUrl = (publicUrl: string) => `${publicUrl}/console${HANDLE_SOCIAL_PATH}`;

const contextOf = (outbound: OutboundPolicy) => ({ fetch: outboundFetch(outbound), timeoutMs: TIMEOUT_MS });

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** The account's identity under `target`, as the list shows it (the provider's id, email and name). */
function identityOf(user: User, target: string): MeSocialIdentity | null {
  const entry = user.identities[target] as { userId?: unknown; details?: Record<string, unknown> } | undefined;
  if (!entry || typeof entry.userId !== 'string') return null;
  return { userId: entry.userId, email: text(entry.details?.email), name: text(entry.details?.name) };
}

function toMeSocialConnector(row: ConnectorRow, user: User): MeSocialConnector {
  const factory = socialModule(row.connectorId)?.factory;
  const target = targetOf(row);
  const names = (row.metadata.name as Record<string, string> | undefined) ?? {};
  return {
    id: row.id,
    target,
    name: { ...(factory?.name ?? {}), ...names },
    logo: (row.metadata.logo as string | undefined) ?? factory?.logo ?? '',
    logoDark: (row.metadata.logoDark as string | null | undefined) ?? factory?.logoDark ?? null,
    identity: identityOf(user, target),
  };
}

async function socialConnectorRows(tenant: TenantDb): Promise<ConnectorRow[]> {
  const rows = await tenant.findMany(connectors, { where: eq(connectors.type, 'Social') });
  return rows
    .filter((row) => socialModule(row.connectorId))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

async function connectorOrNotFound(tenant: TenantDb, connectorId: string): Promise<ConnectorRow> {
  const connector = await socialConnectorOf(tenant, connectorId);
  if (!connector) throw new DomainError('not_found', 'connector.not_found');
  return connector;
}

/**
 * Every social connector of the admin tenant, oldest first, with the account's identity through each (null when
 * none). All of them, not only those the sign-in page offers: an identity linked through one the page does not show
 * yet starts working the day the page shows it.
 */
export async function listMySocialConnectors(tenant: TenantDb, userId: string): Promise<MeSocialConnector[]> {
  const user = await currentUser(tenant, userId);
  return (await socialConnectorRows(tenant)).map((row) => toMeSocialConnector(row, user));
}

/**
 * The provider's authorization URL for linking, and the signed cookie that checks its answer. `redirectUri` must be
 * the console's own `/handle-social` (400 `user.social_redirect_uri_not_allowed`): the provider sends the code there,
 * and nowhere else should receive it. The provider must have that address registered for the connector's client.
 */
export async function startMySocialLinking(
  tenant: TenantDb,
  userId: string,
  input: { connectorId: string; state: string; redirectUri: string },
  deps: { publicUrl: string; outbound: OutboundPolicy },
): Promise<{ redirectTo: string; cookie: string }> {
  const user = await currentUser(tenant, userId);
  if (input.redirectUri !== handleSocialUrl(deps.publicUrl)) {
    throw new DomainError('invalid', 'user.social_redirect_uri_not_allowed', {
      expected: handleSocialUrl(deps.publicUrl),
    });
  }
  const connector = await connectorOrNotFound(tenant, input.connectorId);
  const module = socialModule(connector.connectorId);
  if (!module) throw new DomainError('not_found', 'connector.not_found');
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const url = await module.authorizationUrl(
    connector.config,
    {
      redirectUri: input.redirectUri,
      state: input.state,
      nonce,
      codeChallenge: await client.calculatePKCECodeChallenge(verifier),
    },
    contextOf(deps.outbound),
  );
  // The admin tenant's provider makes its cookie keys on first use; a process that has not run it yet makes them here.
  await ensureCookieKeys(tenant);
  const cookie = await signState<LinkingState>(tenant, PURPOSE, {
    tenantId: tenant.tenantId,
    exp: Math.floor(Date.now() / 1000) + ME_SOCIAL_TTL_SECONDS,
    userId: user.id,
    connectorId: connector.id,
    state: input.state,
    nonce,
    verifier,
    redirectUri: input.redirectUri,
  });
  return { redirectTo: url.href, cookie };
}

/**
 * Redeems the provider's answer (`connectorData`: the landing page's query and its `redirectUri`) and links the
 * provider's account to this one. Refused: without this account's live linking cookie for the connector, or with
 * another state or redirect URI (400 `session.connector_session_not_found`); a provider's refusal (400 `connector.*`);
 * a provider account another account holds (422 `user.identity_already_in_use`); a second account of the same
 * provider (422 `user.identity_already_linked`: disconnect the first). Linking the account already linked refreshes
 * its details. Audited as `Account.Identity.Created`.
 */
export async function linkMySocialIdentity(
  ctx: WriteContext,
  input: { connectorId: string; connectorData: Record<string, string> },
  cookie: string | undefined,
  deps: { outbound: OutboundPolicy },
): Promise<MeSocialConnector> {
  const { tenant } = ctx;
  const user = await currentUser(tenant, ctx.actor.id);
  const { redirectUri, ...query } = input.connectorData;
  const linking = await readState<LinkingState>(tenant, PURPOSE, cookie);
  if (
    !linking ||
    linking.userId !== user.id ||
    linking.connectorId !== input.connectorId ||
    linking.redirectUri !== redirectUri ||
    linking.state !== query.state
  ) {
    throw new DomainError('invalid', 'session.connector_session_not_found');
  }
  const connector = await connectorOrNotFound(tenant, input.connectorId);
  const module = socialModule(connector.connectorId);
  if (!module) throw new DomainError('not_found', 'connector.not_found');
  const callbackUrl = new URL(linking.redirectUri);
  for (const [key, value] of Object.entries(query)) callbackUrl.searchParams.set(key, value);
  const profile = await module.profile(
    connector.config,
    { callbackUrl, codeVerifier: linking.verifier, state: linking.state, nonce: linking.nonce },
    contextOf(deps.outbound),
  );
  const target = targetOf(connector);
  const identity: ExternalIdentity = {
    kind: 'social',
    target,
    userId: profile.id,
    details: { id: profile.id, email: profile.email, name: profile.name, avatar: profile.avatar, rawData: profile.raw },
  };
  const linked = await performWrite(ctx, 'Account.Identity.Created', async (tx) => {
    // One link of a provider account at a time: two accounts racing for it cannot both get it.
    await tx.aggregate(
      {
        rows: count(),
        locked: sql`(select 1 from pg_advisory_xact_lock(hashtext(${`identity:${tx.tenantId}:${target}:${profile.id}`})))`,
      },
      users,
      sql`false`,
    );
    const holder = await findUserByIdentity(tx, identity);
    if (holder && holder.id !== user.id) throw new DomainError('conflict', 'user.identity_already_in_use');
    const before = await tx.findOne(users, eq(users.id, user.id));
    if (!before) throw rowNotFound();
    const current = identityOf(before, target);
    if (current && current.userId !== profile.id) throw new DomainError('conflict', 'user.identity_already_linked');
    await linkIdentity(tx, user.id, identity);
    const after = await tx.findOne(users, eq(users.id, user.id));
    if (!after) throw rowNotFound();
    return {
      result: after,
      entity: { type: 'User', id: user.id },
      before: { identities: Object.keys(before.identities) },
      after: { identities: Object.keys(after.identities), connectorId: connector.id, target },
    };
  });
  return toMeSocialConnector(connector, linked);
}

/**
 * Whether the account keeps a way to sign in without its identity under `target`: a password, another identity the
 * sign-in page offers, an enterprise SSO identity while SSO is on, email codes sent to its address while the sign-in
 * page takes them, or a passkey while passkeys sign in alone.
 */
async function hasAnotherWayToSignIn(tenant: TenantDb, user: User, target: string): Promise<boolean> {
  if (user.passwordEncrypted) return true;
  const settings = await readSignInExperienceSettings(tenant);
  const offered = new Set(settings.socialSignInConnectorTargets);
  const withConnector = new Set((await socialConnectorRows(tenant)).map(targetOf));
  const others = Object.keys(user.identities).filter(
    (other) => other !== target && offered.has(other) && withConnector.has(other),
  );
  if (others.length > 0) return true;
  const byEmailCode = settings.signIn.methods.some(
    (method) => method.identifier === 'email' && method.verificationCode,
  );
  if (byEmailCode && user.primaryEmail) return true;
  if (settings.singleSignOnEnabled && (await tenant.count(userSsoIdentities, eq(userSsoIdentities.userId, user.id)))) {
    return true;
  }
  return (
    settings.passkeySignIn.enabled &&
    (await tenant.count(
      userMfaVerifications,
      and(eq(userMfaVerifications.userId, user.id), eq(userMfaVerifications.type, 'WebAuthn')),
    )) > 0
  );
}

/**
 * Removes the account's identity through the connector. 404 `connector.not_found` for an unknown connector, 404
 * `user.identity_not_exist` when the account has none through it, 422 `user.last_sign_in_method` when it is the
 * account's last way to sign in (no password and nothing else the sign-in page takes): the account would be locked
 * out. Audited as `Account.Identity.Deleted`.
 */
export async function unlinkMySocialIdentity(ctx: WriteContext, connectorId: string): Promise<void> {
  const user = await currentUser(ctx.tenant, ctx.actor.id);
  const connector = await connectorOrNotFound(ctx.tenant, connectorId);
  const target = targetOf(connector);
  if (!identityOf(user, target)) throw new DomainError('not_found', 'user.identity_not_exist');
  if (!(await hasAnotherWayToSignIn(ctx.tenant, user, target)))
    throw new DomainError('unprocessable', 'user.last_sign_in_method');
  await performWrite(ctx, 'Account.Identity.Deleted', async (tx) => {
    const before = await tx.findOne(users, eq(users.id, user.id));
    if (!before) throw rowNotFound();
    const [after] = await tx.update(users, eq(users.id, user.id), {
      identities: sql`${users.identities} - ${target}::text` as unknown as Record<string, unknown>,
      updatedAt: new Date(),
    });
    if (!after) throw rowNotFound();
    return {
      result: undefined,
      entity: { type: 'User', id: user.id },
      before: { identities: Object.keys(before.identities) },
      after: { identities: Object.keys(after.identities), connectorId: connector.id, target },
    };
  });
}
