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
  /** WebAuthn only: the passkey's name (given by its user, or the browser and system it was made on). */
  name: z.string().optional(),
  /** WebAuthn only: the browser's user agent when the passkey was made. */
  agent: z.string().optional(),
  /** WebAuthn only: whether the passkey is synced between the user's devices (backed up) or bound to one device. */
  backedUp: z.boolean().optional(),
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

/** A passkey's name, as its user gives it. */
export const webAuthnNameSchema = z.string().trim().min(1).max(64);

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'base64url');

/**
 * What the browser answers `navigator.credentials.create()` with, as JSON (WebAuthn L3 `toJSON()`,
 * `RegistrationResponseJSON`): bounded here, verified by the server (services/passkeys.ts).
 */
export const webAuthnRegistrationResponseSchema = z.object({
  id: base64url(1366),
  rawId: base64url(1366),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(65536),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type WebAuthnRegistrationResponse = z.infer<typeof webAuthnRegistrationResponseSchema>;

/** What the browser answers `navigator.credentials.get()` with, as JSON (`AuthenticationResponseJSON`). */
export const webAuthnAuthenticationResponseSchema = z.object({
  id: base64url(1366),
  rawId: base64url(1366),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(8192),
    signature: base64url(8192),
    userHandle: base64url(512).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type WebAuthnAuthenticationResponse = z.infer<typeof webAuthnAuthenticationResponseSchema>;

/**
 * The 'me' API's start of a passkey registration: the options for `navigator.credentials.create()` (the
 * `PublicKeyCredentialCreationOptionsJSON` of WebAuthn L3) and a ticket, signed by the server, that carries the
 * challenge back with the answer (valid 5 minutes).
 */
export const meWebAuthnRegistrationSchema = z.object({
  options: z.record(z.string(), z.unknown()),
  ticket: z.string(),
});
export type MeWebAuthnRegistration = z.infer<typeof meWebAuthnRegistrationSchema>;

/** The 'me' API's start of an authenticator app's setup: the new key, its QR code, and a ticket carrying it back. */
export const meTotpSecretSchema = z.object({
  secret: z.string(),
  secretQrCode: z.string(),
  otpauthUri: z.string(),
  ticket: z.string(),
});
export type MeTotpSecret = z.infer<typeof meTotpSecretSchema>;

/** A console account adds a factor: a passkey the browser made, or an authenticator app proven by a code. */
export const meMfaVerificationCreateSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('WebAuthn'),
    ticket: z.string().min(1).max(4096),
    name: webAuthnNameSchema.optional(),
    response: webAuthnRegistrationResponseSchema,
  }),
  z.object({
    type: z.literal('Totp'),
    ticket: z.string().min(1).max(4096),
    code: z.string().regex(/^\d{6}$/, 'A 6-digit code'),
  }),
]);
export type MeMfaVerificationCreate = z.input<typeof meMfaVerificationCreateSchema>;

/** The answer to a factor added from the 'me' API: the factor, and backup codes (shown once) when it made them. */
export const meMfaVerificationCreatedSchema = z.object({
  verification: userMfaVerificationSchema,
  backupCodes: z.array(z.string()).optional(),
});
export type MeMfaVerificationCreated = z.infer<typeof meMfaVerificationCreatedSchema>;

/** Renaming a passkey (the 'me' API and the management API). */
export const userMfaVerificationPatchSchema = z.strictObject({ name: webAuthnNameSchema });
