import { z } from 'zod';
import { applicationSecretNameSchema, secretExpiresAtSchema } from './application.ts';

/**
 * Personal access tokens of a user (reference: `/users/{userId}/personal-access-tokens`). A token is a secret: its
 * value is answered once, by the creation; the server keeps only its SHA-256 hash, so lists and renames answer
 * {@link PERSONAL_ACCESS_TOKEN_MASK} in its place.
 */

/** Every token value starts so, so a leaked one is recognisable (secret scanners, logs). */
export const PERSONAL_ACCESS_TOKEN_PREFIX = 'pat_';
/** Random characters after the prefix: 32 of [0-9a-z], about 165 bits. */
export const PERSONAL_ACCESS_TOKEN_RANDOM_LENGTH = 32;
/** What lists and renames answer as `value`: the value cannot be read back. */
export const PERSONAL_ACCESS_TOKEN_MASK = `${PERSONAL_ACCESS_TOKEN_PREFIX}${'*'.repeat(12)}`;

/** A token's name: unique per user, 1 to 256 characters (the reference's column), outer spaces trimmed. */
export const personalAccessTokenNameSchema = applicationSecretNameSchema;

export const personalAccessTokenSchema = z.object({
  tenantId: z.string(),
  userId: z.string(),
  name: z.string(),
  /** The token itself in the creation's answer only; {@link PERSONAL_ACCESS_TOKEN_MASK} everywhere else. */
  value: z.string(),
  createdAt: z.number().int(),
  /** Epoch milliseconds, or null for a token that never expires. */
  expiresAt: z.number().int().nullable(),
});
export type PersonalAccessToken = z.infer<typeof personalAccessTokenSchema>;

export const personalAccessTokenCreateSchema = z.strictObject({
  name: personalAccessTokenNameSchema,
  /** Epoch milliseconds in the future; null or absent: never expires. */
  expiresAt: secretExpiresAtSchema,
});
export type PersonalAccessTokenCreate = z.infer<typeof personalAccessTokenCreateSchema>;

/** `PATCH …/personal-access-tokens/{name}`: the new name. */
export const personalAccessTokenPatchSchema = z.strictObject({ name: personalAccessTokenNameSchema });
/** `PATCH …/personal-access-tokens` (the reference's other form): the token by its current name, and the new one. */
export const personalAccessTokenRenameSchema = z.strictObject({
  currentName: z.string().min(1).max(256),
  name: personalAccessTokenNameSchema,
});
/** `POST …/personal-access-tokens/delete`: the token to delete, by name. */
export const personalAccessTokenDeleteSchema = z.strictObject({ name: z.string().min(1).max(256) });
