import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { users } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import { findActivePersonalAccessToken } from '../../services/personal-access-tokens.ts';
import type { JwsAlgorithm } from '../signing-keys.ts';
import { defaultResourceIndicator, resourceServerInfo } from './resource-servers.ts';

/**
 * RFC 8693 token exchange of a personal access token (issue 24, the reference's grant): a confidential application
 * (machine-to-machine or traditional web) sends `grant_type=urn:ietf:params:oauth:grant-type:token-exchange`,
 * `subject_token=<pat>` and `subject_token_type=urn:logto:token-type:personal_access_token`, and gets a JWT access
 * token of the token's user for `resource` (else the tenant's default API), with the scopes the user's roles grant
 * there (all of them, or those of `scope` among them). No refresh token, no ID token. An unknown, expired or deleted
 * token, or a suspended user, is `invalid_grant`.
 */

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const PERSONAL_ACCESS_TOKEN_TYPE = 'urn:logto:token-type:personal_access_token';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

type ExchangeDeps = { tenant: TenantDb; signingAlgorithm: JwsAlgorithm };

function single(ctx: KoaContextWithOIDC, name: string): string | undefined {
  const value = ctx.oidc.params?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new errors.InvalidRequest(`invalid ${name} parameter`);
  return value;
}

async function exchange(ctx: KoaContextWithOIDC, { tenant, signingAlgorithm }: ExchangeDeps) {
  const provider = ctx.oidc.provider;
  const client = ctx.oidc.client;
  if (!client) throw new errors.InvalidClient();
  const subjectToken = single(ctx, 'subject_token');
  const subjectTokenType = single(ctx, 'subject_token_type');
  if (!subjectToken || !subjectTokenType) {
    throw new errors.InvalidRequest('missing required parameter(s) (subject_token, subject_token_type)');
  }
  if (subjectTokenType !== PERSONAL_ACCESS_TOKEN_TYPE)
    throw new errors.InvalidRequest('unsupported subject_token_type');
  const pat = await findActivePersonalAccessToken(tenant, subjectToken);
  const user = pat ? await tenant.findOne(users, eq(users.id, pat.userId)) : undefined;
  if (!user || user.isSuspended) throw new errors.InvalidGrant('subject token invalid or expired');

  const resource = single(ctx, 'resource') ?? (await defaultResourceIndicator(tenant));
  if (!resource) throw new errors.InvalidTarget('a resource is required (the tenant has no default API)');
  const info = await resourceServerInfo(tenant, resource, { userId: user.id }, signingAlgorithm);
  const held = new Set((info.scope ?? '').split(' ').filter(Boolean));
  const requested = single(ctx, 'scope')?.split(' ') ?? [...held];
  const scope = requested.filter((name) => held.has(name)).join(' ');

  // No grant stands behind the token (no consent, no session): the personal access token is the authorization. The
  // token is a JWT for a resource, checked by signature, so nothing reads a grant id back; the type wants one.
  const token = new provider.AccessToken({
    accountId: user.id,
    client,
    gty: TOKEN_EXCHANGE_GRANT,
    scope,
    grantId: undefined as unknown as string,
  });
  token.resourceServer = new provider.ResourceServer(resource, info);
  token.scope ||= undefined;
  ctx.oidc.entity('AccessToken', token);
  const value = await token.save();
  ctx.body = {
    access_token: value,
    issued_token_type: ACCESS_TOKEN_TYPE,
    token_type: 'Bearer',
    expires_in: token.expiration,
    scope: token.scope || undefined,
  };
}

export function registerPersonalAccessTokenExchange(provider: Provider, deps: ExchangeDeps): void {
  provider.registerGrantType(TOKEN_EXCHANGE_GRANT, (ctx) => exchange(ctx, deps), [
    'subject_token',
    'subject_token_type',
    'resource',
    'scope',
  ]);
}
