import { z } from 'zod';
import { languages } from '../constants.ts';
import { defaultPasswordPolicy, type PasswordPolicy, passwordPolicySchema } from '../password-policy.ts';
import { brandingSchema, customCssSchema, hexColorSchema } from './organization-branding.ts';
import { emailSchema } from './user.ts';

/** Spec §4: who may use a tenant's sign-in page for what. */
export const signInModes = ['SignIn', 'Register', 'SignInAndRegister'] as const;
export type SignInMode = (typeof signInModes)[number];

/** Spec §4: when the user must tick "I agree to the terms" (Automatic: agreeing is implied by continuing). */
export const agreeToTermsPolicies = ['Automatic', 'ManualRegistrationOnly', 'Manual'] as const;
export type AgreeToTermsPolicy = (typeof agreeToTermsPolicies)[number];

/** What a user can type to say who they are (reference `SignInIdentifier`). */
export const signInIdentifiers = ['username', 'email', 'phone'] as const;
export type SignInIdentifier = (typeof signInIdentifiers)[number];

/**
 * Spec §3: the console's sign-up identifier kinds, one choice in the form; `emailOrSms` is the identifiers
 * `['email', 'phone']` of the API and `none` is no identifier (sign-up only through social or SSO).
 */
export const signUpIdentifierKinds = ['username', 'email', 'phone', 'emailOrSms', 'none'] as const;
export type SignUpIdentifierKind = (typeof signUpIdentifierKinds)[number];

/** One way to sign in: an identifier with a password and/or a one-time code sent to it. */
export const signInMethodSchema = z.strictObject({
  identifier: z.enum(signInIdentifiers),
  password: z.boolean(),
  verificationCode: z.boolean(),
  isPasswordPrimary: z.boolean(),
});
export type SignInMethod = z.infer<typeof signInMethodSchema>;

export const signUpSchema = z.strictObject({
  identifiers: z.array(z.enum(signInIdentifiers)).max(3),
  password: z.boolean(),
  /** The email address (or phone) must be proven with a code before the account exists. */
  verify: z.boolean(),
  secondaryIdentifiers: z
    .array(
      z.strictObject({
        identifier: z.enum([...signInIdentifiers, 'emailOrPhone']),
        verify: z.boolean().optional(),
      }),
    )
    .max(4)
    .optional(),
});
export type SignUp = z.infer<typeof signUpSchema>;

export const languageInfoSchema = z.strictObject({
  autoDetect: z.boolean(),
  fallbackLanguage: z.enum(languages),
});
export type LanguageInfo = z.infer<typeof languageInfoSchema>;

/** MFA factors a sign-in experience can offer (the user-bound ones plus codes sent to the user). */
export const signInMfaFactors = [
  'Totp',
  'WebAuthn',
  'BackupCode',
  'EmailVerificationCode',
  'PhoneVerificationCode',
] as const;
export const mfaPolicies = [
  'UserControlled',
  'Mandatory',
  'PromptOnlyAtSignIn',
  'PromptAtSignInAndSignUp',
  'NoPrompt',
] as const;
export const mfaSettingsSchema = z.strictObject({
  factors: z.array(z.enum(signInMfaFactors)).max(signInMfaFactors.length),
  policy: z.enum(mfaPolicies),
  organizationRequiredMfaPolicy: z.enum(['NoPrompt', 'Mandatory']).optional(),
});
export type MfaSettings = z.infer<typeof mfaSettingsSchema>;

/** The factors a user can set up at sign-in (services/mfa-sign-in.ts): an authenticator app or a passkey. */
export const mfaSetUpFactors = ['Totp', 'WebAuthn'] as const;
/** The policies that have users without a factor set one up, so they need a factor the sign-in pages can set up. */
export const mfaPoliciesNeedingFactor = ['Mandatory', 'PromptAtSignInAndSignUp', 'PromptOnlyAtSignIn'] as const;

/** A rule across the MFA settings' fields that they break; the server refuses it as `sign_in_experiences.<rule>`. */
export type MfaSettingsProblem = 'backup_code_requires_totp' | 'mfa_policy_requires_factor';

