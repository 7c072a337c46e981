import {
  BACKUP_CODE_COUNT,
  BACKUP_CODE_LENGTH,
  DomainError,
  generateId,
  type MfaFactor,
  rowNotFound,
  type UserMfaVerification,
  type UserMfaVerificationCreated,
  type userMfaVerificationCreateSchema,
} from '@gatehouse/schemas';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import { tenants, type UserMfaVerificationData, userMfaVerifications } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { assertFeature, type QuotaDeps } from './quota.ts';
import { storedValueHash } from './stored-value-hash.ts';
import { findUser, type UserRow } from './users.ts';
import { performWrite, type WriteContext } from './write-path.ts';

type UserMfaVerificationCreate = z.output<typeof userMfaVerificationCreateSchema>;

/**
 * A user's MFA factors (spec §3 `mfaVerifications`). The TOTP secret is kept as it is, like the other secrets the
 * server must read back (signing keys, client secrets); backup codes only as SHA-256 hashes, since they are only
 * ever compared. The sign-in pages check them (services/mfa-sign-in.ts).
 */

export type UserMfaVerificationRow = typeof userMfaVerifications.$inferSelect;

/** The API shape: never the secret or the codes. */
export function toUserMfaVerification(row: UserMfaVerificationRow): UserMfaVerification {
  return {
    id: row.id,
    type: row.type as MfaFactor,
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    ...('codes' in row.data ? { remainCodes: row.data.codes.filter((code) => !code.used).length } : {}),
    ...('publicKey' in row.data
      ? {
          ...(row.data.name ? { name: row.data.name } : {}),
          ...(row.data.agent ? { agent: row.data.agent } : {}),
          backedUp: row.data.backedUp,
        }
      : {}),
  };
}

/** RFC 6238 defaults every authenticator app supports. */
export const totpParameters = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/** A new TOTP secret: 160 random bits (RFC 4226's recommendation), base32. */
export const generateTotpSecret = () => new Secret({ size: 20 }).base32;

/** What an authenticator app shows the factor as: the user's username, email, phone or id. */
export const primaryIdentifier = (user: UserRow) => user.username ?? user.primaryEmail ?? user.primaryPhone ?? user.id;

/** The `otpauth://totp/…` URI of a secret, and its QR code as an SVG data URL. */
export async function totpEnrollment(secret: string, issuer: string, label: string) {
  const otpauthUri = new TOTP({ ...totpParameters, issuer, label, secret: Secret.fromBase32(secret) }).toString();
  const svg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUri, secretQrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The issuer authenticator apps show: the tenant's name, else the product's. */
export async function totpIssuer(tx: TenantDb): Promise<string> {
  // An aggregate always answers one row; the tenants row is read by a scalar subquery on the transaction's tenant.
  const [row] = await tx.aggregate(
    {
      rows: count(),
      name: sql<string | null>`(select ${tenants.name} from ${tenants} where ${tenants.id} = ${tx.tenantId})`,
    },
    userMfaVerifications,
    sql`false`,
  );
  const name = typeof row?.name === 'string' ? row.name.trim() : '';
  return name || 'Gatehouse';
}

/** Ten random codes of ten lowercase letters and digits, all different. */
export function generateBackupCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < BACKUP_CODE_COUNT) codes.add(generateId(BACKUP_CODE_LENGTH));
  return [...codes];
}

export const hashBackupCode = storedValueHash;

export const backupCodeData = (codes: readonly string[]): UserMfaVerificationData => ({
  codes: codes.map((code) => ({ hash: hashBackupCode(code), used: false })),
});

/** The user's verifications of one type (at most one for Totp and BackupCode). */
export function findUserMfaVerifications(tenant: TenantDb, userId: string, type?: MfaFactor) {
  const ofUser = eq(userMfaVerifications.userId, userId);
  return tenant.findMany(userMfaVerifications, {
    where: type ? and(ofUser, eq(userMfaVerifications.type, type)) : ofUser,
  });
}

