import { z } from 'zod';
import { idSchema } from '../ids.ts';
import { customDataSchema } from './me.ts';
import { idListSchema } from './role.ts';
import {
  avatarSchema,
  emailSchema,
  passwordDigestProblem,
  passwordEncryptionMethods,
  phoneSchema,
  unsupportedImportAlgorithms,
  userNameSchema,
  usernameSchema,
  userProfileSchema,
} from './user.ts';

/**
 * A password as sent: no length limit here (the 1 MiB body limit bounds it), so a long one reaches the tenant's
 * password policy and is refused with `password_rejected.too_long` (the reference's policy maximum, 256).
 */
const passwordInputSchema = z.string().min(1);

/** Request bodies of the users API (a separate module: me.ts imports user.ts, and these need me.ts). */

const identifierFields = ['username', 'primaryEmail', 'primaryPhone'] as const;
export const MISSING_IDENTIFIER_MESSAGE = 'A user needs a username, an email address or a phone number.';

/**
 * POST /users. Every field is optional but a user needs one identifier; a password is either given
 * in clear (checked against the password policy, stored as Argon2id) or imported as a digest with
 * its algorithm (verified at the first sign-in, then upgraded to Argon2id).
 */
export const userCreateSchema = z
  .strictObject({
    username: usernameSchema.optional(),
    primaryEmail: emailSchema.optional(),
    primaryPhone: phoneSchema.optional(),
    name: userNameSchema.nullable().optional(),
    avatar: avatarSchema.nullable().optional(),
    customData: customDataSchema.optional(),
    profile: userProfileSchema.optional(),
    password: passwordInputSchema.optional(),
    passwordDigest: z.string().min(1).max(256).optional(),
    passwordAlgorithm: z.enum(passwordEncryptionMethods).optional(),
  })
  .superRefine((user, ctx) => {
    if (identifierFields.every((field) => !user[field])) {
      ctx.addIssue({ code: 'custom', path: [], message: MISSING_IDENTIFIER_MESSAGE });
    }
    if (user.password !== undefined && user.passwordDigest !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Give either a password or a password digest.' });
    }
    if (user.passwordDigest !== undefined && user.passwordAlgorithm === undefined) {
      ctx.addIssue({ code: 'custom', path: ['passwordAlgorithm'], message: 'A password digest needs its algorithm.' });
    }
    if (user.passwordAlgorithm !== undefined && user.passwordDigest === undefined) {
      ctx.addIssue({ code: 'custom', path: ['passwordDigest'], message: 'The algorithm needs a password digest.' });
    }
    if (user.passwordAlgorithm !== undefined && user.passwordDigest !== undefined) {
      const problem = passwordDigestProblem(user.passwordAlgorithm, user.passwordDigest);
      const path = unsupportedImportAlgorithms.includes(user.passwordAlgorithm)
        ? 'passwordAlgorithm'
        : 'passwordDigest';
      if (problem) ctx.addIssue({ code: 'custom', path: [path], message: problem });
    }
  });
export type UserCreate = z.infer<typeof userCreateSchema>;

/** `''` clears a field like `null` does (the reference API accepts both). */
const clearable = <T extends z.ZodType>(schema: T) => z.union([z.literal('').transform(() => null), schema.nullable()]);

/** PATCH /users/{userId}: the given fields replace the stored ones (customData and profile as whole objects). */
export const userPatchSchema = z
  .strictObject({
    username: clearable(usernameSchema),
    primaryEmail: clearable(emailSchema),
    primaryPhone: clearable(phoneSchema),
    name: clearable(userNameSchema),
    avatar: clearable(avatarSchema),
    customData: customDataSchema,
    profile: userProfileSchema,
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'Nothing to change.' });
export type UserPatch = z.infer<typeof userPatchSchema>;

export const userPasswordSchema = z.strictObject({ password: passwordInputSchema });

/** PATCH /users/{userId}/profile (the reference's body): the given claims replace the stored ones, the others stay. */
export const userProfilePatchSchema = z.strictObject({ profile: userProfileSchema });
/** PATCH /users/{userId}/custom-data (the reference's body): the given top-level keys replace the stored ones. */
export const userCustomDataPatchSchema = z.strictObject({ customData: customDataSchema });

/**
 * `includePasswordHash=true` (reference) is refused: a password hash never leaves the server
 * (docs/areas/users.md). `false` is accepted, so a client sending the default still works.
 */
export const includePasswordHashSchema = z
  .enum(['true', 'false'])
  .refine((value) => value === 'false', 'Password hashes are never returned.')
  .optional()
  .meta({ description: 'Only `false`: password hashes never leave the server.' });

/** GET /users/{userId}: `includeSsoIdentities=true` adds `ssoIdentities` (none yet: enterprise SSO is not built). */
export const userGetQuerySchema = z.object({
  includeSsoIdentities: z.enum(['true', 'false', '1', '0']).optional(),
  includePasswordHash: includePasswordHashSchema,
});
export const userHasPasswordSchema = z.object({ hasPassword: z.boolean() });
export const userSuspensionSchema = z.strictObject({ isSuspended: z.boolean() });

/** A social or enterprise identity, keyed by its connector target in `identities`. */
export const userIdentitySchema = z.object({
  userId: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const userRolesAssignSchema = z.strictObject({ roleIds: idListSchema(idSchema) });
/** PUT replaces the user's roles; an empty list removes them all. */
export const userRolesReplaceSchema = z.strictObject({
  roleIds: z
    .array(idSchema)
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id'),
});
export const userRolesAssignedSchema = z.object({ roleIds: z.array(idSchema), addedRoleIds: z.array(idSchema) });
