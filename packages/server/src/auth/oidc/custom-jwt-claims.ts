import {
  ADMIN_TENANT_ID,
  type Edition,
  generateId,
  type JwtCustomizerTokenType,
  type LogKey,
} from '@gatehouse/schemas';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import { logs } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import type { ScriptSandbox } from '../../services/jwt-customizer/sandbox.ts';
import { applicationTokenContext, userTokenContext } from '../../services/jwt-customizer/token-context.ts';
import { type Customizer, mergeableClaims } from '../../services/jwt-customizer.ts';
import { planQuota, tenantPlanId } from '../../services/quota.ts';

/**
 * oidc-provider's `extraTokenClaims` for custom JWT (issue 22, docs/custom-jwt.md): a JWT access token for a user
 * (authorization code, refresh token, organization token) or for a machine (client credentials, organization token)
 * gets the claims of the tenant's script for that token type. Opaque tokens (userinfo only) carry none.
 * - `api.denyAccess(message)` refuses the token: `access_denied` with the script's message.
 * - Any other failure refuses it too when the script says `blockIssuanceOnError` (the default); otherwise the token is
 *   issued without the extra claims.
 * - Reserved claims (iss, sub, aud, exp, scope, client_id…) are dropped from the script's answer; oidc-provider would
 *   overwrite them anyway, dropping them keeps the log honest.
 * - Every run is logged (`JwtCustomizer.AccessToken` / `JwtCustomizer.ClientCredentials`) with its result.
 */

export type CustomJwtDeps = {
  tenant: TenantDb;
  /** The tenant's script for a token type (its provider keeps them until a `token-settings` change notice). */
  customizer: (tokenType: JwtCustomizerTokenType) => Promise<Customizer | undefined>;
  scripts: ScriptSandbox;
  edition: Edition;
  log?: Logger | undefined;
};

/** The fields of oidc-provider's AccessToken and ClientCredentials models read here. */
type IssuedToken = {
  kind: string;
  jti: string;
  iat?: number | undefined;
  expiration: number;
  accountId?: string | undefined;
  clientId?: string | undefined;
  scope?: string | undefined;
  gty?: string | undefined;
  resourceServer?: { audience?: string | undefined; accessTokenFormat?: string | undefined } | undefined;
};

const tokenTypeOf = (kind: string): JwtCustomizerTokenType | undefined =>
  kind === 'AccessToken' ? 'access-token' : kind === 'ClientCredentials' ? 'client-credentials' : undefined;

const logKeyOf: Record<JwtCustomizerTokenType, LogKey> = {
  'access-token': 'JwtCustomizer.AccessToken',
  'client-credentials': 'JwtCustomizer.ClientCredentials',
};

/** Custom JWT stays off for a cloud tenant whose plan no longer includes it (a downgrade keeps the script). */
async function planAllows(tenant: TenantDb, edition: Edition): Promise<boolean> {
  if (edition !== 'cloud' || tenant.tenantId === ADMIN_TENANT_ID) return true;
  const limit = planQuota(await tenantPlanId(tenant)).customJwtEnabled;
  return limit !== false && limit !== 0;
}

export async function customJwtClaims(
  deps: CustomJwtDeps,
  ctx: KoaContextWithOIDC | undefined,
  token: IssuedToken,
  organizationId: string | undefined,
): Promise<Record<string, unknown> | undefined> {
  const tokenType = tokenTypeOf(token.kind);
  if (!tokenType || token.resourceServer?.accessTokenFormat !== 'jwt') return undefined;
  const { tenant } = deps;
  const customizer = await deps.customizer(tokenType);
  if (!customizer || !(await planAllows(tenant, deps.edition))) return undefined;

  const clientId = token.clientId ?? '';
  const userId = tokenType === 'access-token' ? token.accountId : undefined;
  const iat = token.iat ?? Math.floor(Date.now() / 1000);
  const payload = {
    jti: token.jti,
    iss: ctx?.oidc.provider.issuer,
    sub: userId ?? clientId,
    aud: token.resourceServer?.audience,
    scope: token.scope || undefined,
    client_id: clientId,
    iat,
    exp: iat + token.expiration,
    ...(organizationId ? { organization_id: organizationId } : {}),
  };
  // The grant of this request (a refreshed token's `gty` lists every grant of its chain).
  const requested = ctx?.oidc.params?.grant_type;
  const grantType = typeof requested === 'string' ? requested : token.gty?.split(' ').at(-1);
  const context = userId
    ? await userTokenContext(tenant, { userId, applicationId: clientId, grantType })
    : await applicationTokenContext(tenant, { applicationId: clientId, grantType: grantType ?? 'client_credentials' });

  const started = performance.now();
  const outcome = await deps.scripts.run(
    customizer.script,
    { token: payload, context: context ?? {}, environmentVariables: customizer.environmentVariables },
    tenant.tenantId,
  );
  const kept = outcome.ok ? mergeableClaims(outcome.claims) : undefined;
  const entry = {
    result: outcome.ok ? 'Success' : 'Error',
    tokenType,
    durationMs: Math.round(performance.now() - started),
    ...(outcome.ok ? {} : { error: outcome.error }),
    ...(kept?.dropped.length ? { droppedClaims: kept.dropped } : {}),
    ...(!outcome.ok && outcome.error.name !== 'AccessDenied' ? { issued: !customizer.blockIssuanceOnError } : {}),
    ip: ctx?.ip,
    userAgent: ctx?.get('user-agent') || undefined,
  };
  await tenant
    .insert(logs, {
      id: generateId(),
      key: logKeyOf[tokenType],
      userId: userId ?? null,
      applicationId: clientId || null,
      payload: entry,
    })
    .catch((error: unknown) =>
      deps.log?.warn({ err: error, tenantId: deps.tenant.tenantId }, 'custom JWT log not written'),
    );

  if (outcome.ok) return kept?.claims;
  if (outcome.error.name === 'AccessDenied') throw new errors.AccessDenied(outcome.error.message || 'access denied');
  if (customizer.blockIssuanceOnError) {
    throw new errors.AccessDenied('the custom JWT script failed; the token was not issued');
  }
  return undefined;
}
