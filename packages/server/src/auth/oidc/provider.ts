import {
  ADMIN_TENANT_ID,
  type ExtendedIdTokenClaim,
  extendedIdTokenClaims,
  type JwtCustomizerTokenType,
  ORGANIZATION_ROLES_SCOPE,
  ORGANIZATIONS_SCOPE,
} from '@gatehouse/schemas';
import { and, eq, inArray } from 'drizzle-orm';
import Provider, { type Configuration, type ErrorOut, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { ChangeNotices } from '../../db/change-notices.ts';
import type { Database } from '../../db/database.ts';
import { tenantConfigs, tenants, users } from '../../db/tables.ts';
import type { TenantDb, TenantDbs } from '../../db/tenant-db.ts';
import { negotiateLanguage, uiLocalesLanguage } from '../../i18n/messages.ts';
import { recordActivityOnTokenGrants } from '../../services/daily-active-users.ts';
import { ScriptSandbox } from '../../services/jwt-customizer/sandbox.ts';
import { userRoleNames } from '../../services/jwt-customizer/token-context.ts';
import { readTokenSettings, type TokenSettings, tokenSettingsKeys } from '../../services/jwt-customizer.ts';
import { COOKIE_KEYS, newCookieKey, parseCookieKeys, serializeCookieKeys } from '../../services/oidc-keys.ts';
import { OIDC_SESSION_KEY, readOidcSessionConfig } from '../../services/oidc-session-config.ts';
import { userOrganizationClaims } from '../../services/organization-access.ts';
import { readSignInExperienceSettings } from '../../services/sign-in-experience.ts';
import { countTokensOnGrants, TokenUsageCounter } from '../../services/subscriptions.ts';
import { formActionSource, withFormActionSource } from '../../shared/form-action.ts';
import { issuerUrl } from '../issuers.ts';
import { productLook } from '../sign-in-look.ts';
import { renderLogoutPage, renderMessagePage, renderRequestErrorPage } from '../sign-in-page.ts';
import { stylesheetVersion } from '../sign-in-theme.ts';
import {
  type JwsAlgorithm,
  jwsAlgorithmOf,
  KEY_SET_VERSION,
  SIGNING_ALGORITHM,
  type SigningKeyStore,
} from '../signing-keys.ts';
import { tenantLook } from '../tenant-look.ts';
import { OidcModelAdapter } from './adapter.ts';
import { ClientAuthThrottle, throttleClientAuthentication } from './client-auth-throttle.ts';
import { ClientCache } from './client-cache.ts';
import { clientPolicy } from './client-policy.ts';
import { ApplicationClientAdapter } from './clients.ts';
import { loadExistingGrant } from './consent.ts';
import { type CustomJwtDeps, customJwtClaims } from './custom-jwt-claims.ts';
import { offlineAccessForFirstParty } from './first-party-offline-access.ts';
import { allowFormPostTargets } from './form-post.ts';
import { organizationTokenClaims, registerOrganizationTokenGrants } from './organization-tokens.ts';
import { registerPersonalAccessTokenExchange } from './personal-access-token-exchange.ts';
import { accessTokenLifetime, chooseDefaultResource, resourceServerInfo } from './resource-servers.ts';

/** The tenant's cookie-signing secrets, newest first, created on first use and shared by every process. */
async function cookieKeys(tenant: TenantDb): Promise<string[]> {
  const fresh = [newCookieKey()];
  await tenant.insertIfAbsent(tenantConfigs, { key: COOKIE_KEYS, value: serializeCookieKeys(fresh) });
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, COOKIE_KEYS));
  const stored = parseCookieKeys(row?.value);
  return (stored.length ? stored : fresh).map((key) => key.value);
}

/**
 * The provider's error page (its default uses inline styles, which our CSP forbids): the tenant's sign-in pages'
 * look, in the request's language (`ui_locales`, else Accept-Language, else the tenant's fallback), saying what went
 * wrong in words an end user can act on.
 */