/**
 * The MFA settings' rules across fields, one place for the server (which refuses the first) and the console (which
 * shows each at its field): backup codes are made when an app or a passkey is set up at sign-in, so alone they would
 * never be given to anyone; a policy that has users set up a factor needs one the sign-in pages can set up.
 */
export function mfaSettingsProblems(mfa: Pick<MfaSettings, 'factors' | 'policy'>): MfaSettingsProblem[] {
  const setUp = mfa.factors.some((factor) => (mfaSetUpFactors as readonly string[]).includes(factor));
  const problems: MfaSettingsProblem[] = [];
  if (mfa.factors.includes('BackupCode') && !setUp) problems.push('backup_code_requires_totp');
  if ((mfaPoliciesNeedingFactor as readonly string[]).includes(mfa.policy) && !setUp) {
    problems.push('mfa_policy_requires_factor');
  }
  return problems;
}

/**
 * Signing in with a passkey alone, no password (docs/areas/passkeys.md): `enabled` turns it on; `showPasskeyButton`
 * shows "Sign in with a passkey" on the first screen; `allowAutofill` offers the user's passkeys in the browser's
 * autofill of the identifier field (conditional mediation). With it on, a user who signed in with a password is
 * offered to create one.
 */
export const passkeySignInSchema = z.strictObject({
  enabled: z.boolean(),
  showPasskeyButton: z.boolean(),
  allowAutofill: z.boolean(),
});
export type PasskeySignIn = z.infer<typeof passkeySignInSchema>;

/**
 * The reference's username policy (`usernamePolicy`): length bounds and the character classes a username may hold,
 * checked as the reference's guard checks them (400 `guard.invalid_input`). Gatehouse stores and answers it, and its
 * sign-up applies it ({@link usernamePolicyViolation}). `caseSensitive` is taken and answered as false:
 * usernames are unique whatever their case (README 3), so the answer says what Gatehouse does
 * ({@link applySignInExperiencePatch}).
 */
export const usernamePolicySchema = z
  .strictObject({
    caseSensitive: z.boolean(),
    minLength: z.number().int().min(1).max(128),
    maxLength: z.number().int().min(1).max(128),
    allowedChars: z.strictObject({
      lowercase: z.boolean(),
      uppercase: z.boolean(),
      numbers: z.boolean(),
      underscore: z.boolean(),
    }),
  })
  .refine((policy) => policy.minLength <= policy.maxLength, {
    message: 'The minimum length cannot exceed the maximum length.',
    path: ['maxLength'],
  })
  .refine(({ allowedChars }) => allowedChars.lowercase || allowedChars.uppercase || allowedChars.underscore, {
    message: 'Allow lowercase, uppercase or underscore: a username cannot start with a digit.',
    path: ['allowedChars'],
  });
export type UsernamePolicy = z.infer<typeof usernamePolicySchema>;

/**
 * `GET /sign-in-exp/username-policy/case-sensitivity-conflicts` (the reference's): usernames that would collide if
 * compared whatever their case, grouped by their lowercase form, with the number of groups and up to `limit` of them.
 * Gatehouse keeps usernames unique whatever their case (README 3), so it has none to answer.
 */
export const usernameCaseConflictsQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'must be a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(100))
    .optional()
    .meta({ description: 'How many groups to answer at most, 1–100 (default 20).' }),
});
export const usernameCaseConflictsSchema = z.object({
  totalConflicts: z.number().int().min(0),
  samples: z.array(z.object({ usernameLower: z.string(), userIds: z.array(z.string()) })),
});
export type UsernameCaseConflicts = z.infer<typeof usernameCaseConflictsSchema>;

/** Why a username breaks a username policy: the sign-in page's message key and the reference's error code. */
export const usernamePolicyViolations = [
  'too_short',
  'too_long',
  'uppercase_not_allowed',
  'lowercase_not_allowed',
  'numbers_not_allowed',
  'underscore_not_allowed',
] as const;
export type UsernamePolicyViolation = (typeof usernamePolicyViolations)[number];

