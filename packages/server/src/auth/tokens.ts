import {
  ADMIN_TENANT_ID,
  CLOUD_API_RESOURCE,
  DomainError,
  organizationAudience,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import { type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import type { AuthContext } from '../shared/app-env.ts';
import { issuerUrl, ME_RESOURCE, managementResource } from './issuers.ts';
import { type SigningKeyStore, VERIFICATION_ALGORITHMS } from './signing-keys.ts';

const unauthorized = (reason: string) => new DomainError('unauthorized', 'auth.unauthorized', { reason });

/** How far the clocks of the token's signer and this server may disagree (`exp`, `nbf`, `iat`). */
const CLOCK_SKEW_SECONDS = 5;

/**
 * Verifies an access token (RS256 or ES384, as the tenant's keys sign): signature (with the issuing tenant's keys), issuer (one of
 * `issuerTenantIds`), audience and expiry. Every rejection is a 401 whose `data.reason` says which.
 */
async function verifyAccessToken(
  keys: SigningKeyStore,
  publicUrl: string,
  token: string,
  expected: { issuerTenantIds: readonly string[]; audience: string },
): Promise<{ payload: JWTPayload; issuerTenantId: string }> {
  const check = `${expected.audience}\u0000${expected.issuerTenantIds.join(' ')}`;
  const nowSeconds = Date.now() / 1000;
  const before = keys.verifiedBefore(check, token, nowSeconds);
  if (before) return before;
  const claims = peekClaims(token);
  if (!claims) throw unauthorized('malformed');
  const issuer = claims.iss;
  const issuerTenantId = expected.issuerTenantIds.find((id) => issuerUrl(publicUrl, id) === issuer);
  if (typeof issuer !== 'string' || !issuer || !issuerTenantId) throw unauthorized('issuer');
  try {
    const { payload } = await jwtVerify(token, await keys.verificationKeys(issuerTenantId), {
      issuer,
      audience: expected.audience,
      algorithms: VERIFICATION_ALGORITHMS,
      clockTolerance: CLOCK_SKEW_SECONDS,
      // A token that never expires is never accepted, whoever signed it.
      requiredClaims: ['exp'],
    });
    // jose checks `iat` only against a maximum age; one from the future means a wrong clock or a forged token.
    if (typeof payload.iat === 'number' && payload.iat > nowSeconds + CLOCK_SKEW_SECONDS) {
      throw unauthorized('claim:iat');
    }
    // `exp` is required above: the entry ends when the token would be refused as expired.
    keys.rememberVerified(check, token, { payload, issuerTenantId }, (payload.exp ?? 0) + CLOCK_SKEW_SECONDS);
    return { payload, issuerTenantId };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('expired');
    if (error instanceof joseErrors.JWTClaimValidationFailed) throw unauthorized(`claim:${error.claim}`);
    if (error instanceof joseErrors.JOSEError) throw unauthorized('signature');
    throw error;
  }
}

/** A signed-in user as the actor of a request: their id, and the name their console token carries (if any). */
function userActor(payload: JWTPayload): AuthContext['actor'] {
  const name = typeof payload.name === 'string' && payload.name ? payload.name.slice(0, 256) : undefined;
  return { type: 'user', id: payload.sub ?? '', ...(name ? { name } : {}) };
}

function scopesOf(payload: JWTPayload): Set<string> {
  return new Set(typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : []);
}

/**
 * A token for a tenant's management API. Accepted issuers are the tenant itself (its
 * machine-to-machine apps) and the admin tenant (console users).
 */
export async function verifyManagementToken(
  keys: SigningKeyStore,
  publicUrl: string,
  tenantId: string,
  token: string,
): Promise<AuthContext> {
  const { payload, issuerTenantId } = await verifyAccessToken(keys, publicUrl, token, {
    issuerTenantIds: [tenantId, ADMIN_TENANT_ID],
    audience: managementResource(tenantId),
  });
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
  // A token without a subject other than its client is a client-credentials (machine) token.
  const isMachine = !payload.sub || payload.sub === clientId;
  // The tenant's own issuer signs in its end users; only its machine apps may manage it. Console
  // users come from the admin issuer, so a user token of the tenant itself is never an admin's.
  if (!isMachine && issuerTenantId !== ADMIN_TENANT_ID) throw unauthorized('subject');
  return {
    actor: isMachine ? { type: 'application', id: clientId ?? 'unknown' } : userActor(payload),
    scopes: scopesOf(payload),
    issuerTenantId,
  };
}

/** A token for the 'me' API: issued by the admin tenant to a signed-in console user (never a machine). */
export async function verifyMeToken(keys: SigningKeyStore, publicUrl: string, token: string): Promise<AuthContext> {
  const { payload, issuerTenantId } = await verifyAccessToken(keys, publicUrl, token, {
    issuerTenantIds: [ADMIN_TENANT_ID],
    audience: ME_RESOURCE,
  });
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
  if (!payload.sub || payload.sub === clientId) throw unauthorized('subject');
  return { actor: userActor(payload), scopes: scopesOf(payload), issuerTenantId };
}

/** The audiences a JWT names (unverified: only to pick which verification applies). */
export function tokenAudiences(token: string): string[] {
  const aud = peekClaims(token)?.aud;
  return typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a) => typeof a === 'string') : [];
}

/**
 * The issuer and audience of a JWT, unverified (they choose the keys and the check; jwtVerify verifies
 * them). Buffer's base64url decoder: jose's decodeJwt, run before every verification, cost as much as
 * the RSA signature check. Undefined when the token is not three parts with a JSON object in the middle.
 */
function peekClaims(token: string): { iss?: unknown; aud?: unknown } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? claims : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A user's organization token for tenant T's organization `t-T` in the admin tenant (cloud edition):
 * issued by the admin tenant's issuer with audience `urn:gatehouse:organization:t-T`. Its scopes are
 * tenant permissions; the caller still checks them against the database.
 */
export async function verifyTenantOrganizationToken(
  keys: SigningKeyStore,
  publicUrl: string,
  tenantId: string,
  token: string,
): Promise<AuthContext> {
  const organizationId = tenantOrganizationId(tenantId);
  const { payload, issuerTenantId } = await verifyAccessToken(keys, publicUrl, token, {
    issuerTenantIds: [ADMIN_TENANT_ID],
    audience: organizationAudience(organizationId),
  });
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
  // Only people are tenant members; an admin-tenant machine app's organization token is not accepted.
  if (!payload.sub || payload.sub === clientId) throw unauthorized('subject');
  if (payload.organization_id !== organizationId) throw unauthorized('claim:organization_id');
  return { actor: userActor(payload), scopes: scopesOf(payload), issuerTenantId };
}

/** A token for the cloud API: issued by the admin tenant to a signed-in console user, audience the cloud API. */
export async function verifyCloudToken(keys: SigningKeyStore, publicUrl: string, token: string): Promise<AuthContext> {
  const { payload, issuerTenantId } = await verifyAccessToken(keys, publicUrl, token, {
    issuerTenantIds: [ADMIN_TENANT_ID],
    audience: CLOUD_API_RESOURCE,
  });
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
  if (!payload.sub || payload.sub === clientId) throw unauthorized('subject');
  return { actor: userActor(payload), scopes: scopesOf(payload), issuerTenantId };
}
