import { createHash, randomBytes } from 'node:crypto';
import {
  ADMIN_TENANT_ID,
  DomainError,
  type Edition,
  notFound,
  type SsoIdpInitiatedAuthConfig,
  type SsoIdpInitiatedAuthConfigInput,
  type SsoProviderName,
  ssoIdpInitiatedApplicationTypes,
  ssoProviderTypeOf,
} from '@gatehouse/schemas';
import { eq, inArray, lte } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { applications, oidcModelInstances, tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { OutboundPolicy } from './outbound.ts';
import { planQuota, tenantPlanId } from './quota.ts';
import { readSignInExperienceSettings } from './sign-in-experience.ts';
import { openState, type StateBase, sealState } from './signed-state.ts';
import {
  findSsoConnector,
  findSsoConnectorRow,
  type SsoConnectorRow,
  ssoIdpInitiatedConfigKey,
} from './sso-connectors.ts';
import { SsoAnswerError, type SsoProfile, samlUnsolicitedProfile } from './sso-sign-in.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * IdP-initiated SAML sign-in (docs/areas/enterprise-sso.md "IdP-initiated sign-in"; reference
 * `/sso-connectors/{id}/idp-initiated-auth-config`): an identity provider posts an unsolicited SAML Response to a
 * connector's callback, and the user lands signed in to the connector's default application.
 *
 * 1. The admin's settings, per connector, in `tenant_configs` (key `ssoIdpInitiatedConfigKey`; row-level security
 *    covers the table; deleted with the connector, in `deleteSsoConnector`).
 * 2. At the callback: the answer is checked as strictly as an SP-initiated one, and its assertion ID is taken once
 *    ({@link takeOnce}); the checked profile is kept server-side for a few minutes as a single-use ticket, and the
 *    browser gets a sealed cookie naming it, then goes to the application's IdP-initiated callback, which starts the
 *    application's own sign-in (with PKCE: Gatehouse cannot start it for the application).
 * 3. In that sign-in's interaction (auth/steps/start.ts), a ticket for this application (and connector) is taken and
 *    the user signed in with its profile exactly as after an SP-initiated SSO answer.
 */

const configKey = ssoIdpInitiatedConfigKey;

/** The cookie naming the browser's ticket; its path is the tenant's interactions. */
export const SSO_IDP_INITIATED_COOKIE = 'gatehouse_sso_idp';
export const idpInitiatedCookiePath = (tenantId: string) => `/interaction/${encodeURIComponent(tenantId)}`;
/** How long the checked answer waits for the application to start its sign-in (a few redirects, no typing). */
export const IDP_INITIATED_TICKET_TTL_SECONDS = 2 * 60;

/** `oidc_model_instances` rows of ours (model names oidc-provider never reads): used assertion IDs and tickets. */
const USED_ASSERTION = 'SsoSamlAssertionUsed';
const TICKET = 'SsoIdpInitiatedTicket';

type StoredConfig = Omit<SsoIdpInitiatedAuthConfig, 'tenantId'>;

function toAnswer(tenantId: string, stored: StoredConfig): SsoIdpInitiatedAuthConfig {
  return {
    tenantId,
    connectorId: stored.connectorId,
    defaultApplicationId: stored.defaultApplicationId,
    redirectUri: stored.redirectUri ?? null,
    authParameters: stored.authParameters ?? {},
    autoSendAuthorizationRequest: stored.autoSendAuthorizationRequest ?? false,
    clientIdpInitiatedAuthCallbackUri: stored.clientIdpInitiatedAuthCallbackUri ?? null,
    createdAt: stored.createdAt,
  };
}

/** The connector's settings, or undefined when IdP-initiated sign-in is off for it. */
export async function readIdpInitiatedAuthConfig(
  tenant: TenantDb,
  connectorId: string,
): Promise<SsoIdpInitiatedAuthConfig | undefined> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, configKey(connectorId)));
  return row ? toAnswer(tenant.tenantId, row.value as StoredConfig) : undefined;
}

/** GET: the settings; 404 `entity.not_exists_with_id` for an unknown connector or one without them. */
export async function getIdpInitiatedAuthConfig(
  tenant: TenantDb,
  connectorId: string,
): Promise<SsoIdpInitiatedAuthConfig> {
  await findSsoConnector(tenant, connectorId);
  const config = await readIdpInitiatedAuthConfig(tenant, connectorId);
  if (!config) throw notFound();
  return config;
}

