import {
  type Branding,
  defaultSignInExperience,
  type Language,
  type PasswordRejectionCode,
  type SignInExperienceSettings,
} from '@gatehouse/schemas';
import { type SignInKey, signInText } from '../i18n/sign-in.ts';

/**
 * Everything a sign-in page needs to look like its tenant's: the language and the tenant's own wording for it (custom
 * phrases), the stylesheets (base + the tenant's theme and custom CSS), logo and favicon, the name shown in titles,
 * the footer and the terms. Built once per request by {@link signInLook}; the pages in `sign-in-page.ts` take it.
 */
export type SignInLook = {
  language: Language;
  text: (key: SignInKey, values?: Record<string, string | number>) => string;
  /** The name in "Sign in to {name}": the application's, or the product's on the console's own sign-in. */
  name: string;
  theme: 'auto' | 'light' | 'dark';
  stylesheets: readonly string[];
  favicon: string | undefined;
  logo: { light: string | undefined; dark: string | undefined };
  settings: SignInExperienceSettings;
};

export const SIGN_IN_STYLESHEET_PATH = '/interaction/assets/sign-in.css';

export type LookOptions = {
  language: Language;
  settings: SignInExperienceSettings;
  /** The tenant's wording for this language (custom phrases), over the built-in strings. */
  phrases?: Readonly<Record<string, string>>;
  name: string;
  /** The tenant's theme stylesheet (colours and custom CSS). */
  themeStylesheet?: string | undefined;
  /** The live preview forces light or dark; pages otherwise follow the system when dark mode is enabled. */
  forcedTheme?: 'light' | 'dark' | undefined;
  /** An organization's own logos (`organization_id`), over the tenant's. */
  organizationBranding?: Branding | undefined;
};

export function signInLook(options: LookOptions): SignInLook {
  const { language, settings, phrases = {} } = options;
  const branding = { ...settings.branding, ...options.organizationBranding };
  const text = (key: SignInKey, values: Record<string, string | number> = {}) => {
    const custom = phrases[key];
    return custom
      ? custom.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`))
      : signInText(language, key, values);
  };
  return {
    language,
    text,
    name: options.name,
    theme: options.forcedTheme ?? (settings.color.isDarkModeEnabled ? 'auto' : 'light'),
    stylesheets: [SIGN_IN_STYLESHEET_PATH, ...(options.themeStylesheet ? [options.themeStylesheet] : [])],
    favicon: branding.favicon,
    logo: { light: branding.logoUrl, dark: branding.darkLogoUrl },
    settings,
  };
}

/** The plain look of pages outside a tenant's interaction (the provider's error and sign-out pages). */
export const productLook = (language: Language): SignInLook =>
  signInLook({ language, settings: { ...defaultSignInExperience, hideLogtoBranding: true }, name: 'Gatehouse' });

type RejectionKey<Code> = Code extends `password_rejected.${infer Rule}` ? `rejected.${Rule}` : never;
/** `password_rejected.too_short` is shown with `rejected.too_short` (checked: every code has its string). */
const rejectionKey = (code: PasswordRejectionCode) =>
  code.replace('password_rejected.', 'rejected.') as RejectionKey<PasswordRejectionCode> satisfies SignInKey;

/** The page's line for a password the policy refused: the first reason, with the tenant's limits. */
export function passwordRejectedText(look: SignInLook, rejections: readonly PasswordRejectionCode[]): string {
  const [first = 'password_rejected.too_short'] = rejections;
  const { length, characterTypes } = look.settings.passwordPolicy;
  const reason = look.text(rejectionKey(first), {
    min: length.min,
    max: length.max,
    types: characterTypes.min,
  });
  return look.text('password_rejected', { reason });
}
