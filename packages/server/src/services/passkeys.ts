import { isIP } from 'node:net';
import {
  DomainError,
  generateId,
  type LogKey,
  userAgentParts,
  type WebAuthnAuthenticationResponse,
  type WebAuthnRegistrationResponse,
} from '@gatehouse/schemas';
import type { AuthenticatorTransport as AuthenticatorTransportFuture } from '@simplewebauthn/server';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { fromDatabaseError } from '../db/database-errors.ts';
import { logs, userMfaVerifications, type WebAuthnCredentialData } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { findUserMfaVerifications, primaryIdentifier, type UserMfaVerificationRow } from './user-mfa-verifications.ts';
import type { UserRow } from './users.ts';

/**
 * Passkeys (WebAuthn, docs/areas/passkeys.md): a user's authenticator (a phone, Touch ID, Windows Hello, a security
 * key) makes a key pair for this site and signs a challenge with it. One passkey is one `user_mfa_verifications` row
 * of type `WebAuthn` (its credential ID in a column of its own, unique per tenant, found by it when a passkey signs in
 * without a username). It serves as the second factor after a password, and alone as a way to sign in (with user
 * verification it is two factors: the device and its PIN or biometric). @simplewebauthn/server does the verifying.
 */

/**
 * The key algorithms a passkey may use: EdDSA, ES256, RS256 (COSE -8, -7, -257), what every platform and security key
 * offers. The library adds ML-DSA when the runtime has it, whose signatures are kilobytes long and which browsers
 * have only started to make; passkeys are asked for the usual ones.
 */
const SUPPORTED_ALGORITHMS = [-8, -7, -257];

/** How long the browser gives the user to answer (and how long a challenge is good for). */
export const WEBAUTHN_TIMEOUT_MS = 5 * 60_000;

/**
 * Who the passkeys are made for: the relying-party ID (a domain name; passkeys are bound to it) and the origin the
 * pages are served from. Both follow PUBLIC_URL. An IP address cannot be a relying-party ID, so a server reached by
 * its IP address offers no passkeys.
 */
export type RelyingParty = { id: string; name: string; origin: string };

export function relyingPartyOf(publicUrl: string, name: string): RelyingParty | undefined {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return undefined;
  return { id: host, name, origin: url.origin };
}

export type PasskeyRow = UserMfaVerificationRow & { data: WebAuthnCredentialData; credentialId: string };

const isPasskey = (row: UserMfaVerificationRow): row is PasskeyRow =>
  row.type === 'WebAuthn' && row.credentialId !== null && 'publicKey' in row.data;

/** The user's passkeys made for this relying party (a passkey of another RP ID cannot answer here). */
export async function passkeysOf(tenant: TenantDb, userId: string, rp: RelyingParty): Promise<PasskeyRow[]> {
  const rows = await findUserMfaVerifications(tenant, userId, 'WebAuthn');
  return rows.filter(isPasskey).filter((row) => row.data.rpId === rp.id);
}

const transportsOf = (row: PasskeyRow) => row.data.transports as AuthenticatorTransportFuture[] | undefined;

/**
 * Options for `navigator.credentials.create()`: a discoverable credential (so it can sign in without a username),
 * user verification preferred, none of the user's existing passkeys again, no attestation (we do not restrict
 * authenticator makers). The challenge is kept by the caller and must come back with the answer.
 */
export async function registrationOptions(rp: RelyingParty, user: UserRow, existing: readonly PasskeyRow[]) {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: primaryIdentifier(user),
    userDisplayName: user.name ?? primaryIdentifier(user),
    userID: new TextEncoder().encode(user.id),
    timeout: WEBAUTHN_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  return { options, challenge: options.challenge };
}

/** A passkey the browser made, verified: what is stored of it. */
export type VerifiedPasskey = { credentialId: string; data: WebAuthnCredentialData };

/**
 * Verifies the browser's answer to `registrationOptions`: the challenge, the origin, the RP ID, user presence.
 * Answers undefined when it does not verify (a wrong origin or RP ID, another challenge, a malformed answer).
 */
export async function verifyRegistration(
  rp: RelyingParty,
  expectedChallenge: string,
  response: WebAuthnRegistrationResponse,
  about: { name?: string | undefined; agent?: string | undefined },
): Promise<VerifiedPasskey | undefined> {
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: { ...response, clientExtensionResults: response.clientExtensionResults ?? {} } as Parameters<
        typeof verifyRegistrationResponse
      >[0]['response'],
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
  } catch {
    return undefined;
  }
  if (!verification.verified || !verification.registrationInfo) return undefined;
  const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo;
  return {
    credentialId: credential.id,
    data: {
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      rpId: rp.id,
      ...(credential.transports?.length ? { transports: credential.transports } : {}),
      backedUp: credentialBackedUp,
      deviceType: credentialDeviceType,
      ...(aaguid && aaguid !== '00000000-0000-0000-0000-000000000000' ? { aaguid } : {}),
      ...(about.name ? { name: about.name } : {}),
      ...(about.agent ? { agent: about.agent.slice(0, 256) } : {}),
    },
  };
}

