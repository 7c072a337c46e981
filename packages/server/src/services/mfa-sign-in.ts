import { generateId, type SignInExperienceSettings } from '@gatehouse/schemas';
import { and, eq, inArray } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { logs, organizations, organizationUsers, userMfaVerifications, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { lockoutOf, lockoutState } from './account-lockout.ts';
import { insertPasskey, type RelyingParty, type VerifiedPasskey } from './passkeys.ts';
import {
  backupCodeData,
  findUserMfaVerifications,
  generateBackupCodes,
  hashBackupCode,
  totpParameters,
  type UserMfaVerificationRow,
} from './user-mfa-verifications.ts';

/**
 * MFA at sign-in (spec §4 "MFA factors" and "MFA policy"; docs/areas/mfa.md): after the first factor, a user who has
 * a second factor proves it (an authenticator app's code, or one of their backup codes); a user who has none is asked
 * to set up an authenticator app when the tenant's policy or one of their organizations requires it (or is offered it,
 * with a way to skip, under the prompting policies). What a user sets up here is the same factor an admin can add
 * (`user_mfa_verifications`). WebAuthn is not offered at sign-in yet.
 */

export const MFA_VERIFY_LOG_KEY = 'Interaction.Mfa.Verify';
export const MFA_BIND_LOG_KEY = 'Interaction.Mfa.Bind';

/** What the sign-in asks for after the first factor. */
export type MfaStep =
  | { kind: 'none' }
  | { kind: 'verify'; totp: boolean; backupCode: boolean; webauthn: boolean }
  /** What can be set up: an authenticator app (`Totp` offered), a passkey (`WebAuthn` offered and passkeys work here). */
  | { kind: 'enroll'; required: boolean; totp: boolean; passkey: boolean };

/** Where the first factor was given: a sign-up prompts only under `PromptAtSignInAndSignUp` (and when required). */
export type MfaMoment = 'sign_in' | 'sign_up';

async function memberOfMfaOrganization(tenant: TenantDb, userId: string): Promise<boolean> {
  const memberships = await tenant.findMany(organizationUsers, { where: eq(organizationUsers.userId, userId) });
  if (memberships.length === 0) return false;
  const required = await tenant.count(
    organizations,
    and(
      inArray(
        organizations.id,
        memberships.map((row) => row.organizationId),
      ),
      eq(organizations.isMfaRequired, true),
    ),
  );
  return required > 0;
}

const isPasskeyOf = (row: UserMfaVerificationRow, rp: RelyingParty) =>
  'publicKey' in row.data && row.data.rpId === rp.id;

const usableBackupCodes = (row: UserMfaVerificationRow) =>
  'codes' in row.data ? row.data.codes.filter((code) => !code.used).length : 0;

/** The step after the first factor for this user under the tenant's MFA settings. */
export async function mfaStepFor(
  tenant: TenantDb,
  userId: string,
  settings: Pick<SignInExperienceSettings, 'mfa'>,
  moment: MfaMoment,
  rp?: RelyingParty,
): Promise<MfaStep> {
  const factors = await findUserMfaVerifications(tenant, userId);
  const totp = factors.some((row) => row.type === 'Totp');
  const backupCode = factors.some((row) => row.type === 'BackupCode' && usableBackupCodes(row) > 0);
  // A passkey is a second step only where the tenant offers passkeys as an MFA factor: with passkey sign-in alone it is
  // a way in, and asking for it after a password would lock out a user on a device that does not have it. It answers
  // only on the relying party it was made for (services/passkeys.ts).
  const webauthn =
    rp !== undefined &&
    settings.mfa.factors.includes('WebAuthn') &&
    factors.some((row) => row.type === 'WebAuthn' && isPasskeyOf(row, rp));
  // A factor the user holds is always asked for, whatever the policy: it is the user's protection, not the tenant's.
  if (totp || backupCode || webauthn) return { kind: 'verify', totp, backupCode, webauthn };
  // What the sign-in pages can set up: an authenticator app, and a passkey where passkeys work.
  const canTotp = settings.mfa.factors.includes('Totp');
  const canPasskey = rp !== undefined && settings.mfa.factors.includes('WebAuthn');
  if (!canTotp && !canPasskey) return { kind: 'none' };
  const setup = { totp: canTotp, passkey: canPasskey };
  const organizationRequired =
    settings.mfa.organizationRequiredMfaPolicy !== 'NoPrompt' && (await memberOfMfaOrganization(tenant, userId));
  if (settings.mfa.policy === 'Mandatory' || organizationRequired) return { kind: 'enroll', required: true, ...setup };
  const prompts =
    settings.mfa.policy === 'PromptAtSignInAndSignUp' ||
    (settings.mfa.policy === 'PromptOnlyAtSignIn' && moment === 'sign_in');
  if (!prompts) return { kind: 'none' };
  // A user who chose "Skip for now" is not asked again (as the reference remembers it); they can still set one up
  // from their account, and a policy that requires one asks regardless.
  const user = await tenant.findOne(users, eq(users.id, userId));
  return user?.mfaSkippedAt ? { kind: 'none' } : { kind: 'enroll', required: false, ...setup };
}

export type MfaMeta = {
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
};

export type MfaCheck =
  | { ok: true }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; retryAfterMinutes: number };

