import { z } from 'zod';
import { MASKED_SECRET } from './connector.ts';

/**
 * The tenant's captcha provider (reference `/captcha-provider`; docs/areas/security.md "Captcha"): the sign-in pages
 * show its widget and the server checks its answer when the sign-in experience's `captchaPolicy.enabled` is on.
 * `verifyUrl` and `scriptUrl` replace the provider's own addresses (a proxy, a regional endpoint, a test double); the
 * server reaches `verifyUrl` under the outbound policy like any tenant-given address.
 */
export const captchaProviderTypes = ['Turnstile', 'RecaptchaEnterprise'] as const;
export type CaptchaProviderType = (typeof captchaProviderTypes)[number];

const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);
const common = {
  siteKey: z.string().trim().min(1).max(256),
  /** Stored sealed; answered as `********`, and `********` sent back keeps the stored one. */
  secretKey: z.string().min(1).max(1024),
  verifyUrl: httpUrl.optional(),
  scriptUrl: httpUrl.optional(),
};

export const captchaConfigSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('Turnstile'), ...common }),
  z.strictObject({
    type: z.literal('RecaptchaEnterprise'),
    ...common,
    /** The Google Cloud project of the reCAPTCHA Enterprise key (its assessments are created there). */
    projectId: z.string().trim().min(1).max(128),
    /** The lowest score (0–1) an answer may have; 0.5 unless set. */
    minimumScore: z.number().min(0).max(1).optional(),
  }),
]);
export type CaptchaConfig = z.infer<typeof captchaConfigSchema>;

export const captchaProviderPutSchema = z.strictObject({ config: captchaConfigSchema });
export type CaptchaProviderPut = z.infer<typeof captchaProviderPutSchema>;

export const captchaProviderSchema = z.object({
  config: captchaConfigSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type CaptchaProvider = z.infer<typeof captchaProviderSchema>;

export { MASKED_SECRET as CAPTCHA_SECRET_MASK };

/**
 * The secret key goes to `verifyUrl` (issue 39 item 3): a PUT that keeps it by its mask while that address changes is
 * refused, so whoever may edit the provider but never saw its key cannot have it sent to a server of theirs.
 */
export const captchaSecretBinding = {
  secrets: ['secretKey'],
  destinations: ['verifyUrl'],
} as const satisfies { secrets: readonly string[]; destinations: readonly string[] };