/** Stores a verified passkey for the user; a credential already stored (for anyone in the tenant) is refused (422). */
export async function insertPasskey(tx: TenantDb, userId: string, passkey: VerifiedPasskey): Promise<PasskeyRow> {
  try {
    const row = await tx.insert(userMfaVerifications, {
      id: generateId(),
      userId,
      type: 'WebAuthn',
      credentialId: passkey.credentialId,
      data: passkey.data,
    });
    return row as PasskeyRow;
  } catch (error) {
    const refused = fromDatabaseError(error);
    if (refused instanceof DomainError && refused.code === 'entity.unique_integrity_violation') {
      throw new DomainError('conflict', 'user.passkey_already_registered');
    }
    throw error;
  }
}

/**
 * Options for `navigator.credentials.get()`: for a known user, their passkeys; without one (a passkey signs in
 * alone), any discoverable passkey of this site, the browser asks which.
 */
export async function authenticationOptions(
  rp: RelyingParty,
  passkeys: readonly PasskeyRow[] | undefined,
  userVerification: 'required' | 'preferred',
) {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: WEBAUTHN_TIMEOUT_MS,
    userVerification,
    ...(passkeys
      ? { allowCredentials: passkeys.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })) }
      : {}),
  });
  return { options, challenge: options.challenge };
}

export type PasskeyCheck =
  | { ok: true; userId: string; passkey: PasskeyRow; userVerified: boolean }
  | { ok: false; reason: 'unknown_credential' | 'invalid' | 'counter' };

/**
 * Verifies a passkey's signature over the challenge: the credential must be one of the tenant's (and the user's, when
 * the user is known), made for this RP ID; the origin, the RP ID hash, the user verification asked for and the
 * signature are checked, and a signature counter that does not go forward (a cloned authenticator) is refused. On
 * success the counter and the last use are stored, in the same transaction that read them.
 */
export async function verifyPasskey(
  tenant: TenantDb,
  rp: RelyingParty,
  expectedChallenge: string,
  response: WebAuthnAuthenticationResponse,
  expect: { userId?: string | undefined; requireUserVerification: boolean },
): Promise<PasskeyCheck> {
  return tenant.transaction(async (tx) => {
    const row = await tx.findOne(
      userMfaVerifications,
      allOf(eq(userMfaVerifications.type, 'WebAuthn'), eq(userMfaVerifications.credentialId, response.id)),
    );
    if (!row || !isPasskey(row) || row.data.rpId !== rp.id || (expect.userId && row.userId !== expect.userId)) {
      return { ok: false as const, reason: 'unknown_credential' as const };
    }
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response: { ...response, clientExtensionResults: response.clientExtensionResults ?? {} } as Parameters<
          typeof verifyAuthenticationResponse
        >[0]['response'],
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: row.credentialId,
          publicKey: new Uint8Array(Buffer.from(row.data.publicKey, 'base64url')),
          counter: row.data.counter,
          transports: transportsOf(row),
        },
        requireUserVerification: expect.requireUserVerification,
      });
    } catch (error) {
      // The library says a counter that did not go forward in its message; that is a cloned authenticator.
      const message = error instanceof Error ? error.message : '';
      return { ok: false as const, reason: /counter/i.test(message) ? ('counter' as const) : ('invalid' as const) };
    }
    if (!verification.verified) return { ok: false as const, reason: 'invalid' as const };
    const { newCounter, credentialBackedUp, userVerified } = verification.authenticationInfo;
    await tx.update(userMfaVerifications, eq(userMfaVerifications.id, row.id), {
      data: { ...row.data, counter: newCounter, backedUp: credentialBackedUp },
      lastUsedAt: new Date(),
    });
    return { ok: true as const, userId: row.userId, passkey: row, userVerified };
  });
}

/**
 * RFC 8176 `amr` of a passkey: `swk` for a synced passkey (its key leaves the device, in the platform's keychain),
 * `hwk` for one bound to its device or security key; `user` when the authenticator verified the user (a PIN or a
 * biometric).
 */
export function passkeyAmr(passkey: Pick<WebAuthnCredentialData, 'backedUp' | 'deviceType'>, userVerified: boolean) {
  const key = passkey.backedUp || passkey.deviceType === 'multiDevice' ? 'swk' : 'hwk';
  return userVerified ? [key, 'user'] : [key];
}

/**
 * A failed passkey sign-in, audited like the other first factors' failures. The user is named only when a suspended
 * user's passkey was refused: a failed signature names no one (anyone who saw a credential ID could otherwise write
 * failures against its user and lock their other ways in).
 */
export async function recordPasskeyFailure(
  tenant: TenantDb,
  key: LogKey,
  entry: {
    userId?: string | undefined;
    applicationId?: string | undefined;
    reason: string;
    ip?: string | undefined;
    userAgent?: string | undefined;
  },
): Promise<void> {
  await tenant.insert(logs, {
    id: generateId(),
    key,
    userId: entry.userId ?? null,
    applicationId: entry.applicationId ?? null,
    payload: { result: 'Error', factor: 'webauthn', error: entry.reason, ip: entry.ip, userAgent: entry.userAgent },
  });
}

/** Whether the user holds a passkey of this relying party. */
export async function hasPasskey(tenant: TenantDb, userId: string, rp: RelyingParty): Promise<boolean> {
  return (await passkeysOf(tenant, userId, rp)).length > 0;
}

/** A passkey's first name, from where it was made ("Chrome on macOS"); its user can rename it from their account. */
export function passkeyNameOf(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const { browser, os } = userAgentParts(userAgent);
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os;
}
