import { z } from 'zod';

/** Spec §5: colors are hex #rgb or #rrggbb. */
export const hexColorRegex = /^#(?:[\dA-Fa-f]{3}|[\dA-Fa-f]{6})$/;
export const hexColorSchema = z.string().regex(hexColorRegex, 'must be a hex color (#rgb or #rrggbb)');

/** Brand colors (reference: `color` of an organization and of the sign-in experience). */
export const colorSchema = z.strictObject({
  primaryColor: hexColorSchema.optional(),
  isDarkModeEnabled: z.boolean().optional(),
  darkPrimaryColor: hexColorSchema.optional(),
});
export type Color = z.infer<typeof colorSchema>;

const imageUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);

/** Logos and favicons, light and dark (reference: `branding`); each an http(s) URL, e.g. an uploaded asset. */
export const brandingSchema = z.strictObject({
  logoUrl: imageUrlSchema.optional(),
  darkLogoUrl: imageUrlSchema.optional(),
  favicon: imageUrlSchema.optional(),
  darkFavicon: imageUrlSchema.optional(),
});
export type Branding = z.infer<typeof brandingSchema>;

/** Custom CSS of a sign-in page; 64 KiB is far more than a stylesheet of overrides needs. */
export const MAX_CUSTOM_CSS_LENGTH = 64 * 1024;
export const customCssSchema = z.string().max(MAX_CUSTOM_CSS_LENGTH);
