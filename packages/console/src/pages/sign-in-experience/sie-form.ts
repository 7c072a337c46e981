import {
  type AgreeToTermsPolicy,
  agreeToTermsPolicies,
  defaultSignInExperience,
  emailSchema,
  hexColorSchema,
  type Language,
  languages,
  MAX_CUSTOM_CSS_LENGTH,
  type PasskeySignIn,
  type SignInExperience,
  type SignInExperiencePatch,
  type SignInMethod,
  type SignInMode,
  type SignUpIdentifierKind,
  signInExperiencePatchSchema,
  signInModes,
  signUpIdentifierKindOf,
  signUpIdentifierKinds,
  signUpIdentifiersOf,
} from '@gatehouse/schemas';
import { z } from 'zod';
import type { IssueWording } from '../../components/form/schema-resolver.ts';
import type { ServerErrorMapping } from '../../components/submit/server-errors.ts';
import type { TFunction } from '../../i18n/runtime.ts';

/**
 * One form over the whole sign-in experience (spec §2.2 sign-in-experience), shared by the four tabs so switching tabs
 * keeps unsaved edits. Text fields hold '' for "none"; the patch sends null for them. The sign-up identifiers are the
 * console's one choice (`signUpIdentifierKindOf`), the minimum character types a select's string.
 */
export type SieForm = {
  color: { primaryColor: string; isDarkModeEnabled: boolean; darkPrimaryColor: string };
  branding: { logoUrl: string; darkLogoUrl: string; favicon: string };
  hideLogtoBranding: boolean;
  customCss: string;
  signInMode: SignInMode;
  signUp: { kind: SignUpIdentifierKind; password: boolean; verify: boolean };
  signInMethods: SignInMethod[];
  /** The targets of the social connectors the sign-in page shows, in button order. */
  socialTargets: string[];
  /** Whether the sign-in page offers enterprise SSO (users of a connector's email domains go to their IdP). */
  singleSignOnEnabled: boolean;
  /** Signing in with a passkey alone; the button and the autofill are kept while it is off. */
  passkeySignIn: PasskeySignIn;
  termsOfUseUrl: string;
  privacyPolicyUrl: string;
  agreeToTermsPolicy: AgreeToTermsPolicy;
  languageInfo: { autoDetect: boolean; fallbackLanguage: Language };
  supportEmail: string;
  supportWebsiteUrl: string;
  passwordPolicy: {
    length: { min: number | null; max: number | null };
    characterTypes: { min: '1' | '2' | '3' | '4' };
    rejects: { pwned: boolean; repetitionAndSequence: boolean; userInfo: boolean; words: string[] };
  };
};

export const sieTabs = ['branding', 'sign-up-and-sign-in', 'content', 'password-policy'] as const;
export type SieTab = (typeof sieTabs)[number];
export const characterTypeCounts = ['1', '2', '3', '4'] as const;
export const MAX_PASSWORD_LENGTH = 256;

export function sieToForm(sie: SignInExperience): SieForm {
  const policy = sie.passwordPolicy;
  return {
    color: { ...sie.color },
    branding: {
      logoUrl: sie.branding.logoUrl ?? '',
      darkLogoUrl: sie.branding.darkLogoUrl ?? '',
      favicon: sie.branding.favicon ?? '',
    },
    hideLogtoBranding: sie.hideLogtoBranding,
    customCss: sie.customCss ?? '',
    signInMode: sie.signInMode,
    signUp: {
      kind: signUpIdentifierKindOf(sie.signUp.identifiers),
      password: sie.signUp.password,
      verify: sie.signUp.verify,
    },
    signInMethods: sie.signIn.methods.map((method) => ({ ...method })),
    socialTargets: [...sie.socialSignInConnectorTargets],
    singleSignOnEnabled: sie.singleSignOnEnabled,
    // The defaults fill a setting an older server leaves out.
    passkeySignIn: { ...defaultSignInExperience.passkeySignIn, ...sie.passkeySignIn },
    termsOfUseUrl: sie.termsOfUseUrl ?? '',
    privacyPolicyUrl: sie.privacyPolicyUrl ?? '',
    agreeToTermsPolicy: sie.agreeToTermsPolicy,
    languageInfo: { ...sie.languageInfo },
    supportEmail: sie.supportEmail ?? '',
    supportWebsiteUrl: sie.supportWebsiteUrl ?? '',
    passwordPolicy: {
      length: { ...policy.length },
      characterTypes: { min: String(Math.min(4, Math.max(1, policy.characterTypes.min))) as '1' },
      rejects: { ...policy.rejects, words: policy.rejects.words.length ? [...policy.rejects.words] : [''] },
    },
  };
}

const orNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());
const orUndefined = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim());

/**
 * The PATCH for the form's values. `saved` keeps what the form does not edit in the fields it sends whole (the dark
 * favicon in the branding, the secondary sign-up identifiers).
 */