const timeStep = (at: number) => Math.floor(at / 1000 / totpParameters.period);

/**
 * Checks a second factor: a 6-digit code of the user's authenticator app (one period of drift either way, never a
 * time step already used) or one unused backup code (used up by this). Locked like passwords (the tenant's sentinel
 * policy): under the user's lock, the failures in the window are counted and this attempt is written as a failure in
 * advance, so parallel guesses see each other. Every attempt is audited (`Interaction.Mfa.Verify`).
 */
export async function verifySecondFactor(
  tenant: TenantDb,
  userId: string,
  factor: 'totp' | 'backup_code',
  code: string,
  meta: MfaMeta,
): Promise<MfaCheck> {
  const lockout = await lockoutOf(tenant);
  const attemptId = generateId();
  const entry = (result: 'Success' | 'Error', error?: string) => ({
    result,
    factor,
    ip: meta.ip,
    userAgent: meta.userAgent,
    ...(error ? { error } : {}),
  });
  return tenant.transaction(async (tx) => {
    const state = await lockoutState(tx, {
      account: `mfa:${userId}`,
      key: MFA_VERIFY_LOG_KEY,
      entries: eq(logs.userId, userId),
      since: new Date(Date.now() - lockout.windowMinutes * 60_000),
      lockout,
    });
    const record = (result: 'Success' | 'Error', error?: string) =>
      tx.insert(logs, {
        id: attemptId,
        key: MFA_VERIFY_LOG_KEY,
        userId,
        applicationId: meta.applicationId ?? null,
        payload: entry(result, error),
      });
    if (state.locked) {
      await record('Error', 'locked');
      return { ok: false as const, reason: 'locked' as const, retryAfterMinutes: state.retryAfterMinutes };
    }
    const accepted = factor === 'totp' ? await acceptTotp(tx, userId, code) : await acceptBackupCode(tx, userId, code);
    await record(accepted ? 'Success' : 'Error', accepted ? undefined : 'invalid_code');
    return accepted ? { ok: true as const } : { ok: false as const, reason: 'invalid' as const };
  });
}

/** The step a code is for, if it is one of the secret's codes around now; undefined otherwise. */
function matchingStep(secret: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = new TOTP({ ...totpParameters, secret: Secret.fromBase32(secret) });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : timeStep(now) + delta;
}

async function acceptTotp(tx: TenantDb, userId: string, code: string): Promise<boolean> {
  const [factor] = await findUserMfaVerifications(tx, userId, 'Totp');
  if (!factor || !('secret' in factor.data)) return false;
  const step = matchingStep(factor.data.secret, code);
  // A code seen once (by this sign-in or an eavesdropper's) is spent until the next one.
  if (step === undefined || step <= (factor.data.lastStep ?? -1)) return false;
  await tx.update(userMfaVerifications, eq(userMfaVerifications.id, factor.id), {
    data: { secret: factor.data.secret, lastStep: step },
    lastUsedAt: new Date(),
  });
  return true;
}

async function acceptBackupCode(tx: TenantDb, userId: string, code: string): Promise<boolean> {
  const [factor] = await findUserMfaVerifications(tx, userId, 'BackupCode');
  if (!factor || !('codes' in factor.data)) return false;
  const hash = hashBackupCode(code.trim().toLowerCase());
  const codes = factor.data.codes;
  const index = codes.findIndex((entry) => !entry.used && entry.hash === hash);
  if (index < 0) return false;
  await tx.update(userMfaVerifications, eq(userMfaVerifications.id, factor.id), {
    data: { codes: codes.map((entry, i) => (i === index ? { ...entry, used: true } : entry)) },
    lastUsedAt: new Date(),
  });
  return true;
}

