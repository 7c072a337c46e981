import { ADMIN_TENANT_ID } from '@gatehouse/schemas';
import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import type { AuthContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { issuerUrl, managementResource } from './issuers.ts';
import { SIGNING_ALGORITHM, type SigningKeyStore } from './signing-keys.ts';

const unauthorized = (reason: string) => new ApiError(401, 'auth.unauthorized', { reason });

/**
 * Verifies a bearer token for a tenant's management API: signature (the issuing tenant's keys),
 * issuer, audience, expiry. Accepted issuers are the tenant itself (its machine-to-machine apps)
 * and the admin tenant (console users).
 */
export async function verifyManagementToken(
  keys: SigningKeyStore,
  publicUrl: string,
  tenantId: string,
  token: string,
): Promise<AuthContext> {
  let issuer: string | undefined;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    throw unauthorized('malformed');
  }
  const issuerTenantId = [tenantId, ADMIN_TENANT_ID].find((id) => issuerUrl(publicUrl, id) === issuer);
  if (!issuer || !issuerTenantId) throw unauthorized('issuer');
  try {
    const { payload } = await jwtVerify(token, await keys.verificationKeys(issuerTenantId), {
      issuer,
      audience: managementResource(tenantId),
      algorithms: [SIGNING_ALGORITHM],
      clockTolerance: 5,
    });
    const scopes = new Set(typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : []);
    const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
    // A token without a subject other than its client is a client-credentials (machine) token.
    const isMachine = !payload.sub || payload.sub === clientId;
    return {
      actor: isMachine ? { type: 'application', id: clientId ?? 'unknown' } : { type: 'user', id: payload.sub ?? '' },
      scopes,
      issuerTenantId,
    };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('expired');
    if (error instanceof joseErrors.JWTClaimValidationFailed) throw unauthorized(`claim:${error.claim}`);
    if (error instanceof joseErrors.JOSEError) throw unauthorized('signature');
    throw error;
  }
}