/**
 * The first rule of the policy the username breaks, in the reference's order (length, then character classes), or
 * undefined. The username's own format (`usernameSchema`: a letter or underscore first, then letters, digits or
 * underscores) is checked before, by the form.
 */
export function usernamePolicyViolation(username: string, policy: UsernamePolicy): UsernamePolicyViolation | undefined {
  if (username.length < policy.minLength) return 'too_short';
  if (username.length > policy.maxLength) return 'too_long';
  const { allowedChars } = policy;
  if (!allowedChars.uppercase && /[A-Z]/.test(username)) return 'uppercase_not_allowed';
  if (!allowedChars.lowercase && /[a-z]/.test(username)) return 'lowercase_not_allowed';
  if (!allowedChars.numbers && /\d/.test(username)) return 'numbers_not_allowed';
  if (!allowedChars.underscore && username.includes('_')) return 'underscore_not_allowed';
  return undefined;
}

/**
 * The reference's `customUiAssets`: the id and upload time of a custom sign-in UI bundle (`POST
 * /sign-in-exp/default/custom-ui-assets`, not built). Stored and answered; Gatehouse's sign-in pages do not serve one.
 */
export const customUiAssetsSchema = z
  .strictObject({ id: z.string().min(1).max(256), createdAt: z.number().int().min(0) })
  .nullable();

const urlOrNull = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .nullable();
/** The reference accepts `''` for "no URL"; it is stored as null. */
const clearableUrl = z.preprocess((value) => (value === '' ? null : value), urlOrNull);
const clearableEmail = z.preprocess((value) => (value === '' ? null : value), emailSchema.nullable());

/** Colours of the sign-in page; spec §9: the default primary colour is #6139F6. */
export const signInColorSchema = z.strictObject({
  primaryColor: hexColorSchema,
  isDarkModeEnabled: z.boolean(),
  darkPrimaryColor: hexColorSchema,
});