/** Whether `code` is a current code of a secret being set up (not stored yet). */
export const isCurrentTotpCode = (secret: string, code: string) => matchingStep(secret, code) !== undefined;

/**
 * The backup codes that come with a user's first authenticator app or passkey, when the tenant offers them and the
 * user has none yet: made in the caller's transaction and answered once (only their hashes are kept). The one place
 * both the sign-in pages and the 'me' API make them.
 */
export async function backupCodesWithFirstFactor(
  tx: TenantDb,
  userId: string,
  offered: boolean,
): Promise<string[] | undefined> {
  if (!offered || (await findUserMfaVerifications(tx, userId, 'BackupCode')).length > 0) return undefined;
  const backupCodes = generateBackupCodes();
  await tx.insert(userMfaVerifications, {
    id: generateId(),
    userId,
    type: 'BackupCode',
    data: backupCodeData(backupCodes),
  });
  return backupCodes;
}

/**
 * A factor set up at sign-in (`insert` stores it), with backup codes when the tenant offers them and the user has
 * none: one transaction, audited (`Interaction.Mfa.Bind`); answers the codes, shown once.
 */
async function bindFactor(
  tenant: TenantDb,
  userId: string,
  type: 'Totp' | 'WebAuthn',
  insert: (tx: TenantDb) => Promise<unknown>,
  withBackupCodes: boolean,
  meta: MfaMeta,
): Promise<{ backupCodes: string[] | undefined }> {
  return tenant.transaction(async (tx) => {
    await insert(tx);
    const backupCodes = await backupCodesWithFirstFactor(tx, userId, withBackupCodes);
    await tx.insert(logs, {
      id: generateId(),
      key: MFA_BIND_LOG_KEY,
      userId,
      applicationId: meta.applicationId ?? null,
      payload: {
        result: 'Success',
        factors: backupCodes ? [type, 'BackupCode'] : [type],
        ip: meta.ip,
        userAgent: meta.userAgent,
      },
    });
    return { backupCodes };
  });
}

/**
 * Sets up the authenticator app a user just proved (its code matched the new secret), with backup codes as
 * `bindFactor` says. A second setup racing this one loses at the one-TOTP-per-user index.
 */
export function bindTotp(
  tenant: TenantDb,
  userId: string,
  secret: string,
  code: string,
  withBackupCodes: boolean,
  meta: MfaMeta,
): Promise<{ backupCodes: string[] | undefined }> {
  const step = matchingStep(secret, code);
  if (step === undefined) throw new Error('bindTotp needs a code the secret accepts');
  const insert = (tx: TenantDb) =>
    tx.insert(userMfaVerifications, {
      id: generateId(),
      userId,
      type: 'Totp',
      data: { secret, lastStep: step },
      lastUsedAt: new Date(),
    });
  return bindFactor(tenant, userId, 'Totp', insert, withBackupCodes, meta);
}

/**
 * Records a second factor proven by a passkey (services/passkeys.ts verifyPasskey did the checking, in its own
 * transaction) or refused: audited like the other factors (`Interaction.Mfa.Verify`, factor `webauthn`).
 */
export async function recordPasskeyVerification(
  tenant: TenantDb,
  userId: string,
  ok: boolean,
  meta: MfaMeta,
  error?: string,
): Promise<void> {
  await tenant.insert(logs, {
    id: generateId(),
    key: MFA_VERIFY_LOG_KEY,
    userId,
    applicationId: meta.applicationId ?? null,
    payload: {
      result: ok ? 'Success' : 'Error',
      factor: 'webauthn',
      ip: meta.ip,
      userAgent: meta.userAgent,
      ...(error ? { error } : {}),
    },
  });
}

/** Sets up a passkey the user just made at sign-in (its answer verified), with backup codes as `bindFactor` says. */
export function bindPasskey(
  tenant: TenantDb,
  userId: string,
  passkey: VerifiedPasskey,
  withBackupCodes: boolean,
  meta: MfaMeta,
): Promise<{ backupCodes: string[] | undefined }> {
  return bindFactor(tenant, userId, 'WebAuthn', (tx) => insertPasskey(tx, userId, passkey), withBackupCodes, meta);
}

/** The user chose "Skip for now" at an optional prompt to set up a factor: remembered, not asked again. */
export async function rememberMfaSkipped(tenant: TenantDb, userId: string): Promise<void> {
  await tenant.update(users, eq(users.id, userId), { mfaSkippedAt: new Date() });
}
