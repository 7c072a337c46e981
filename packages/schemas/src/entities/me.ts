import { z } from 'zod';
import { isCustomDataWithinLimit } from './custom-data-limit.ts';
import { usernameSchema } from './user.ts';

/** The signed-in user's own account as the 'me' API returns it (spec §7, §2.12). */
export const meSchema = z.object({
  id: z.string(),
  username: z.string().nullable(),
  primaryEmail: z.string().nullable(),
  /** The primary email was proven with a code (at sign-up or through the 'me' API); invitations need it. */
  primaryEmailVerified: z.boolean(),
  primaryPhone: z.string().nullable(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
  customData: z.record(z.string(), z.unknown()),
  identities: z.record(z.string(), z.unknown()),
  hasPassword: z.boolean(),
  lastSignInAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Me = z.infer<typeof meSchema>;

/**
 * Spec §2.12 / §7: one changed field at a time from the profile page. The name has no rule; the
 * username follows §5 and cannot be emptied; the avatar is an uploaded asset URL or cleared.
 */
export const mePatchSchema = z
  .strictObject({
    name: z.string().max(128).nullable(),
    username: usernameSchema,
    avatar: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable(),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'Nothing to change.' });
export type MePatch = z.infer<typeof mePatchSchema>;

/** The code emailed to prove the account's primary email (`POST /api/me/email/verify`). */
export const meEmailVerifySchema = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { message: 'Enter the 6 digits of the code.' }),
});
export type MeEmailVerify = z.infer<typeof meEmailVerifySchema>;

export { isCustomDataWithinLimit, MAX_CUSTOM_DATA_BYTES } from './custom-data-limit.ts';
export const customDataSchema = z
  .record(z.string(), z.unknown())
  .refine(isCustomDataWithinLimit, { message: 'Custom data is larger than 64 KiB.' });

export const passwordVerificationRequestSchema = z.strictObject({ password: z.string().min(1).max(256) });
export const passwordVerificationSchema = z.object({
  verificationRecordId: z.string(),
  expiresAt: z.number(),
});
export const passwordChangeSchema = z.strictObject({
  password: z.string().min(1).max(256),
  /** Required when the user already has a password: proof of the current one. */
  verificationRecordId: z.string().optional(),
});

export const userAssetsStatusSchema = z.object({
  status: z.enum(['ready', 'not_configured']),
  allowUploadMimeTypes: z.array(z.string()),
  maxUploadFileSize: z.number(),
});
export const userAssetSchema = z.object({ url: z.string() });
