import { createHash } from 'node:crypto';
import { ADMIN_TENANT_ID } from '@gatehouse/schemas';
import { importJWK, jwtVerify, SignJWT } from 'jose';
import { jwsAlgorithmOf, type SigningKeyStore, VERIFICATION_ALGORITHMS } from '../auth/signing-keys.ts';

/** How long proof of the current password lasts before a sensitive change needs it again. */
export const VERIFICATION_TTL_SECONDS = 10 * 60;
const AUDIENCE = 'urn:gatehouse:verification';

/**
 * A fingerprint of the password hash: a record made before the password changed no longer
 * matches, so one proof cannot be replayed for a second change.
 */
function passwordFingerprint(passwordEncrypted: string | null): string {
  return createHash('sha256')
    .update(passwordEncrypted ?? '')
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Verification records are signed by the admin tenant's key and carry the user, the purpose and
 * the fingerprint of the password they were made with; they need no table and hold across
 * processes.
 */
export async function createPasswordVerification(
  keys: SigningKeyStore,
  user: { id: string; passwordEncrypted: string | null },
): Promise<{ verificationRecordId: string; expiresAt: number }> {
  const [jwk] = await keys.privateKeys(ADMIN_TENANT_ID);
  if (!jwk) throw new Error('the admin tenant has no signing key');
  const alg = jwsAlgorithmOf(jwk);
  const key = await importJWK(jwk, alg);
  const expiresAt = Date.now() + VERIFICATION_TTL_SECONDS * 1000;
  const verificationRecordId = await new SignJWT({
    purpose: 'password',
    pwd: passwordFingerprint(user.passwordEncrypted),
  })
    .setProtectedHeader({ alg, kid: typeof jwk.kid === 'string' ? jwk.kid : undefined })
    .setSubject(user.id)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(key);
  return { verificationRecordId, expiresAt };
}

export async function isValidPasswordVerification(
  keys: SigningKeyStore,
  record: string,
  user: { id: string; passwordEncrypted: string | null },
): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(record, await keys.verificationKeys(ADMIN_TENANT_ID), {
      audience: AUDIENCE,
      subject: user.id,
      algorithms: VERIFICATION_ALGORITHMS,
    });
    return payload.purpose === 'password' && payload.pwd === passwordFingerprint(user.passwordEncrypted);
  } catch {
    return false;
  }
}

/**
 * A ticket: a short-lived, signed statement the server gives a user and takes back with their next request (the 'me'
 * API's passkey challenge, an authenticator key being set up), so a two-request setup needs no table. Bound to the
 * user and its purpose; its claims are readable by the user, so it never carries anything they may not see.
 */
export async function signTicket(
  keys: SigningKeyStore,
  userId: string,
  purpose: string,
  claims: Record<string, string>,
  ttlSeconds: number,
): Promise<string> {
  const [jwk] = await keys.privateKeys(ADMIN_TENANT_ID);
  if (!jwk) throw new Error('the admin tenant has no signing key');
  const alg = jwsAlgorithmOf(jwk);
  return new SignJWT({ ...claims, purpose })
    .setProtectedHeader({ alg, kid: typeof jwk.kid === 'string' ? jwk.kid : undefined })
    .setSubject(userId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(await importJWK(jwk, alg));
}

/** A ticket's claims when it is this user's, for this purpose, and not expired; undefined otherwise. */
export async function readTicket(
  keys: SigningKeyStore,
  ticket: string,
  userId: string,
  purpose: string,
): Promise<Record<string, unknown> | undefined> {
  try {
    const { payload } = await jwtVerify(ticket, await keys.verificationKeys(ADMIN_TENANT_ID), {
      audience: AUDIENCE,
      subject: userId,
      algorithms: VERIFICATION_ALGORITHMS,
    });
    return payload.purpose === purpose ? payload : undefined;
  } catch {
    return undefined;
  }
}
