import { z } from 'zod';
import { paginationQuerySchema } from '../api/pagination.ts';
import { emailSchema } from './user.ts';

/**
 * One-time tokens (reference: `/one-time-tokens`): a random secret issued for an email address, valid until it
 * expires, spent once by `POST /one-time-tokens/verify`. The value is answered once, by the creation (and echoed by a
 * verification, whose caller sent it); the server keeps only its SHA-256 hash, so every other answer shows
 * {@link ONE_TIME_TOKEN_MASK} in its place.
 */

/** The reference's statuses. `expired` is also what an `active` token past its `expiresAt` answers. */
export const oneTimeTokenStatuses = ['active', 'consumed', 'revoked', 'expired'] as const;
export type OneTimeTokenStatus = (typeof oneTimeTokenStatuses)[number];
export const oneTimeTokenStatusSchema = z.enum(oneTimeTokenStatuses);

/** Random characters of a token: 32 of [0-9a-z], about 165 bits (the reference's tokens are 32 characters too). */
export const ONE_TIME_TOKEN_LENGTH = 32;
/** What answers other than the creation show as `token`: the value cannot be read back. */
export const ONE_TIME_TOKEN_MASK = '*'.repeat(12);
/** Seconds a token lives when the creation names no `expiresIn` (the reference's 10 minutes). */
export const ONE_TIME_TOKEN_DEFAULT_EXPIRES_IN = 600;
/** The longest life a token may be given: ten years (the reference has no bound; past it dates stop being valid). */
export const ONE_TIME_TOKEN_MAX_EXPIRES_IN = 10 * 365 * 24 * 60 * 60;

/** The interaction events a token may be limited to (the reference's `context.interactionEvent`). */
export const oneTimeTokenInteractionEvents = ['SignIn', 'Register', 'ForgotPassword'] as const;

/** What the token is for, stored as given (the reference's `OneTimeTokenContext`). */
export const oneTimeTokenContextSchema = z.strictObject({
  /** Organizations the user joins by just-in-time provisioning when signing in with the token. */
  jitOrganizationIds: z.array(z.string().min(1).max(256)).max(100).optional(),
  /** The only interaction the token may be used for. */
  interactionEvent: z.enum(oneTimeTokenInteractionEvents).optional(),
});
export type OneTimeTokenContext = z.infer<typeof oneTimeTokenContextSchema>;

export const oneTimeTokenSchema = z.object({
  tenantId: z.string(),
  id: z.string(),
  email: z.string(),
  /** The token itself in the creation's (and a verification's) answer only; {@link ONE_TIME_TOKEN_MASK} elsewhere. */
  token: z.string(),
  context: oneTimeTokenContextSchema,
  status: oneTimeTokenStatusSchema,
  createdAt: z.number().int(),
  /** Epoch milliseconds. */
  expiresAt: z.number().int(),
});
export type OneTimeToken = z.infer<typeof oneTimeTokenSchema>;

/** `POST /one-time-tokens`. */
export const oneTimeTokenCreateSchema = z.strictObject({
  email: emailSchema,
  /** Seconds from now; {@link ONE_TIME_TOKEN_DEFAULT_EXPIRES_IN} when absent. */
  expiresIn: z.number().min(1).max(ONE_TIME_TOKEN_MAX_EXPIRES_IN).optional(),
  context: oneTimeTokenContextSchema.optional(),
});
export type OneTimeTokenCreate = z.infer<typeof oneTimeTokenCreateSchema>;

/** `POST /one-time-tokens/verify`: the token and the email address it was issued for. */
export const oneTimeTokenVerifySchema = z.strictObject({
  token: z.string().min(1).max(256),
  email: z.string().min(1).max(128),
});
export type OneTimeTokenVerify = z.infer<typeof oneTimeTokenVerifySchema>;

/** `PUT /one-time-tokens/{id}/status`. Any status but `active` (a token is never reactivated). */
export const oneTimeTokenStatusUpdateSchema = z.strictObject({ status: oneTimeTokenStatusSchema });

/** `GET /one-time-tokens`: optional pagination (the reference's), filtered by email and status. */
export const oneTimeTokenListQuerySchema = paginationQuerySchema.extend({
  email: emailSchema.optional().meta({ description: 'Only the tokens issued for this address (exact).' }),
  status: oneTimeTokenStatusSchema.optional().meta({ description: 'Only the tokens in this status.' }),
});
export type OneTimeTokenListQuery = z.infer<typeof oneTimeTokenListQuerySchema>;
