import {
  type ApplicationSignInExperience,
  type ApplicationSignInExperienceInput,
  applicationSignInExperienceInputSchema,
  brandingSchema,
  signInColorSchema,
} from '@gatehouse/schemas';
import { z } from 'zod';

/**
 * A third-party application's consent-page branding as the form edits it: every field is text, '' for "not set"
 * (the PUT replaces the whole branding, so what is left empty is cleared).
 */
export type BrandingFormValues = {
  displayName: string;
  primaryColor: string;
  darkPrimaryColor: string;
  logoUrl: string;
  darkLogoUrl: string;
  favicon: string;
  termsOfUseUrl: string;
  privacyPolicyUrl: string;
};

export const brandingUrlFields = ['logoUrl', 'darkLogoUrl', 'favicon'] as const;
export const termsUrlFields = ['termsOfUseUrl', 'privacyPolicyUrl'] as const;
export const colorFields = ['primaryColor', 'darkPrimaryColor'] as const;

export function toBrandingForm(saved: ApplicationSignInExperience | null): BrandingFormValues {
  return {
    displayName: saved?.displayName ?? '',
    primaryColor: saved?.color.primaryColor ?? '',
    darkPrimaryColor: saved?.color.darkPrimaryColor ?? '',
    logoUrl: saved?.branding.logoUrl ?? '',
    darkLogoUrl: saved?.branding.darkLogoUrl ?? '',
    favicon: saved?.branding.favicon ?? '',
    termsOfUseUrl: saved?.termsOfUseUrl ?? '',
    privacyPolicyUrl: saved?.privacyPolicyUrl ?? '',
  };
}

const blank = (text: string) => text.trim() === '';

/** A field the form may leave blank (not set), else checked by the shared schema once trimmed. */
const optional = (check: z.ZodType) =>
  z.string().refine((text) => blank(text) || check.safeParse(text.trim()).success, 'invalid');
const image = (field: (typeof brandingUrlFields)[number]) => optional(brandingSchema.shape[field].unwrap());
const terms = applicationSignInExperienceInputSchema.shape.termsOfUseUrl;

/**
 * The form's rules are those of PUT …/sign-in-experience (spec §5 hex colours #rgb/#rrggbb, http(s) URLs, the name's
 * length), each field optional. The resolver submits the values as typed (`raw`); `toBrandingInput` makes the body.
 */
export const brandingFormSchema = z.object({
  displayName: applicationSignInExperienceInputSchema.shape.displayName,
  primaryColor: optional(signInColorSchema.shape.primaryColor),
  darkPrimaryColor: optional(signInColorSchema.shape.darkPrimaryColor),
  logoUrl: image('logoUrl'),
  darkLogoUrl: image('darkLogoUrl'),
  favicon: image('favicon'),
  termsOfUseUrl: optional(terms),
  privacyPolicyUrl: optional(terms),
});

const orUndefined = (text: string): string | undefined => (blank(text) ? undefined : text.trim());

/**
 * The PUT body: empty fields are left out or sent as '' (which clears them). The dark-mode switch and the dark
 * favicon, which the form does not edit, keep their saved values.
 */
export function toBrandingInput(
  values: BrandingFormValues,
  saved: ApplicationSignInExperience | null,
): ApplicationSignInExperienceInput {
  const color = Object.fromEntries(
    Object.entries({
      primaryColor: orUndefined(values.primaryColor),
      darkPrimaryColor: orUndefined(values.darkPrimaryColor),
      isDarkModeEnabled: saved?.color.isDarkModeEnabled,
    }).filter(([, value]) => value !== undefined),
  );
  const branding = Object.fromEntries(
    Object.entries({
      logoUrl: orUndefined(values.logoUrl),
      darkLogoUrl: orUndefined(values.darkLogoUrl),
      favicon: orUndefined(values.favicon),
      darkFavicon: saved?.branding.darkFavicon,
    }).filter(([, value]) => value !== undefined),
  );
  return {
    displayName: values.displayName.trim(),
    color,
    branding,
    termsOfUseUrl: values.termsOfUseUrl.trim(),
    privacyPolicyUrl: values.privacyPolicyUrl.trim(),
  };
}

/** The form field of an API path in a refused save (`branding.logoUrl` → `logoUrl`). */
export function brandingFormPath(apiPath: string): keyof BrandingFormValues | undefined {
  const [head, field] = apiPath.split('.');
  if (head === 'displayName' || head === 'termsOfUseUrl' || head === 'privacyPolicyUrl') return head;
  if (head === 'color' && (field === 'primaryColor' || field === 'darkPrimaryColor')) return field;
  if (head === 'branding' && (field === 'logoUrl' || field === 'darkLogoUrl' || field === 'favicon')) return field;
  return undefined;
}