export function formToPatch(values: SieForm, saved?: SignInExperience): SignInExperiencePatch {
  const { min, max } = values.passwordPolicy.length;
  return {
    color: {
      primaryColor: values.color.primaryColor.trim(),
      isDarkModeEnabled: values.color.isDarkModeEnabled,
      darkPrimaryColor: values.color.darkPrimaryColor.trim(),
    },
    branding: Object.fromEntries(
      Object.entries({
        ...saved?.branding,
        logoUrl: orUndefined(values.branding.logoUrl),
        darkLogoUrl: orUndefined(values.branding.darkLogoUrl),
        favicon: orUndefined(values.branding.favicon),
      }).filter(([, value]) => value !== undefined),
    ),
    hideLogtoBranding: values.hideLogtoBranding,
    customCss: values.customCss.trim() === '' ? null : values.customCss,
    signInMode: values.signInMode,
    signUp: {
      identifiers: signUpIdentifiersOf(values.signUp.kind),
      password: values.signUp.password,
      verify: values.signUp.verify,
      ...(saved?.signUp.secondaryIdentifiers ? { secondaryIdentifiers: saved.signUp.secondaryIdentifiers } : {}),
    },
    // The method's own fields only: a row of the form's list also carries its key (useFieldArray's `id`), which the
    // API refuses as an unknown key (issue 40 item 1).
    signIn: {
      methods: values.signInMethods.map(({ identifier, password, verificationCode, isPasswordPrimary }) => ({
        identifier,
        password,
        verificationCode,
        isPasswordPrimary,
      })),
    },
    socialSignInConnectorTargets: [...values.socialTargets],
    singleSignOnEnabled: values.singleSignOnEnabled,
    passkeySignIn: {
      enabled: values.passkeySignIn.enabled,
      showPasskeyButton: values.passkeySignIn.showPasskeyButton,
      allowAutofill: values.passkeySignIn.allowAutofill,
    },
    termsOfUseUrl: orNull(values.termsOfUseUrl),
    privacyPolicyUrl: orNull(values.privacyPolicyUrl),
    agreeToTermsPolicy: values.agreeToTermsPolicy,
    languageInfo: { ...values.languageInfo },
    supportEmail: orNull(values.supportEmail),
    supportWebsiteUrl: orNull(values.supportWebsiteUrl),
    passwordPolicy: {
      length: { ...(min === null ? {} : { min }), ...(max === null ? {} : { max }) },
      characterTypes: { min: Number(values.passwordPolicy.characterTypes.min) },
      rejects: {
        ...values.passwordPolicy.rejects,
        words: values.passwordPolicy.rejects.words.map((word) => word.trim()).filter(Boolean),
      },
    },
  };
}

/**
 * What the live preview may show while the form is being edited: the patch without the fields whose value is not
 * valid yet (a colour half typed), so the preview keeps showing the rest of the changes.
 */
export function previewPatch(values: SieForm, saved?: SignInExperience): SignInExperiencePatch {
  const patch = formToPatch(values, saved);
  const shape = signInExperiencePatchSchema.shape;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'color') {
      const color = Object.fromEntries(
        Object.entries(value as object).filter(
          ([part, partValue]) => shape.color.unwrap().shape[part as 'primaryColor'].safeParse(partValue).success,
        ),
      );
      kept.color = color;
    } else if (shape[key as keyof typeof shape].safeParse(value).success) {
      kept[key] = value;
    }
  }
  return kept as SignInExperiencePatch;
}

const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);
const optionalUrl = z.string().refine((text) => text.trim() === '' || httpUrl.safeParse(text.trim()).success, 'url');
const lengthBound = z.number().int().min(1).max(MAX_PASSWORD_LENGTH).nullable();

/** The form's own rules: the shared schemas' (colour, URL, email, CSS size, length range) with the console's words. */
export const sieFormSchema = z
  .object({
    color: z.object({
      primaryColor: z.string().refine((text) => hexColorSchema.safeParse(text.trim()).success, 'color'),
      isDarkModeEnabled: z.boolean(),
      darkPrimaryColor: z.string().refine((text) => hexColorSchema.safeParse(text.trim()).success, 'color'),
    }),
    branding: z.object({ logoUrl: optionalUrl, darkLogoUrl: optionalUrl, favicon: optionalUrl }),
    hideLogtoBranding: z.boolean(),
    customCss: z.string().max(MAX_CUSTOM_CSS_LENGTH, 'css_too_long'),
    signInMode: z.enum(signInModes),
    signUp: z.object({ kind: z.enum(signUpIdentifierKinds), password: z.boolean(), verify: z.boolean() }),
    signInMethods: z.array(z.any()),
    socialTargets: z.array(z.string()),
    singleSignOnEnabled: z.boolean(),
    passkeySignIn: z.object({ enabled: z.boolean(), showPasskeyButton: z.boolean(), allowAutofill: z.boolean() }),
    termsOfUseUrl: optionalUrl,
    privacyPolicyUrl: optionalUrl,
    agreeToTermsPolicy: z.enum(agreeToTermsPolicies),
    languageInfo: z.object({ autoDetect: z.boolean(), fallbackLanguage: z.enum(languages) }),
    supportEmail: z
      .string()
      .refine((text) => text.trim() === '' || emailSchema.safeParse(text.trim()).success, 'email'),
    supportWebsiteUrl: optionalUrl,
    passwordPolicy: z.object({
      length: z.object({ min: lengthBound, max: lengthBound }),
      characterTypes: z.object({ min: z.enum(characterTypeCounts) }),
      rejects: z.object({
        pwned: z.boolean(),
        repetitionAndSequence: z.boolean(),
        userInfo: z.boolean(),
        words: z.array(z.string().max(128, 'word_too_long')),
      }),
    }),
  })
  .superRefine((values, context) => {
    const { min, max } = values.passwordPolicy.length;
    if (min !== null && max !== null && min > max) {
      context.addIssue({ code: 'custom', message: 'length_order', path: ['passwordPolicy', 'length', 'min'] });
    }
  });