const errorRenderer =
  (tenant: TenantDb) =>
  async (ctx: KoaContextWithOIDC, out: ErrorOut): Promise<void> => {
    const asked = uiLocalesLanguage(ctx.oidc?.params?.ui_locales ?? ctx.query?.ui_locales);
    const look = await readSignInExperienceSettings(tenant)
      .then((settings) =>
        tenantLook(tenant, settings, {
          language: asked ?? negotiateLanguage(ctx.get('accept-language'), settings.languageInfo.fallbackLanguage),
          name: 'Gatehouse',
          themeHref: (css) => `/interaction/${tenant.tenantId}/theme.css?v=${stylesheetVersion(css)}`,
        }),
      )
      // The error page must show even when the settings cannot be read: the product's look then.
      .catch(() => productLook(asked ?? negotiateLanguage(ctx.get('accept-language'))));
    ctx.type = 'html';
    ctx.body = renderRequestErrorPage(look, String(out.error ?? 'server_error')).toString();
  };

export type OidcDeps = {
  /** The server's own connection: the shared failure counters of client authentication (not a tenant's data). */
  db: Database;
  /** The tenants' data: each provider reads and writes as its tenant (row-level security). */
  tenants: TenantDbs;
  config: Config;
  keys: SigningKeyStore;
  log?: Logger | undefined;
  /** Failed client authentications, counted in the database for every provider and process. */
  clientAuthThrottle?: ClientAuthThrottle | undefined;
  /** Issued tokens, counted for the plans' usage; one per server. */
  tokenUsage?: TokenUsageCounter | undefined;
  /** Runs the tenants' custom JWT scripts; one per server. */
  scripts?: ScriptSandbox | undefined;
  /** Changes made by any process (db/change-notices.ts): when given, they drop cached providers. */
  notices?: ChangeNotices | undefined;
  /** The tenants' applications and named secrets, kept between requests; one per server. */
  clients?: ClientCache | undefined;
};

/** The tenant's signing keys, newest first, and the algorithms the provider signs and publishes with. */
type Signing = {
  privateKeys: Record<string, unknown>[];
  signingAlgorithm: JwsAlgorithm;
  publishedAlgorithms: JwsAlgorithm[];
};

function signingOf(privateKeys: Record<string, unknown>[]): Signing {
  // The newest key signs: ID tokens and JWT access tokens use its algorithm, and oidc-provider picks
  // the first key of that algorithm (keys are newest first). Older keys stay published in the JWKS.
  const signingAlgorithm = privateKeys[0] ? jwsAlgorithmOf(privateKeys[0]) : SIGNING_ALGORITHM;
  const publishedAlgorithms = [...new Set([signingAlgorithm, ...privateKeys.map(jwsAlgorithmOf)])];
  return { privateKeys, signingAlgorithm, publishedAlgorithms };
}

/**
 * The tenant's token settings, read once per provider: a change drops the provider (`token-settings` change notices;
 * without notices, the provider's version holds these keys too). A failed read is tried again next time.
 */
function tokenSettingsReader(tenant: TenantDb): () => Promise<TokenSettings> {
  let tokenSettings: Promise<TokenSettings> | undefined;
  return () => {
    tokenSettings ??= readTokenSettings(tenant).catch((error: unknown) => {
      tokenSettings = undefined;
      throw error;
    });
    return tokenSettings;
  };
}

type AdminNames = (token: { kind: string; accountId?: string | undefined }) => Promise<{ name: string } | undefined>;

/** Console admins' names for their tokens, kept a minute (a rename shows in new audit entries within it). */
function adminNameReader(tenant: TenantDb): AdminNames {
  const recentNames = new Map<string, { name: { name: string } | undefined; at: number }>();
  return async (token) => {
    const id = token.kind === 'AccessToken' ? token.accountId : undefined;
    if (!id) return undefined;
    const known = recentNames.get(id);
    if (known && Date.now() - known.at < ADMIN_NAME_TTL_MS) return known.name;
    const name = await consoleAdminName(tenant, token);
    if (recentNames.size >= 10_000) recentNames.clear();
    recentNames.set(id, { name, at: Date.now() });
    return name;
  };
}

