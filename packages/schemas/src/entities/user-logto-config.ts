import { z } from 'zod';

/**
 * A user's sign-in preferences as the reference exposes them (`/users/{userId}/logto-configs`, its `logtoConfig`):
 * the MFA flags and whether the offer of a passkey was declined for good.
 */

export const userLogtoConfigSchema = z.object({
  mfa: z.object({
    /** Whether the user turned MFA on themselves; absent when never said (stored as given). */
    enabled: z.boolean().optional(),
    /** Whether the user chose "Skip for now" at an MFA setup prompt: the prompting policies do not ask again. */
    skipped: z.boolean(),
    /** Whether the user asked to skip MFA verification at sign-in (stored as given; a held factor is still asked). */
    skipMfaOnSignIn: z.boolean(),
  }),
  passkeySignIn: z.object({
    /** Whether the user declined the offer of a passkey after a password sign-in, in every browser. */
    skipped: z.boolean(),
  }),
});
export type UserLogtoConfig = z.infer<typeof userLogtoConfigSchema>;

/** `PATCH /users/{userId}/logto-configs`: only the fields given change. */
export const userLogtoConfigPatchSchema = z.strictObject({
  mfa: z
    .strictObject({
      enabled: z.boolean().optional(),
      skipped: z.boolean().optional(),
      skipMfaOnSignIn: z.boolean().optional(),
    })
    .optional(),
  passkeySignIn: z.strictObject({ skipped: z.boolean().optional() }).optional(),
});
export type UserLogtoConfigPatch = z.infer<typeof userLogtoConfigPatchSchema>;

/** What `users.logto_config` keeps: the flags Gatehouse has no column of its own for (`mfa.skipped` has one). */
export type StoredUserLogtoConfig = {
  mfa?: { enabled?: boolean; skipMfaOnSignIn?: boolean };
  passkeySignIn?: { skipped?: boolean };
};