/** The tab that shows a field, so a refusal of a field on another tab opens that tab. */
export function tabOfField(field: string): SieTab {
  if (/^(color|branding|hideLogtoBranding|customCss)\b/.test(field)) return 'branding';
  if (/^(signInMode|signUp|signInMethods|socialTargets|singleSignOnEnabled|passkeySignIn)\b/.test(field))
    return 'sign-up-and-sign-in';
  if (field.startsWith('passwordPolicy')) return 'password-policy';
  return 'content';
}

/** The schema's rules, said in the interface language ({@link sieFormSchema}'s checks carry the rule's name). */
export const sieWording =
  (t: TFunction<'sign_in_experience'>): IssueWording =>
  (issue) => {
    const field = issue.path.join('.');
    if (issue.message === 'color') return t('errors.color');
    if (issue.message === 'url') return t('errors.url');
    if (issue.message === 'email') return t('errors.email');
    if (issue.message === 'css_too_long') return t('errors.css_too_long', { max: MAX_CUSTOM_CSS_LENGTH });
    if (issue.message === 'word_too_long') return t('errors.word_too_long', { max: 128 });
    if (issue.message === 'length_order') return t('errors.length_order');
    if (field.startsWith('passwordPolicy.length')) return t('errors.length_range', { max: MAX_PASSWORD_LENGTH });
    return undefined;
  };

/** The field each rule across fields concerns (server services/sign-in-experience.ts). */
export const sieServerErrors: ServerErrorMapping<SieForm> = {
  codes: {
    'sign_in_experiences.invalid_password_length': 'passwordPolicy.length.min',
    'sign_in_experiences.username_requires_password': 'signUp.password',
    'sign_in_experiences.passwordless_requires_verify': 'signUp.verify',
    'sign_in_experiences.miss_sign_up_identifier_in_sign_in': 'signInMethods',
    'sign_in_experiences.password_sign_in_must_be_enabled': 'signInMethods',
    'sign_in_experiences.code_sign_in_must_be_enabled': 'signInMethods',
    'sign_in_experiences.at_least_one_authentication_factor': 'signInMethods',
    'sign_in_experiences.empty_sign_in_methods': 'signInMethods',
    'sign_in_experiences.duplicated_sign_in_method': 'signInMethods',
    'sign_in_experiences.enabled_connector_not_found': 'signInMethods',
  },
  paths: (apiPath) => {
    const [head, ...rest] = apiPath.split('.');
    if (head === 'signIn') return 'signInMethods';
    if (head === 'signUp') return 'signUp.kind';
    if (head === 'socialSignInConnectorTargets') return 'socialTargets';
    if (head === 'passwordPolicy') {
      if (rest[0] === 'rejects' && rest[1] === 'words') return 'passwordPolicy.rejects.words';
      return rest.length ? `passwordPolicy.${rest.slice(0, 2).join('.')}` : undefined;
    }
    if (head === 'branding' && rest[0] && ['logoUrl', 'darkLogoUrl', 'favicon'].includes(rest[0])) {
      return `branding.${rest[0]}`;
    }
    if (head === 'color' && rest[0]) return `color.${rest[0]}`;
    if (head === 'passkeySignIn') {
      return rest[0] && ['enabled', 'showPasskeyButton', 'allowAutofill'].includes(rest[0])
        ? `passkeySignIn.${rest[0]}`
        : 'passkeySignIn.enabled';
    }
    const direct = [
      'customCss',
      'termsOfUseUrl',
      'privacyPolicyUrl',
      'supportEmail',
      'supportWebsiteUrl',
      'agreeToTermsPolicy',
      'signInMode',
      'singleSignOnEnabled',
    ];
    if (head && direct.includes(head)) return head;
    if (head === 'languageInfo' && rest[0]) return `languageInfo.${rest[0]}`;
    return undefined;
  },
};
