import { z } from 'zod';

/** The two kinds of OIDC keys a tenant holds (reference §14 `:keyType`). */
export const oidcKeyTypes = ['private-keys', 'cookie-keys'] as const;
export type OidcKeyType = (typeof oidcKeyTypes)[number];

/** Key families a private signing key may use: RSA signs RS256, EC (P-384) signs ES384. */
export const signingKeyAlgorithms = ['RSA', 'EC'] as const;
export type SigningKeyAlgorithm = (typeof signingKeyAlgorithms)[number];

/**
 * `Current` signs (private keys) or signs cookies (cookie keys); `Previous` only verifies. The reference's casing (its
 * `OidcSigningKeyStatus`, which also has `Next` for keys rotated in with a grace period).
 */
export const oidcKeyStatuses = ['Current', 'Previous'] as const;
export type OidcKeyStatus = (typeof oidcKeyStatuses)[number];

/** A rotation keeps the new key and this many previous ones (the newest one and one before it). */
export const OIDC_KEYS_KEPT = 2;

/** What the API tells about a key: never its material. */
export const oidcKeySchema = z.object({
  id: z.string(),
  /** Milliseconds since the epoch; null for a cookie key stored before ids and dates were kept. */
  createdAt: z.number().nullable(),
  status: z.enum(oidcKeyStatuses),
  /** Private keys only. */
  signingKeyAlgorithm: z.enum(signingKeyAlgorithms).optional(),
});
export type OidcKey = z.infer<typeof oidcKeySchema>;

export const oidcKeyRotateSchema = z.strictObject({
  /** Private keys only; the current key's family when omitted. */
  signingKeyAlgorithm: z.enum(signingKeyAlgorithms).optional(),
  /**
   * The reference's delay before the new key signs. Refused, not ignored: the new key is current at once (the previous
   * one stays published), and a client that asked for a delay must not believe it got one (README, differences).
   */
  // `z.never()` has no OpenAPI form (the document failed to build): any value given is refused by the refinement.
  rotationGracePeriod: z
    .unknown()
    .refine((value) => value === undefined, {
      error: 'The new key is current at once: a grace period is not supported.',
    })
    .optional()
    .meta({ description: 'Not supported: any value is refused (400).' }),
});
export type OidcKeyRotate = z.infer<typeof oidcKeyRotateSchema>;
