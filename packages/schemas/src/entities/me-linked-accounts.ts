import { z } from 'zod';
import { connectorIdSchema } from './connector.ts';
import { emailRegex } from './user.ts';

/**
 * The cloud profile's linked accounts (issue 42, spec §2.12, §4, §7): the account's email, proven by a code sent to
 * the new address, and its social identities, linked through a popup that lands on the console's `/handle-social`.
 */

/** Spec §4 browser storage "linking social connector": the connector id, stored before the popup opens. */
export const LINKING_SOCIAL_CONNECTOR_STORAGE_KEY = 'gatehouse:linking-social-connector';
/** Spec §9: the random state of social linking has 8 characters. */
export const SOCIAL_LINKING_STATE_LENGTH = 8;
/** Spec §7: the linking popup is 600 by 640. */
export const SOCIAL_LINKING_POPUP_SIZE = { width: 600, height: 640 } as const;

/** Spec §5's email rule, after trimming what a paste may bring along. */
const newEmailSchema = z.string().trim().max(128).regex(emailRegex);

/** Six digits, as every emailed code (spaces a user may paste are dropped). */
const codeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { message: 'Enter the 6 digits of the code.' });

/** `POST /api/me/email/link/verification-code`: the new address a code goes to. */
export const meEmailLinkCodeSchema = z.strictObject({ email: newEmailSchema });
export type MeEmailLinkCode = z.infer<typeof meEmailLinkCodeSchema>;

/** `POST /api/me/email`: the new address, the code it received, and proof of the password when there is one. */
export const meEmailChangeSchema = z.strictObject({
  email: newEmailSchema,
  code: codeSchema,
  verificationRecordId: z
    .string()
    .max(4096)
    .optional()
    .describe('From POST /password/verify; needed when the account has a password.'),
});
export type MeEmailChange = z.infer<typeof meEmailChangeSchema>;

/** What the account holds of a provider's account: enough to tell the user which one is linked. */
export const meSocialIdentitySchema = z.object({
  /** The user's id at the provider. */
  userId: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
});
export type MeSocialIdentity = z.infer<typeof meSocialIdentitySchema>;

/** Spec §3 "a social connector as shown to users", with the account's identity through it, if any. */
export const meSocialConnectorSchema = z.object({
  id: z.string(),
  target: z.string(),
  /** By language; the console shows its language's, else English. */
  name: z.record(z.string(), z.string()),
  logo: z.string(),
  logoDark: z.string().nullable(),
  identity: meSocialIdentitySchema.nullable(),
});
export type MeSocialConnector = z.infer<typeof meSocialConnectorSchema>;

/** `POST /api/me/social/authorization-uri` (spec §7). */
export const meSocialAuthorizationRequestSchema = z.strictObject({
  connectorId: connectorIdSchema,
  /** The console's random state (8 characters); the provider sends it back. */
  state: z
    .string()
    .min(SOCIAL_LINKING_STATE_LENGTH)
    .max(64)
    .regex(/^[\w-]+$/),
  /** The console's own `/handle-social` address; any other is refused. */
  redirectUri: z.string().max(2048),
});
export type MeSocialAuthorizationRequest = z.infer<typeof meSocialAuthorizationRequestSchema>;

export const meSocialAuthorizationSchema = z.object({ redirectTo: z.string() });
export type MeSocialAuthorization = z.infer<typeof meSocialAuthorizationSchema>;

/** `POST /api/me/social/link-identity` (spec §7): every query parameter of the landing page, plus `redirectUri`. */
export const meSocialLinkSchema = z.strictObject({
  connectorId: connectorIdSchema,
  connectorData: z
    .record(z.string().max(64), z.string().max(4096))
    .refine((data) => Object.keys(data).length <= 32, { message: 'At most 32 parameters.' })
    .refine((data) => typeof data.redirectUri === 'string', { message: 'redirectUri is required.' }),
});
export type MeSocialLink = z.infer<typeof meSocialLinkSchema>;