const isSaml = (connector: SsoConnectorRow) => ssoProviderTypeOf[connector.providerName as SsoProviderName] === 'SAML';

/** Whether the tenant's plan has IdP-initiated SSO (cloud; the OSS edition and the admin tenant always have it). */
export async function idpInitiatedSsoInPlan(tenant: TenantDb, edition: Edition): Promise<boolean> {
  if (edition !== 'cloud' || tenant.tenantId === ADMIN_TENANT_ID) return true;
  const limit = planQuota(await tenantPlanId(tenant)).idpInitiatedSsoEnabled;
  return limit !== false && limit !== 0;
}

/** The application's registered redirect URIs (an OIDC client's metadata). */
const redirectUrisOf = (application: typeof applications.$inferSelect): string[] => {
  const uris = application.oidcClientMetadata.redirectUris;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
};

/**
 * PUT: sets the connector's settings (a SAML connector's only). The application must be a first-party traditional web
 * or single-page application of the tenant and the redirect URI one of its own. Gatehouse cannot send the
 * authorization request for the application (every request needs PKCE), so `autoSendAuthorizationRequest` must be
 * false and the application's callback is required. Cloud: the plan's `idpInitiatedSsoEnabled`. Audited on the
 * connector (`Admin.SsoConnector.Updated`, before/after `idpInitiatedAuthConfig`).
 */
export async function putIdpInitiatedAuthConfig(
  ctx: WriteContext,
  deps: { edition: Edition },
  connectorId: string,
  input: SsoIdpInitiatedAuthConfigInput,
): Promise<SsoIdpInitiatedAuthConfig> {
  const connector = await findSsoConnector(ctx.tenant, connectorId);
  if (!isSaml(connector)) throw new DomainError('invalid', 'single_sign_on.idp_initiated_authentication_not_supported');
  if (input.autoSendAuthorizationRequest) {
    throw new DomainError('invalid', 'single_sign_on.idp_initiated_authentication_auto_send_not_supported');
  }
  return performWrite(ctx, 'Admin.SsoConnector.Updated', async (tx) => {
    if (!(await idpInitiatedSsoInPlan(tx, deps.edition))) {
      throw new DomainError('quota', 'subscription.quota_exceeded', {
        quota: { idpInitiatedSsoEnabled: { limit: false, usage: 0 } },
      });
    }
    const application = await tx.findOne(applications, eq(applications.id, input.defaultApplicationId));
    if (!application) {
      throw new DomainError('unprocessable', 'entity.relation_foreign_key_not_found', {
        ids: [input.defaultApplicationId],
      });
    }
    const allowedType = (ssoIdpInitiatedApplicationTypes as readonly string[]).includes(application.type);
    if (!allowedType || application.isThirdParty) {
      throw new DomainError('invalid', 'single_sign_on.idp_initiated_authentication_invalid_application_type', {
        types: ssoIdpInitiatedApplicationTypes,
      });
    }
    const redirectUri = input.redirectUri ?? null;
    if (redirectUri !== null && !redirectUrisOf(application).includes(redirectUri)) {
      throw new DomainError('invalid', 'single_sign_on.idp_initiated_authentication_redirect_uri_not_registered', {
        redirectUri,
      });
    }
    const before = await readIdpInitiatedAuthConfig(tx, connectorId);
    const stored: StoredConfig = {
      connectorId,
      defaultApplicationId: application.id,
      redirectUri,
      authParameters: input.authParameters ?? {},
      autoSendAuthorizationRequest: false,
      clientIdpInitiatedAuthCallbackUri: input.clientIdpInitiatedAuthCallbackUri ?? null,
      createdAt: before?.createdAt ?? Date.now(),
    };
    await tx.insertIfAbsent(tenantConfigs, { key: configKey(connectorId), value: stored });
    await tx.update(tenantConfigs, eq(tenantConfigs.key, configKey(connectorId)), { value: stored });
    const after = toAnswer(tx.tenantId, stored);
    return {
      result: after,
      entity: { type: 'SsoConnector', id: connectorId },
      before: { idpInitiatedAuthConfig: before ?? null },
      after: { idpInitiatedAuthConfig: after },
    };
  });
}

