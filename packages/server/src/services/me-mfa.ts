import {
  DomainError,
  generateId,
  type MeMfaVerificationCreated,
  type MeTotpSecret,
  type MeWebAuthnRegistration,
  type meMfaVerificationCreateSchema,
  rowNotFound,
  type UserMfaVerification,
} from '@gatehouse/schemas';
import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import { allOf } from '../db/conditions.ts';
import { userMfaVerifications } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { currentUser } from './me.ts';
import { backupCodesWithFirstFactor, isCurrentTotpCode } from './mfa-sign-in.ts';
import {
  insertPasskey,
  passkeyNameOf,
  passkeysOf,
  type RelyingParty,
  registrationOptions,
  verifyRegistration,
  WEBAUTHN_TIMEOUT_MS,
} from './passkeys.ts';
import { readSignInExperienceSettings } from './sign-in-experience.ts';
import {
  findUserMfaVerifications,
  generateTotpSecret,
  primaryIdentifier,
  totpEnrollment,
  totpIssuer,
  toUserMfaVerification,
} from './user-mfa-verifications.ts';
import { isValidPasswordVerification, readTicket, signTicket } from './verification-records.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * A console account's own second factors (the 'me' API, docs/areas/passkeys.md): its passkeys and its authenticator
 * app, listed, added and removed by the account itself. Adding or removing one needs a fresh proof of the password
 * (a verification record, as a password change does) when the account has a password: a stolen console session must
 * not be able to add the thief's passkey or remove the owner's. The admin tenant's MFA policy applies to these
 * accounts at sign-in like to any user.
 */

type MeMfaVerificationCreate = z.output<typeof meMfaVerificationCreateSchema>;

const PASSKEY_TICKET = 'webauthn-registration';
const TOTP_TICKET = 'totp-setup';

async function assertProof(keys: SigningKeyStore, user: Awaited<ReturnType<typeof currentUser>>, record?: string) {
  if (user.passwordEncrypted && !(record && (await isValidPasswordVerification(keys, record, user)))) {
    throw new DomainError('unprocessable', 'verification_record.invalid');
  }
}

export async function listMyMfaVerifications(tenant: TenantDb, userId: string): Promise<UserMfaVerification[]> {
  await currentUser(tenant, userId);
  const rows = await tenant.findMany(userMfaVerifications, {
    where: eq(userMfaVerifications.userId, userId),
    orderBy: [desc(userMfaVerifications.createdAt), desc(userMfaVerifications.id)],
  });
  return rows.map(toUserMfaVerification);
}

/** The options for the browser to make a passkey, and a ticket that carries the challenge back (5 minutes). */
export async function startMyPasskey(
  tenant: TenantDb,
  keys: SigningKeyStore,
  rp: RelyingParty | undefined,
  userId: string,
  verificationRecordId: string | undefined,
): Promise<MeWebAuthnRegistration> {
  if (!rp) throw new DomainError('invalid', 'user.passkeys_unavailable');
  const user = await currentUser(tenant, userId);
  await assertProof(keys, user, verificationRecordId);
  const existing = await passkeysOf(tenant, user.id, rp);
  const { options, challenge } = await registrationOptions(rp, user, existing);
  const ticket = await signTicket(keys, user.id, PASSKEY_TICKET, { challenge }, WEBAUTHN_TIMEOUT_MS / 1000);
  return { options: options as unknown as Record<string, unknown>, ticket };
}

/** A new authenticator key, its QR code, and a ticket that carries it back with the first code (10 minutes). */
export async function startMyTotp(
  tenant: TenantDb,
  keys: SigningKeyStore,
  userId: string,
  verificationRecordId: string | undefined,
): Promise<MeTotpSecret> {
  const user = await currentUser(tenant, userId);
  await assertProof(keys, user, verificationRecordId);
  if ((await findUserMfaVerifications(tenant, user.id, 'Totp')).length > 0) {
    throw new DomainError('conflict', 'user.totp_already_in_use');
  }
  const secret = generateTotpSecret();
  const enrollment = await totpEnrollment(secret, await totpIssuer(tenant), primaryIdentifier(user));
  const ticket = await signTicket(keys, user.id, TOTP_TICKET, { secret }, 10 * 60);
  return { secret, ...enrollment, ticket };
}