// The admin API's operations on a user's MFA factors: list, create (TOTP or backup codes), delete.

/** Factors are audited as part of their user, never with their secrets. */
const audited = (userId: string) => ({ type: 'User', id: userId });
const alreadyInUse = { Totp: 'user.totp_already_in_use', BackupCode: 'user.backup_code_already_in_use' } as const;

export async function listUserMfaVerifications(tenant: TenantDb, userId: string): Promise<UserMfaVerification[]> {
  await findUser(tenant, userId);
  const rows = await tenant.findMany(userMfaVerifications, {
    where: eq(userMfaVerifications.userId, userId),
    orderBy: [desc(userMfaVerifications.createdAt), desc(userMfaVerifications.id)],
  });
  return rows.map(toUserMfaVerification);
}

/**
 * Adds a TOTP factor (answering its secret and enrollment QR code) or backup codes (answering the codes, once);
 * one of each type per user, and backup codes only beside another factor. MFA is a plan feature in the cloud.
 */
export function createUserMfaVerification(
  ctx: WriteContext,
  deps: QuotaDeps,
  userId: string,
  input: UserMfaVerificationCreate,
): Promise<UserMfaVerificationCreated> {
  return performWrite(ctx, 'Admin.UserMfaVerification.Created', async (tx) => {
    const user = await findUser(tx, userId);
    // Spec §9: MFA is a plan feature (off on Free) in the cloud edition.
    await assertFeature(tx, 'mfaEnabled', deps);
    const existing = await findUserMfaVerifications(tx, userId);
    const has = (type: string) => existing.some((verification) => verification.type === type);
    let result: UserMfaVerificationCreated;
    let row: UserMfaVerificationRow;
    if (input.type === 'Totp') {
      if (has('Totp')) throw new DomainError('conflict', alreadyInUse.Totp);
      const secret = input.secret ?? generateTotpSecret();
      row = await tx.insert(userMfaVerifications, { id: generateId(), userId, type: 'Totp', data: { secret } });
      const enrollment = await totpEnrollment(secret, await totpIssuer(tx), primaryIdentifier(user));
      result = { type: 'Totp', secret, ...enrollment };
    } else {
      if (has('BackupCode')) throw new DomainError('conflict', alreadyInUse.BackupCode);
      // Backup codes stand in for a lost authenticator: without one they would be a password in ten pieces.
      if (!has('Totp') && !has('WebAuthn')) throw new DomainError('unprocessable', 'user.mfa_requires_other_factor');
      const codes = input.codes ?? generateBackupCodes();
      row = await tx.insert(userMfaVerifications, {
        id: generateId(),
        userId,
        type: 'BackupCode',
        data: backupCodeData(codes),
      });
      result = { type: 'BackupCode', codes };
    }
    return { result, entity: audited(userId), before: null, after: { id: row.id, type: row.type } };
  }).catch((error: unknown) => {
    // A concurrent creation of the same type passed the check above and lost at the partial unique index.
    throw error instanceof DomainError && error.code === 'entity.unique_integrity_violation'
      ? new DomainError('conflict', alreadyInUse[input.type])
      : error;
  });
}

export function deleteUserMfaVerification(ctx: WriteContext, userId: string, verificationId: string): Promise<void> {
  return performWrite(ctx, 'Admin.UserMfaVerification.Deleted', async (tx) => {
    // Both misses are the reference's `entity.not_found`: its user finder, then its check of the factor.
    await findUser(tx, userId);
    const [row] = await tx.delete(
      userMfaVerifications,
      allOf(eq(userMfaVerifications.userId, userId), eq(userMfaVerifications.id, verificationId)),
    );
    if (!row) throw rowNotFound();
    return { result: undefined, entity: audited(userId), before: { id: row.id, type: row.type }, after: null };
  });
}
