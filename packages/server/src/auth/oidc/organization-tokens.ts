import { ACCESS_TOKEN_TTL_SECONDS, ORGANIZATIONS_SCOPE, organizationAudience } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import {
  handler as clientCredentialsGrant,
  parameters as clientCredentialsParameters,
} from 'oidc-provider/lib/actions/grants/client_credentials.js';
import {
  handler as refreshTokenGrant,
  parameters as refreshTokenParameters,
} from 'oidc-provider/lib/actions/grants/refresh_token.js';
import * as grantHelpers from 'oidc-provider/lib/helpers/grants.js';
import { resources, users } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import {
  isOrganizationMember,
  type Member,
  memberResourceScopeNames,
  memberScopeNames,
  organizationRequiresMfa,
} from '../../services/organization-access.ts';
import type { JwsAlgorithm } from '../signing-keys.ts';

/**
 * Organization tokens (the reference API's shape): a token request with `organization_id` gets an access token
 * for that organization, carrying the scopes the member's organization roles grant there and an
 * `organization_id` claim. Without `resource` the audience is `urn:gatehouse:organization:<id>` and the scopes
 * are organization permissions; with `resource` they are that API resource's permissions granted through
 * organization roles.
 * - Users: `grant_type=refresh_token` with a refresh token whose grant holds the organizations scope. Membership
 *   is checked at every request, so a member added after sign-in gets tokens without signing in again, and a
 *   removed one stops getting them. The refresh token is not rotated (it is only read).
 * - Machine-to-machine applications: `grant_type=client_credentials` with `organization_id`.
 * Requests without `organization_id` go to oidc-provider's own handlers unchanged.
 */

const ORGANIZATION_ID = 'organization_id';

/** The organization each organization token was minted for, read back when the token is formatted. */
const tokenOrganization = new WeakMap<object, string>();

/** oidc-provider's `extraTokenClaims`: organization tokens name their organization. */
export function organizationTokenClaims(token: object): { organization_id: string } | undefined {
  const organizationId = tokenOrganization.get(token);
  return organizationId ? { organization_id: organizationId } : undefined;
}

type Scoped = { audience: string; available: string[]; ttl: number };

/** What every organization grant needs: the tenant's data, and the algorithm of its current signing key. */
type GrantDeps = { tenant: TenantDb; signingAlgorithm: JwsAlgorithm };

/** The audience, the scopes the member holds for it, and the token lifetime. */
async function scopeFor(
  tenant: TenantDb,
  organizationId: string,
  member: Member,
  resource: string | undefined,
): Promise<Scoped> {
  if (!resource) {
    return {
      audience: organizationAudience(organizationId),
      available: await memberScopeNames(tenant, organizationId, member),
      ttl: ACCESS_TOKEN_TTL_SECONDS.default,
    };
  }
  const row = await tenant.findOne(resources, eq(resources.indicator, resource));
  if (!row) throw new errors.InvalidTarget('unknown resource indicator');
  return {
    audience: resource,
    available: await memberResourceScopeNames(tenant, organizationId, member, resource),
    ttl: row.accessTokenTtl,
  };
}

/**
 * The member may have tokens for the organization. An organization that requires MFA gives them only to a user whose
 * sign-in passed a second factor (`amr` has `mfa`, set by the sign-in's MFA step and kept on the refresh token);
 * machine-to-machine applications have no second factor, so they get none there.
 */
async function assertMember(tenant: TenantDb, organizationId: string, member: Member, amr?: readonly string[]) {
  if (!(await isOrganizationMember(tenant, organizationId, member))) {
    throw new errors.AccessDenied('not a member of the organization');
  }
  if ((await organizationRequiresMfa(tenant, organizationId)) && !amr?.includes('mfa')) {
    throw new errors.AccessDenied('the organization requires multi-factor authentication');
  }
}

/** The scopes asked for (all the member holds when none are named), limited to those held. */
function grantedScopes(ctx: KoaContextWithOIDC, available: string[]): string {
  const requested = typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope.split(' ') : available;
  const held = new Set(available);
  return requested.filter((scope) => held.has(scope)).join(' ');
}

function single(ctx: KoaContextWithOIDC, name: string): string | undefined {
  const value = ctx.oidc.params?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new errors.InvalidRequest(`invalid ${name} parameter`);
  return value;
}