/** A domain name: dot-separated labels of letters, digits and inner hyphens (one label names a top-level domain). */
const domainPattern =
  /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)*[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
/** The part of an address before its `@`: no spaces, no second `@`. */
const localPartPattern = /^[^\s@]+$/;

/**
 * Whether a trimmed entry is one the email blocklist reads (server services/email-blocklist.ts): a whole address
 * (`someone@example.com`), `@example.com` (that domain and its subdomains) or a bare domain (`example.com`).
 */
export function isEmailListEntry(entry: string): boolean {
  const at = entry.indexOf('@');
  if (at === -1) return domainPattern.test(entry);
  if (at !== entry.lastIndexOf('@')) return false;
  const domain = entry.slice(at + 1);
  return (at === 0 || localPartPattern.test(entry.slice(0, at))) && domainPattern.test(domain);
}

const emailListEntrySchema = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .refine(isEmailListEntry, 'must be an address, @domain or a domain');

/** A tenant's sign-in experience (reference `SignInExperience`; the fields Gatehouse keeps). */
export const signInExperienceSchema = z.object({
  tenantId: z.string(),
  id: z.literal('default'),
  color: signInColorSchema,
  branding: brandingSchema,
  /** Hides the "Powered by Gatehouse" line under the form. */
  hideLogtoBranding: z.boolean(),
  languageInfo: languageInfoSchema,
  termsOfUseUrl: urlOrNull,
  privacyPolicyUrl: urlOrNull,
  agreeToTermsPolicy: z.enum(agreeToTermsPolicies),
  signIn: z.strictObject({ methods: z.array(signInMethodSchema).max(3) }),
  signUp: signUpSchema,
  socialSignIn: z.strictObject({ automaticAccountLinking: z.boolean().optional() }),
  socialSignInConnectorTargets: z.array(z.string().max(128)).max(50),
  signInMode: z.enum(signInModes),
  customCss: customCssSchema.nullable(),
  /** Custom HTML content per page is not rendered by Gatehouse (no user markup on sign-in pages); kept for clients. */
  customContent: z.record(z.string().max(64), z.string().max(4096)),
  passwordPolicy: passwordPolicySchema,
  mfa: mfaSettingsSchema,
  singleSignOnEnabled: z.boolean(),
  supportEmail: emailSchema.nullable(),
  supportWebsiteUrl: urlOrNull,
  unknownSessionRedirectUrl: urlOrNull,
  sentinelPolicy: z.strictObject({
    maxAttempts: z.number().int().min(1).max(100).optional(),
    lockoutDuration: z.number().int().min(1).max(1440).optional(),
  }),
  captchaPolicy: z.strictObject({ enabled: z.boolean().optional() }),
  /**
   * Which email addresses may sign up or be set by their user (services/email-blocklist.ts): disposable domains (a
   * maintained list), sub-addressing (`name+tag@`), and the tenant's own entries — an address, `@domain` (and its
   * subdomains) or a bare domain — with an allowlist that wins over the rest.
   */
  emailBlocklistPolicy: z.strictObject({
    blockDisposableAddresses: z.boolean().optional(),
    blockSubaddressing: z.boolean().optional(),
    customAllowlist: z.array(emailListEntrySchema).max(500).optional(),
    customBlocklist: z.array(emailListEntrySchema).max(500).optional(),
  }),
  forgotPasswordMethods: z.array(z.enum(['EmailVerificationCode', 'PhoneVerificationCode'])).nullable(),
  passkeySignIn: passkeySignInSchema,
  customUiAssets: customUiAssetsSchema,
  usernamePolicy: usernamePolicySchema,
});
export type SignInExperience = z.infer<typeof signInExperienceSchema>;

/** The stored part: everything but the ids. */
export type SignInExperienceSettings = Omit<SignInExperience, 'tenantId' | 'id'>;

/** The password policy as PATCH takes it: any part, the rest from the current policy. */
export const passwordPolicyPatchSchema = z.strictObject({
  length: z
    .strictObject({
      min: z.number().int().min(1).max(256).optional(),
      max: z.number().int().min(1).max(256).optional(),
    })
    .optional(),
  characterTypes: z.strictObject({ min: z.number().int().min(1).max(4) }).optional(),
  rejects: z
    .strictObject({
      pwned: z.boolean().optional(),
      repetitionAndSequence: z.boolean().optional(),
      userInfo: z.boolean().optional(),
      words: z.array(z.string().min(1).max(128)).max(500).optional(),
    })
    .optional(),
});
export type PasswordPolicyPatch = z.infer<typeof passwordPolicyPatchSchema>;

/**
 * PATCH /api/sign-in-exp: any subset of the fields; each given one replaces the stored one, except the colour, the
 * branding and the password policy, which are merged into the stored ones. URLs and the support email take `''` or
 * null for "none".
 */
export const signInExperiencePatchSchema = z.strictObject({
  color: signInColorSchema.partial().optional(),
  branding: brandingSchema.optional(),
  hideLogtoBranding: z.boolean().optional(),
  languageInfo: languageInfoSchema.optional(),
  termsOfUseUrl: clearableUrl.optional(),
  privacyPolicyUrl: clearableUrl.optional(),
  agreeToTermsPolicy: z.enum(agreeToTermsPolicies).optional(),
  signIn: z.strictObject({ methods: z.array(signInMethodSchema).max(3) }).optional(),
  signUp: signUpSchema.optional(),
  socialSignIn: z.strictObject({ automaticAccountLinking: z.boolean().optional() }).optional(),
  socialSignInConnectorTargets: z.array(z.string().max(128)).max(50).optional(),
  signInMode: z.enum(signInModes).optional(),
  customCss: customCssSchema.nullable().optional(),
  customContent: z.record(z.string().max(64), z.string().max(4096)).optional(),
  passwordPolicy: passwordPolicyPatchSchema.optional(),
  mfa: mfaSettingsSchema.optional(),
  singleSignOnEnabled: z.boolean().optional(),
  supportEmail: clearableEmail.optional(),
  supportWebsiteUrl: clearableUrl.optional(),
  unknownSessionRedirectUrl: clearableUrl.optional(),
  sentinelPolicy: signInExperienceSchema.shape.sentinelPolicy.optional(),
  captchaPolicy: signInExperienceSchema.shape.captchaPolicy.optional(),
  emailBlocklistPolicy: signInExperienceSchema.shape.emailBlocklistPolicy.optional(),
  forgotPasswordMethods: signInExperienceSchema.shape.forgotPasswordMethods.optional(),
  passkeySignIn: passkeySignInSchema.partial().optional(),
  /** Replaced whole, as the reference's guard takes it. */
  customUiAssets: customUiAssetsSchema.optional(),
  usernamePolicy: usernamePolicySchema.optional(),
});
export type SignInExperiencePatch = z.infer<typeof signInExperiencePatchSchema>;

/** Spec §9 defaults; a new tenant signs users in by username and password, and anyone may register. */
export const defaultSignInExperience: SignInExperienceSettings = {
  color: { primaryColor: '#6139F6', isDarkModeEnabled: false, darkPrimaryColor: '#8768F8' },
  branding: {},
  hideLogtoBranding: false,
  languageInfo: { autoDetect: true, fallbackLanguage: 'en' },
  termsOfUseUrl: null,
  privacyPolicyUrl: null,
  agreeToTermsPolicy: 'ManualRegistrationOnly',
  signIn: {
    methods: [
      { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
      { identifier: 'email', password: true, verificationCode: false, isPasswordPrimary: true },
    ],
  },
  signUp: { identifiers: ['username'], password: true, verify: false, secondaryIdentifiers: [] },
  socialSignIn: {},
  socialSignInConnectorTargets: [],
  signInMode: 'SignInAndRegister',
  customCss: null,
  customContent: {},
  passwordPolicy: defaultPasswordPolicy,
  mfa: { factors: [], policy: 'UserControlled' },
  singleSignOnEnabled: false,
  supportEmail: null,
  supportWebsiteUrl: null,
  unknownSessionRedirectUrl: null,
  sentinelPolicy: {},
  captchaPolicy: {},
  emailBlocklistPolicy: {},
  forgotPasswordMethods: null,
  passkeySignIn: { enabled: false, showPasskeyButton: true, allowAutofill: true },
  customUiAssets: null,
  /** The reference's default policy (any length to 128, every character class), case-insensitive as Gatehouse is. */
  usernamePolicy: {
    caseSensitive: false,
    minLength: 1,
    maxLength: 128,
    allowedChars: { lowercase: true, uppercase: true, numbers: true, underscore: true },
  },
};

/** A password policy with a patch applied. */
export function mergePasswordPolicy(policy: PasswordPolicy, patch: PasswordPolicyPatch = {}): PasswordPolicy {
  return {
    length: { ...policy.length, ...patch.length },
    characterTypes: { ...policy.characterTypes, ...patch.characterTypes },
    rejects: { ...policy.rejects, ...patch.rejects },
  };
}

/** The settings with a patch applied (validity across fields is checked by the server, which knows the senders). */
export function applySignInExperiencePatch(
  settings: SignInExperienceSettings,
  patch: SignInExperiencePatch,
): SignInExperienceSettings {
  const { color, branding, passwordPolicy, passkeySignIn, ...rest } = patch;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  return {
    ...settings,
    ...defined,
    color: { ...settings.color, ...color },
    branding: branding ?? settings.branding,
    passwordPolicy: mergePasswordPolicy(settings.passwordPolicy, passwordPolicy),
    passkeySignIn: { ...settings.passkeySignIn, ...passkeySignIn },
    // Usernames are unique whatever their case (README 3): a client asking for case-sensitive ones reads false back.
    usernamePolicy: { ...(patch.usernamePolicy ?? settings.usernamePolicy), caseSensitive: false },
  } as SignInExperienceSettings;
}

/** The console's one choice of sign-up identifiers, from the API's list. */
export function signUpIdentifierKindOf(identifiers: readonly SignInIdentifier[]): SignUpIdentifierKind {
  const set = new Set(identifiers);
  if (set.has('email') && set.has('phone')) return 'emailOrSms';
  if (set.has('email')) return 'email';
  if (set.has('phone')) return 'phone';
  if (set.has('username')) return 'username';
  return 'none';
}

/** The API's list of sign-up identifiers for the console's choice. */
export function signUpIdentifiersOf(kind: SignUpIdentifierKind): SignInIdentifier[] {
  if (kind === 'emailOrSms') return ['email', 'phone'];
  if (kind === 'none') return [];
  return [kind];
}

/** Custom phrases: per language, a flat map of sign-in page string keys to the tenant's own wording. */
export const customPhraseTranslationSchema = z.record(z.string().min(1).max(128), z.string().max(1024));

/** A well-formed BCP 47 language tag (RFC 5646) in its canonical form (`en-us` → `en-US`), else undefined. */
export function canonicalLanguageTag(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * The language of custom phrases: any well-formed BCP 47 tag (the reference takes any of its language tags, not only
 * the console's 16 languages), at most 35 characters (RFC 5646 §4.4.1). Stored in its canonical form.
 */
export const phraseLanguageTagSchema = z
  .string()
  .min(2)
  .max(35)
  .refine((tag) => canonicalLanguageTag(tag) !== undefined, 'must be a BCP 47 language tag');

export const customPhraseSchema = z.object({
  tenantId: z.string(),
  id: z.string(),
  languageTag: z.string(),
  translation: customPhraseTranslationSchema,
});
export type CustomPhrase = z.infer<typeof customPhraseSchema>;

/** POST /api/sign-in-exp/default/check-password. */
export const checkPasswordBodySchema = z.strictObject({
  password: z.string().max(4096),
  userId: z.string().max(12).optional(),
});
export const checkPasswordResultSchema = z.union([
  z.object({ result: z.literal(true) }),
  z.object({
    result: z.literal(false),
    issues: z.array(z.object({ code: z.string(), interpolation: z.record(z.string(), z.unknown()).optional() })),
  }),
]);

/** The end-user screens the console's live preview can show. */
export const previewScreens = ['sign_in', 'register', 'identifier', 'forgot_password', 'verification_code'] as const;
export type PreviewScreen = (typeof previewScreens)[number];

/** POST /api/sign-in-exp/preview: unsaved settings to show; answers a short-lived page address for an iframe. */
export const signInPreviewBodySchema = z.strictObject({ settings: signInExperiencePatchSchema });
export const signInPreviewResultSchema = z.object({ url: z.string(), expiresAt: z.number() });

/**
 * A third-party application's own branding on its consent page (reference `/applications/{id}/sign-in-experience`):
 * the name users see, its logos and colours, its terms and privacy links.
 */
export const applicationSignInExperienceSchema = z.object({
  tenantId: z.string(),
  applicationId: z.string(),
  displayName: z.string().max(256).nullable(),
  color: signInColorSchema.partial(),
  branding: brandingSchema,
  termsOfUseUrl: urlOrNull,
  privacyPolicyUrl: urlOrNull,
});
export type ApplicationSignInExperience = z.infer<typeof applicationSignInExperienceSchema>;
export const applicationSignInExperienceInputSchema = z.strictObject({
  displayName: z.preprocess((value) => (value === '' ? null : value), z.string().trim().max(256).nullable()).optional(),
  color: signInColorSchema.partial().optional(),
  branding: brandingSchema.optional(),
  termsOfUseUrl: clearableUrl.optional(),
  privacyPolicyUrl: clearableUrl.optional(),
});
export type ApplicationSignInExperienceInput = z.infer<typeof applicationSignInExperienceInputSchema>;

/** `/configs/oidc/session`: how long a sign-in session at the provider lasts, in seconds (reference: 1 to 1 year). */
export const DEFAULT_SESSION_TTL_SECONDS = 14 * 24 * 60 * 60;
export const oidcSessionConfigSchema = z.object({ ttl: z.number().int().min(1).max(31_536_000) });
export type OidcSessionConfig = z.infer<typeof oidcSessionConfigSchema>;
export const oidcSessionConfigPatchSchema = z.strictObject({ ttl: oidcSessionConfigSchema.shape.ttl });