/** DELETE: turns IdP-initiated sign-in off for the connector; 404 when it was not on. */
export async function deleteIdpInitiatedAuthConfig(ctx: WriteContext, connectorId: string): Promise<void> {
  await findSsoConnector(ctx.tenant, connectorId);
  await performWrite(ctx, 'Admin.SsoConnector.Updated', async (tx) => {
    const [row] = await tx.delete(tenantConfigs, eq(tenantConfigs.key, configKey(connectorId)));
    if (!row) throw notFound();
    return {
      result: undefined,
      entity: { type: 'SsoConnector', id: connectorId },
      before: { idpInitiatedAuthConfig: toAnswer(tx.tenantId, row.value as StoredConfig) },
      after: { idpInitiatedAuthConfig: null },
    };
  });
}

// ——— Single use ———

const storeId = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * Takes `key` once until `expiresAt`: true the first time, false while an earlier take is still valid. One statement
 * (insert-if-absent on the primary key), so two processes racing with the same key cannot both win; a row that has
 * expired is taken over. Kept in `oidc_model_instances` under a model name of ours: the tenant's own rows under
 * row-level security, written by every process, and durable (`failure_windows` is unlogged and closed to the tenant
 * role, and a crash forgetting used assertion IDs would reopen them to replay).
 */
async function takeOnce(tenant: TenantDb, modelName: string, key: string, expiresAt: Date): Promise<boolean> {
  const id = storeId(key);
  const inserted = await tenant.asTenant((db) =>
    db
      .insert(oidcModelInstances)
      .values({ tenantId: tenant.tenantId, modelName, id, payload: {}, expiresAt })
      .onConflictDoNothing()
      .returning({ id: oidcModelInstances.id }),
  );
  if (inserted.length > 0) return true;
  const now = new Date();
  const [retaken] = await tenant.update(
    oidcModelInstances,
    allOf(
      eq(oidcModelInstances.modelName, modelName),
      eq(oidcModelInstances.id, id),
      lte(oidcModelInstances.expiresAt, now),
    ),
    { expiresAt, payload: {}, consumedAt: null },
  );
  return Boolean(retaken);
}

/** Expired rows of ours go (there is no other sweep of `oidc_model_instances`). */
const pruneExpired = (tenant: TenantDb) =>
  tenant.delete(
    oidcModelInstances,
    allOf(
      inArray(oidcModelInstances.modelName, [USED_ASSERTION, TICKET]),
      lte(oidcModelInstances.expiresAt, new Date()),
    ),
  );

// ——— At the callback ———

/** What the cookie holds (sealed): which ticket, for which connector, application and redirect URI. */
type TicketCookie = StateBase & {
  ticketId: string;
  connectorId: string;
  applicationId: string;
  redirectUri: string | null;
};

export type IdpInitiatedAnswer =
  | { ok: true; cookie: string; continueTo: string; applicationId: string }
  | { ok: false; reason: string; applicationId?: string | undefined };

/**
 * An unsolicited SAML Response at a connector's callback: refused (with the reason, for the audit log) unless the
 * connector has IdP-initiated sign-in on, the plan has it, the sign-in experience offers SSO, the answer passes every
 * check of `samlUnsolicitedProfile` and its assertion was not used before. Then the profile waits as a ticket, and
 * the answer says which cookie to set and where the browser goes: the application's IdP-initiated callback with
 * the settings' `authParameters` and `ssoConnectorId`, where the application starts its own sign-in.
 */