/** Where the provider keeps its models: applications from the client cache, everything else in the tenant's rows. */
function adapterOf(tenant: TenantDb, publicUrl: string, clients: ClientCache): NonNullable<Configuration['adapter']> {
  return (name: string) =>
    name === 'Client' ? new ApplicationClientAdapter(tenant, publicUrl, clients) : new OidcModelAdapter(tenant, name);
}

/** The keys the provider signs with, the algorithms it publishes, and what an application defaults to. */
function signingConfiguration(signing: Signing): Pick<Configuration, 'jwks' | 'enabledJWA' | 'clientDefaults'> {
  return {
    jwks: { keys: signing.privateKeys as NonNullable<Configuration['jwks']>['keys'] },
    enabledJWA: { idTokenSigningAlgValues: signing.publishedAlgorithms },
    clientDefaults: {
      grant_types: ['authorization_code'],
      id_token_signed_response_alg: signing.signingAlgorithm,
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  };
}

/** How long the provider's tokens and sessions live. */
function lifetimes(session: Awaited<ReturnType<typeof readOidcSessionConfig>>): NonNullable<Configuration['ttl']> {
  // Access tokens live as long as their API resource says (spec §3 accessTokenTtl), whatever the grant.
  return {
    AccessToken: (_ctx, token) => accessTokenLifetime(token),
    ClientCredentials: (_ctx, token) => accessTokenLifetime(token),
    // Id and refresh tokens follow the application's settings (spec §3 customClientMetadata).
    ...clientPolicy.ttl,
    // The sign-in session (and its cookie) lasts as the tenant says (`/configs/oidc/session`).
    Session: session.ttl,
  };
}

type Features = NonNullable<Configuration['features']>;

/** The sign-out pages: the confirmation form, and the page after signing out. */
function logoutPages(): NonNullable<Features['rpInitiatedLogout']> {
  return {
    enabled: true,
    logoutSource: (ctx, form) => {
      // The sign-out form's answer redirects to the client's post-logout URI (validated by the provider).
      const policy = ctx.response.get('Content-Security-Policy');
      const source = formActionSource(ctx.oidc.params?.post_logout_redirect_uri);
      if (policy && source) ctx.set('Content-Security-Policy', withFormActionSource(policy, source));
      ctx.type = 'html';
      ctx.body = renderLogoutPage(negotiateLanguage(ctx.get('accept-language')), form).toString();
    },
    postLogoutSuccessSource: (ctx) => {
      const language = negotiateLanguage(ctx.get('accept-language'));
      ctx.type = 'html';
      const look = productLook(language);
      ctx.body = renderMessagePage(look, look.text('signed_out')).toString();
    },
  };
}

/** The provider's features: client credentials, introspection, revocation, sign-out, and the tenant's API resources. */
function features(tenant: TenantDb, signingAlgorithm: JwsAlgorithm, clients: ClientCache): Features {
  return {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    rpInitiatedLogout: logoutPages(),
    resourceIndicators: {
      enabled: true,
      useGrantedResource: () => true,
      defaultResource: (_ctx, _client, oneOf) => chooseDefaultResource(tenant, oneOf),
      getResourceServerInfo: (ctx, indicator, client) => {
        const accountId = ctx.oidc.session?.accountId ?? ctx.oidc.grant?.accountId;
        return resourceServerInfo(
          tenant,
          indicator,
          accountId ? { userId: accountId } : { applicationId: client.clientId },
          signingAlgorithm,
          clients,
        );
      },
    },
  };
}

/** The claims each scope grants. */
const scopeClaims: NonNullable<Configuration['claims']> = {
  // `amr` says how the user signed in when a second factor was passed (['mfa', 'otp']; RFC 8176).
  openid: ['sub', 'amr'],
  profile: ['name', 'username', 'picture', 'updated_at'],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
  [ORGANIZATIONS_SCOPE]: ['organizations'],
  [ORGANIZATION_ROLES_SCOPE]: ['organization_roles'],
  // Extended claims (reference scope names): in the ID token only when the tenant enables them (/configs/id-token).
  custom_data: ['custom_data'],
  identities: ['identities'],
  roles: ['roles'],
};

/**
 * Organization tokens name their organization; custom JWT scripts add their claims (auth/oidc/custom-jwt-claims.ts).
 */
function extraTokenClaims(
  tenantId: string,
  customJwt: CustomJwtDeps,
  adminNames: AdminNames,
): NonNullable<Configuration['extraTokenClaims']> {
  return async (ctx, token) => {
    const organization = organizationTokenClaims(token);
    const custom = await customJwtClaims(customJwt, ctx, token, organization?.organization_id);
    const admin = tenantId === ADMIN_TENANT_ID ? await adminNames(token) : undefined;
    return custom || organization || admin ? { ...custom, ...organization, ...admin } : undefined;
  };
}

/** The tenant's users as the provider's accounts (a suspended user has none), with the claims a token asks for. */
function accountFinder(
  tenant: TenantDb,
  readSettings: () => Promise<TokenSettings>,
): NonNullable<Configuration['findAccount']> {
  return async (_ctx, id) => {
    const user = await tenant.findOne(users, eq(users.id, id));
    if (!user || user.isSuspended) return undefined;
    return {
      accountId: user.id,
      claims: async (use, scope) => {
        // Memberships and roles are read only when a token asks for them.
        const granted = new Set(scope.split(' '));
        const wantsOrganizations = granted.has(ORGANIZATIONS_SCOPE) || granted.has(ORGANIZATION_ROLES_SCOPE);
        const [memberships, roleNames, idTokenConfig] = await Promise.all([
          wantsOrganizations ? userOrganizationClaims(tenant, user.id) : undefined,
          granted.has('roles') ? userRoleNames(tenant, user.id) : undefined,
          use === 'id_token' ? readSettings().then((settings) => settings.idToken) : undefined,
        ]);
        // The ID token leaves out the extended claims the tenant has not enabled; userinfo answers them all.
        const enabled = new Set<string>(idTokenConfig?.enabledExtendedClaims ?? extendedIdTokenClaims);
        const extended = (claim: ExtendedIdTokenClaim, value: unknown) => (enabled.has(claim) ? value : undefined);
        return {
          sub: user.id,
          name: user.name ?? undefined,
          username: user.username ?? undefined,
          picture: user.avatar ?? undefined,
          email: user.primaryEmail ?? undefined,
          // Only an address proven by an emailed code or set by an admin (never one typed at sign-up).
          email_verified: Boolean(user.primaryEmail) && user.primaryEmailVerified,
          phone_number: user.primaryPhone ? `+${user.primaryPhone.replace(/^\+/, '')}` : undefined,
          // Only a number proven by a texted code or set by an admin.
          phone_number_verified: Boolean(user.primaryPhone) && user.primaryPhoneVerified,
          updated_at: Math.floor(user.updatedAt.getTime() / 1000),
          organizations: extended('organizations', memberships?.organizations),
          organization_roles: extended('organization_roles', memberships?.organizationRoles),
          custom_data: extended('custom_data', granted.has('custom_data') ? user.customData : undefined),
          identities: extended('identities', granted.has('identities') ? user.identities : undefined),
          roles: extended('roles', roleNames),
        };
      },
    };
  };
}

/** What the provider does besides the protocol: activity and usage counts, token exchanges, throttles, form posts. */
function extendProvider(
  provider: Provider,
  deps: OidcDeps,
  tenantId: string,
  tenant: TenantDb,
  signingAlgorithm: JwsAlgorithm,
): void {
  recordActivityOnTokenGrants(provider, tenant, deps.log);
  if (!deps.tokenUsage) throw new Error('createTenantProvider needs the token counter (TenantProviders makes one)');
  countTokensOnGrants(provider, tenantId, deps.tokenUsage);
  registerOrganizationTokenGrants(provider, { tenant, signingAlgorithm });
  registerPersonalAccessTokenExchange(provider, { tenant, signingAlgorithm });
  if (deps.clientAuthThrottle) throttleClientAuthentication(provider, tenantId, deps.clientAuthThrottle);
  offlineAccessForFirstParty(provider, tenant);
  allowFormPostTargets(provider);
}

export async function createTenantProvider(deps: OidcDeps, tenantId: string): Promise<Provider> {
  const { config, keys } = deps;
  const tenant = deps.tenants.of(tenantId);
  const signing = signingOf(await keys.privateKeys(tenantId));
  const session = await readOidcSessionConfig(tenant);
  if (!deps.scripts) throw new Error('createTenantProvider needs the script sandbox (TenantProviders makes one)');
  const readSettings = tokenSettingsReader(tenant);
  const adminNames = adminNameReader(tenant);
  const { clients } = deps;
  if (!clients) throw new Error('createTenantProvider needs the client cache (TenantProviders makes one)');
  const customJwt: CustomJwtDeps = {
    tenant,
    customizer: async (type: JwtCustomizerTokenType) => (await readSettings()).customizers[type],
    scripts: deps.scripts,
    edition: config.edition,
    log: deps.log,
  };
  const configuration: Configuration = {
    adapter: adapterOf(tenant, config.publicUrl, clients),
    ...signingConfiguration(signing),
    cookies: { keys: await cookieKeys(tenant) },
    ttl: lifetimes(session),
    extraClientMetadata: clientPolicy.extraClientMetadata,
    // Discovery advertises only what a registered application can use: the code flow (no implicit, no id_token
    // response types), and HTTP Basic for confidential clients (the named application secrets are translated from
    // that header, http/oidc-mount.ts) or none for public ones.
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'none'],
    issueRefreshToken: clientPolicy.issueRefreshToken,
    rotateRefreshToken: clientPolicy.rotateRefreshToken,
    clientBasedCORS: clientPolicy.clientBasedCORS,
    features: features(tenant, signing.signingAlgorithm, clients),
    // Spec §2.4: sign-in experience parameters an application may pass to the sign-in pages.
    extraParams: ['interaction_mode', 'first_screen', 'direct_sign_in', 'organization_id', 'identifier'],
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${tenantId}/${interaction.uid}` },
    claims: scopeClaims,
    // Scope claims go into the ID token too (organizations and organization_roles among them, spec §3), so clients
    // read them without a userinfo call.
    conformIdTokenClaims: false,
    extraTokenClaims: extraTokenClaims(tenantId, customJwt, adminNames),
    renderError: errorRenderer(tenant),
    loadExistingGrant: (ctx) => loadExistingGrant(tenant, ctx),
    findAccount: accountFinder(tenant, readSettings),
  };
  const provider = new Provider(issuerUrl(config.publicUrl, tenantId), configuration);
  // Behind a TLS-terminating proxy, trust X-Forwarded-* so issued URLs use https.
  provider.proxy = config.publicUrl.startsWith('https://');
  extendProvider(provider, deps, tenantId, tenant, signing.signingAlgorithm);
  return provider;
}

/** How long a tenant provider remembers a console admin's name for their tokens. */
const ADMIN_NAME_TTL_MS = 60_000;

/**
 * A console admin's access token carries their name (`name`: the name, else the username or email), so the tenants
 * they change record who did it by name in the audit log: a tenant cannot read the admin tenant's users.
 */
async function consoleAdminName(
  tenant: TenantDb,
  token: { kind: string; accountId?: string | undefined },
): Promise<{ name: string } | undefined> {
  if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
  const [user] = await tenant.asTenant((db) =>
    db
      .select({ name: users.name, username: users.username, email: users.primaryEmail })
      .from(users)
      .where(and(eq(users.tenantId, tenant.tenantId), eq(users.id, token.accountId ?? ''))),
  );
  const name = [user?.name, user?.username, user?.email].map((value) => value?.trim()).find(Boolean);
  return name ? { name } : undefined;
}

/**
 * One provider per tenant, created on first use and rebuilt when the tenant's key set changes. Each
 * request reads the key-set version (one primary-key read) and compares it with the version the
 * cached provider was built from, so a rotation or deletion made by any server process takes effect
 * on the next request everywhere, with no restart. Flows in progress survive a rebuild: interactions,
 * sessions and grants live in the database, and the previous cookie key still verifies cookies.
 */
/**
 * What a tenant's provider is built from and may change while it is cached: its key set (rotations bump a version),
 * its session settings and its token settings (custom JWT scripts, the ID token's claims). Without change notices, one
 * read of them per request; a change made by any process shows at the next request.
 */
async function readProviderVersion(tenant: TenantDb): Promise<string> {
  const rows = await tenant.findMany(tenantConfigs, {
    where: inArray(tenantConfigs.key, [KEY_SET_VERSION, OIDC_SESSION_KEY, ...tokenSettingsKeys]),
  });
  const value = (key: string) => JSON.stringify(rows.find((row) => row.key === key)?.value ?? null);
  return [KEY_SET_VERSION, OIDC_SESSION_KEY, ...tokenSettingsKeys].map(value).join('|');
}

export class TenantProviders {
  readonly #deps: OidcDeps;
  readonly #providers = new Map<string, { version: string; provider: Promise<Provider> }>();
  /**
   * With change notices a cached provider is used until a notice drops it, with no read per request; without (tests
   * that build the app alone) each request compares the version it was built from.
   */
  readonly #noticed: boolean;

  constructor(deps: OidcDeps) {
    this.#noticed = deps.notices !== undefined;
    deps.notices?.subscribe((change) => {
      if (change === 'reset') this.forgetAll();
      // A provider reads its clients through the client cache, which drops them itself.
      else if (change.kind !== 'clients') this.forget(change.tenantId);
    });
    this.#deps = {
      clientAuthThrottle: new ClientAuthThrottle(deps.db),
      tokenUsage: new TokenUsageCounter(deps.tenants, deps.log),
      scripts: new ScriptSandbox({
        fetchAllowList: deps.config.customJwt.fetchAllowList,
        outbound: deps.config.outbound,
      }),
      ...deps,
      clients: deps.clients ?? new ClientCache(deps.notices),
    };
  }

  /** The applications and named secrets the providers authenticate clients with. */
  get clients(): ClientCache {
    const { clients } = this.#deps;
    if (!clients) throw new Error('TenantProviders has no client cache');
    return clients;
  }

  /** The custom JWT sandbox the providers issue tokens with (the console's Test runs scripts in it too). */
  get scripts(): ScriptSandbox {
    const { scripts } = this.#deps;
    if (!scripts) throw new Error('TenantProviders has no script sandbox');
    return scripts;
  }

  /** The tenant's provider, or undefined when the tenant does not exist. */
  async get(tenantId: string): Promise<Provider | undefined> {
    const tenant = this.#deps.tenants.of(tenantId);
    const noticed = this.#noticed ? this.#providers.get(tenantId) : undefined;
    if (noticed) return noticed.provider;
    const version = this.#noticed ? '' : await readProviderVersion(tenant);
    const cached = this.#providers.get(tenantId);
    if (cached?.version === version) return cached.provider;
    if (!cached) {
      const [row] = await tenant.asTenant((db) =>
        db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)),
      );
      if (!row) return undefined;
    }
    // The version is read before the keys, so a change racing this build shows as a newer version next time.
    const provider = createTenantProvider(this.#deps, tenantId);
    const entry = { version, provider };
    this.#providers.set(tenantId, entry);
    provider.catch(() => {
      if (this.#providers.get(tenantId) === entry) this.#providers.delete(tenantId);
    });
    return provider;
  }

  /** Drops a tenant's cached provider (the tenant was deleted, or its keys or session settings changed). */
  forget(tenantId: string): void {
    this.#providers.delete(tenantId);
  }

  /** Drops every cached provider (change notices may have been missed). */
  forgetAll(): void {
    this.#providers.clear();
  }
}