async function userOrganizationToken(ctx: KoaContextWithOIDC, deps: GrantDeps, organizationId: string) {
  const { tenant } = deps;
  const provider = ctx.oidc.provider;
  const client = ctx.oidc.client;
  if (!client) throw new errors.InvalidClient();
  const value = single(ctx, 'refresh_token');
  if (!value) throw new errors.InvalidRequest('missing required parameter(s) (refresh_token)');
  const refreshToken = await provider.RefreshToken.find(value, { ignoreExpiration: true });
  if (!refreshToken || refreshToken.clientId !== client.clientId)
    throw new errors.InvalidGrant('refresh token not found');
  if (refreshToken.isExpired) throw new errors.InvalidGrant('refresh token is expired');
  if (refreshToken.consumed) throw new errors.InvalidGrant('refresh token already used');
  // Sender-constrained refresh tokens would need their proof checked here too; none of our clients use them.
  if (refreshToken.jkt || refreshToken['x5t#S256']) {
    throw new errors.InvalidGrant('sender-constrained refresh tokens cannot get organization tokens');
  }
  if (!refreshToken.scopes.has(ORGANIZATIONS_SCOPE)) {
    throw new errors.InvalidGrant(`refresh token was not granted the ${ORGANIZATIONS_SCOPE} scope`);
  }
  const grant = refreshToken.grantId ? await provider.Grant.find(refreshToken.grantId) : undefined;
  if (!grant || grant.clientId !== client.clientId || grant.accountId !== refreshToken.accountId) {
    throw new errors.InvalidGrant('grant not found');
  }
  const accountId = refreshToken.accountId;
  const user = await tenant.findOne(users, eq(users.id, accountId));
  if (!user || user.isSuspended) throw new errors.InvalidGrant('refresh token invalid (referenced account not found)');

  const member = { userId: accountId };
  await assertMember(tenant, organizationId, member, refreshToken.amr);
  const { audience, available, ttl } = await scopeFor(tenant, organizationId, member, single(ctx, 'resource'));
  const scope = grantedScopes(ctx, available);
  const token = new provider.AccessToken({
    accountId,
    client,
    expiresWithSession: refreshToken.expiresWithSession,
    grantId: grant.jti,
    gty: 'refresh_token',
    scope,
    sessionUid: refreshToken.sessionUid,
    sid: refreshToken.sid,
  });
  return mint(ctx, token, organizationId, { audience, available, ttl }, deps.signingAlgorithm);
}

async function applicationOrganizationToken(ctx: KoaContextWithOIDC, deps: GrantDeps, organizationId: string) {
  const { tenant } = deps;
  const provider = ctx.oidc.provider;
  const client = ctx.oidc.client;
  if (!client) throw new errors.InvalidClient();
  const member = { applicationId: client.clientId };
  await assertMember(tenant, organizationId, member);
  const scoped = await scopeFor(tenant, organizationId, member, single(ctx, 'resource'));
  const token = new provider.ClientCredentials({ client, scope: grantedScopes(ctx, scoped.available) });
  return mint(ctx, token, organizationId, scoped, deps.signingAlgorithm);
}

type MintableToken = InstanceType<Provider['AccessToken']> | InstanceType<Provider['ClientCredentials']>;

async function mint(
  ctx: KoaContextWithOIDC,
  token: MintableToken,
  organizationId: string,
  scoped: Scoped,
  signingAlgorithm: JwsAlgorithm,
) {
  const provider = ctx.oidc.provider;
  token.resourceServer = new provider.ResourceServer(scoped.audience, {
    scope: scoped.available.join(' '),
    audience: scoped.audience,
    accessTokenTTL: scoped.ttl,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: signingAlgorithm } },
  });
  token.scope ||= undefined;
  tokenOrganization.set(token, organizationId);
  ctx.oidc.entity(token.kind === 'AccessToken' ? 'AccessToken' : 'ClientCredentials', token);
  const value = await token.save();
  ctx.body = {
    access_token: value,
    expires_in: token.expiration,
    token_type: 'Bearer',
    scope: token.scope || undefined,
  };
}

/** Replaces the refresh-token and client-credentials grants with ones that also mint organization tokens. */
export function registerOrganizationTokenGrants(provider: Provider, deps: GrantDeps): void {
  // The same binding oidc-provider gives its own grant handlers when it registers them.
  const helpers = Object.fromEntries(
    Object.entries(grantHelpers).map(([name, helper]) => [
      name,
      (helper as (...args: unknown[]) => unknown).bind(undefined, provider),
    ]),
  );
  const withResource = (parameters: ReadonlySet<string>) => [...parameters, 'resource', ORGANIZATION_ID];

  provider.registerGrantType(
    'refresh_token',
    async (ctx) => {
      const organizationId = single(ctx, ORGANIZATION_ID);
      if (organizationId) return userOrganizationToken(ctx, deps, organizationId);
      return refreshTokenGrant(provider, helpers, ctx);
    },
    withResource(refreshTokenParameters),
    ['resource'],
  );
  provider.registerGrantType(
    'client_credentials',
    async (ctx) => {
      const organizationId = single(ctx, ORGANIZATION_ID);
      if (organizationId) return applicationOrganizationToken(ctx, deps, organizationId);
      return clientCredentialsGrant(provider, helpers, ctx);
    },
    withResource(clientCredentialsParameters),
    ['resource'],
  );
}
