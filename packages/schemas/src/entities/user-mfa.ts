import { z } from 'zod';
import { idSchema } from '../ids.ts';

/** Spec §4: the MFA factors a user can hold. */
export const mfaFactors = ['Totp', 'WebAuthn', 'BackupCode'] as const;
export type MfaFactor = (typeof mfaFactors)[number];

/** A set of backup codes has this many codes, each of this many lowercase letters and digits. */
export const BACKUP_CODE_COUNT = 10;
export const BACKUP_CODE_LENGTH = 10;
export const backupCodeRegex = /^[0-9a-z]{10}$/;

/** A TOTP secret in RFC 4648 base32 without padding (any case, stored upper case), 80 to 320 bits. */
export const totpSecretSchema = z
  .string()
  .regex(/^[2-7A-Za-z]{16,64}$/, 'A base32 secret of 16 to 64 characters (A–Z, 2–7)')
  .transform((secret) => secret.toUpperCase());

export const backupCodesSchema = z
  .array(z.string().regex(backupCodeRegex, 'A code is 10 lowercase letters or digits'))
  .length(BACKUP_CODE_COUNT)
  .refine((codes) => new Set(codes).size === codes.length, 'The codes must be different from each other');

/** One MFA verification of a user as the management API lists it: never its secret or codes. */
export const userMfaVerificationSchema = z.object({
  id: idSchema,
  type: z.enum(mfaFactors),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
  /** Backup codes only: how many are still unused. */
  remainCodes: z.number().int().min(0).optional(),
});
export type UserMfaVerification = z.infer<typeof userMfaVerificationSchema>;

/** An admin can add a TOTP factor or backup codes; WebAuthn needs the user's own authenticator. */
export const userMfaVerificationCreateSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Totp'), secret: totpSecretSchema.optional() }),
  z.object({ type: z.literal('BackupCode'), codes: backupCodesSchema.optional() }),
]);
export type UserMfaVerificationCreate = z.input<typeof userMfaVerificationCreateSchema>;

/** The answer to a creation: the only time the secret or the codes are shown. */
export const userMfaVerificationCreatedSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('Totp'),
    secret: z.string(),
    /** `data:image/svg+xml;base64,…`: a QR code of `otpauthUri` for authenticator apps. */
    secretQrCode: z.string(),
    otpauthUri: z.string(),
  }),
  z.object({ type: z.literal('BackupCode'), codes: z.array(z.string()) }),
]);
export type UserMfaVerificationCreated = z.infer<typeof userMfaVerificationCreatedSchema>;