/**
 * Adds the passkey the browser made, or the authenticator app whose code proves its key, with the ticket of its start
 * (the proof of the password was checked there). Backup codes come with the account's first factor when the admin
 * tenant offers them; they are answered once. Audited (`Account.Mfa.Created`), never with a secret.
 */
export async function addMyMfaVerification(
  ctx: WriteContext,
  keys: SigningKeyStore,
  rp: RelyingParty | undefined,
  input: MeMfaVerificationCreate,
  userAgent: string | undefined,
): Promise<MeMfaVerificationCreated> {
  const user = await currentUser(ctx.tenant, ctx.actor.id);
  const purpose = input.type === 'WebAuthn' ? PASSKEY_TICKET : TOTP_TICKET;
  const claims = await readTicket(keys, input.ticket, user.id, purpose);
  if (!claims) throw new DomainError('unprocessable', 'verification_record.invalid');
  let passkey: Awaited<ReturnType<typeof verifyRegistration>>;
  let secret: string | undefined;
  if (input.type === 'WebAuthn') {
    if (!rp) throw new DomainError('invalid', 'user.passkeys_unavailable');
    passkey = await verifyRegistration(rp, String(claims.challenge), input.response, {
      name: input.name ?? passkeyNameOf(userAgent),
      agent: userAgent,
    });
    if (!passkey) throw new DomainError('unprocessable', 'user.webauthn_verification_failed');
  } else {
    secret = String(claims.secret);
    if (!isCurrentTotpCode(secret, input.code)) throw new DomainError('unprocessable', 'mfa.invalid_code');
  }
  const settings = await readSignInExperienceSettings(ctx.tenant);
  return performWrite(ctx, 'Account.Mfa.Created', async (tx) => {
    const existing = await findUserMfaVerifications(tx, user.id);
    let row: typeof userMfaVerifications.$inferSelect;
    if (passkey) {
      row = await insertPasskey(tx, user.id, passkey);
    } else {
      if (existing.some((factor) => factor.type === 'Totp'))
        throw new DomainError('conflict', 'user.totp_already_in_use');
      row = await tx.insert(userMfaVerifications, {
        id: generateId(),
        userId: user.id,
        type: 'Totp',
        data: { secret: secret ?? '' },
        lastUsedAt: new Date(),
      });
    }
    const backupCodes = await backupCodesWithFirstFactor(tx, user.id, settings.mfa.factors.includes('BackupCode'));
    const verification = toUserMfaVerification(row);
    return {
      result: { verification, ...(backupCodes ? { backupCodes } : {}) },
      entity: { type: 'User', id: user.id },
      before: null,
      after: { id: row.id, type: row.type, ...(backupCodes ? { backupCodes: 'created' } : {}) },
    };
  }).catch((error: unknown) => {
    // A second setup racing this one lost at the one-app-per-user index.
    throw error instanceof DomainError && error.code === 'entity.unique_integrity_violation'
      ? new DomainError('conflict', 'user.totp_already_in_use')
      : error;
  });
}

/** Removes one of the account's factors (with a fresh proof of the password). Audited (`Account.Mfa.Deleted`). */
export async function removeMyMfaVerification(
  ctx: WriteContext,
  keys: SigningKeyStore,
  verificationId: string,
  verificationRecordId: string | undefined,
): Promise<void> {
  const user = await currentUser(ctx.tenant, ctx.actor.id);
  await assertProof(keys, user, verificationRecordId);
  await performWrite(ctx, 'Account.Mfa.Deleted', async (tx) => {
    const [row] = await tx.delete(
      userMfaVerifications,
      allOf(eq(userMfaVerifications.userId, user.id), eq(userMfaVerifications.id, verificationId)),
    );
    if (!row) throw rowNotFound();
    return {
      result: undefined,
      entity: { type: 'User', id: user.id },
      before: { id: row.id, type: row.type },
      after: null,
    };
  });
}