export async function acceptIdpInitiatedAnswer(
  tenant: TenantDb,
  connector: SsoConnectorRow,
  samlResponse: string,
  deps: { publicUrl: string; outbound: OutboundPolicy; edition: Edition },
): Promise<IdpInitiatedAnswer> {
  const config = await readIdpInitiatedAuthConfig(tenant, connector.id);
  if (!config || !isSaml(connector)) return { ok: false, reason: 'idp_initiated_not_enabled' };
  const applicationId = config.defaultApplicationId;
  if (!(await idpInitiatedSsoInPlan(tenant, deps.edition))) {
    return { ok: false, reason: 'idp_initiated_not_in_plan', applicationId };
  }
  if (!(await readSignInExperienceSettings(tenant)).singleSignOnEnabled) {
    return { ok: false, reason: 'sso_disabled', applicationId };
  }
  if (!config.clientIdpInitiatedAuthCallbackUri) return { ok: false, reason: 'no_client_callback', applicationId };
  let checked: Awaited<ReturnType<typeof samlUnsolicitedProfile>>;
  try {
    checked = await samlUnsolicitedProfile(tenant, connector, samlResponse, deps);
  } catch (error) {
    if (!(error instanceof SsoAnswerError)) throw error;
    return { ok: false, reason: error.message, applicationId };
  }
  const assertionKey = `${connector.id}\n${checked.assertionId}`;
  if (!(await takeOnce(tenant, USED_ASSERTION, assertionKey, new Date(checked.validUntil)))) {
    return { ok: false, reason: 'assertion already used', applicationId };
  }
  await pruneExpired(tenant);
  const exp = Math.floor(Date.now() / 1000) + IDP_INITIATED_TICKET_TTL_SECONDS;
  const ticketId = randomBytes(24).toString('base64url');
  await tenant.insert(oidcModelInstances, {
    modelName: TICKET,
    id: storeId(ticketId),
    payload: { connectorId: connector.id, applicationId, profile: checked.profile },
    expiresAt: new Date(exp * 1000),
  });
  const cookie = await sealState<TicketCookie>(tenant, 'sso-idp-initiated', {
    tenantId: tenant.tenantId,
    exp,
    ticketId,
    connectorId: connector.id,
    applicationId,
    redirectUri: config.redirectUri,
  });
  const target = new URL(config.clientIdpInitiatedAuthCallbackUri);
  // The admin's extra parameters go along for the application's own authorization request.
  for (const [name, value] of Object.entries(config.authParameters)) target.searchParams.set(name, value);
  target.searchParams.set('ssoConnectorId', connector.id);
  return { ok: true, cookie, continueTo: target.href, applicationId };
}

// ——— In the interaction ———

/** The authorization request an interaction is for. */
export type InteractionRequest = { clientId: string; redirectUri: string | undefined; directSignIn: string };

export type IdpInitiatedTicket =
  /** A ticket for this request, taken (single use): sign the user in with its profile. */
  | { kind: 'taken'; connector: SsoConnectorRow; profile: SsoProfile }
  /** A ticket for another application or connector: left for that sign-in. */
  | { kind: 'other' }
  /** No ticket, or one that can no longer be used: the cookie should go. */
  | { kind: 'none' };

/**
 * The browser's ticket (its cookie) for an interaction: taken when it is this tenant's, unexpired, for the request's
 * client (and redirect URI, when the settings name one), and — when the request asks `direct_sign_in` — for
 * `sso:{the ticket's connector}`; while the connector still has IdP-initiated sign-in on for that application. Taking
 * deletes the ticket in one statement, so it signs in once.
 */
export async function takeIdpInitiatedTicket(
  tenant: TenantDb,
  cookie: string | undefined,
  request: InteractionRequest,
): Promise<IdpInitiatedTicket> {
  if (!cookie) return { kind: 'none' };
  const state = await openState<TicketCookie>(tenant, 'sso-idp-initiated', cookie);
  if (!state) return { kind: 'none' };
  const forThisRequest =
    state.applicationId === request.clientId &&
    (state.redirectUri === null || state.redirectUri === request.redirectUri) &&
    (request.directSignIn === '' || request.directSignIn === `sso:${state.connectorId}`);
  if (!forThisRequest) return { kind: 'other' };
  const config = await readIdpInitiatedAuthConfig(tenant, state.connectorId);
  const connector = config && (await findSsoConnectorRow(tenant, state.connectorId));
  const [row] = await tenant.delete(
    oidcModelInstances,
    allOf(eq(oidcModelInstances.modelName, TICKET), eq(oidcModelInstances.id, storeId(state.ticketId))),
  );
  if (!row?.expiresAt || row.expiresAt.getTime() <= Date.now()) return { kind: 'none' };
  if (!config || !connector || config.defaultApplicationId !== state.applicationId) return { kind: 'none' };
  const payload = row.payload as { connectorId?: string; applicationId?: string; profile?: SsoProfile };
  if (payload.connectorId !== state.connectorId || payload.applicationId !== state.applicationId || !payload.profile) {
    return { kind: 'none' };
  }
  return { kind: 'taken', connector, profile: payload.profile };
}
