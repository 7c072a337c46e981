import {
  CAPTCHA_SECRET_MASK,
  type CaptchaConfig,
  type CaptchaProvider,
  type CaptchaProviderPut,
  type CaptchaProviderType,
  captchaConfigSchema,
  captchaProviderTypes,
  captchaSecretBinding,
  isEmailListEntry,
  type SignInExperience,
  type SignInExperiencePatch,
  signInExperienceSchema,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { isSameJson } from '../../components/form/json-equal.ts';
import { hasMovedDestination } from '../../components/form/masked-secrets.ts';
import type { IssueWording } from '../../components/form/schema-resolver.ts';
import type { ServerErrorMapping } from '../../components/submit/server-errors.ts';
import type securityStrings from '../../i18n/locales/en/security.json';
import type { TFunction } from '../../i18n/runtime.ts';

/**
 * The security page's form over three parts of the sign-in experience: the lockout (`sentinelPolicy`), the email
 * blocklist (`emailBlocklistPolicy`) and the captcha switch (`captchaPolicy`), plus the tenant's captcha provider
 * (`/captcha-provider`). The lists are edited as text, one entry per line. A save sends the sign-in experience's
 * objects whole, as the PATCH replaces them, after a PUT of the provider when its fields changed.
 */
export type SecurityForm = {
  sentinelPolicy: { maxAttempts: number | null; lockoutDuration: number | null };
  emailBlocklistPolicy: {
    blockDisposableAddresses: boolean;
    blockSubaddressing: boolean;
    customBlocklist: string;
    customAllowlist: string;
  };
  captchaPolicy: { enabled: boolean };
  captcha: CaptchaFields;
};

/**
 * The provider's fields. The stored secret key is never shown: the field stays empty, and empty keeps the stored key
 * (sent as `********`) while the type is the stored one. Project ID and minimum score are reCAPTCHA Enterprise's.
 */
export type CaptchaFields = {
  type: CaptchaProviderType;
  siteKey: string;
  secretKey: string;
  projectId: string;
  minimumScore: number | null;
  verifyUrl: string;
  scriptUrl: string;
};

/** What an unset lockout means: the server's `LOCKOUT` (services/account-lockout.ts). */
export const LOCKOUT_DEFAULTS = { maxAttempts: 5, lockoutDuration: 15 } as const;
/** The schema's ranges (signInExperienceSchema's `sentinelPolicy`). */
export const MAX_ATTEMPTS_RANGE = { min: 1, max: 100 } as const;
export const LOCKOUT_DURATION_RANGE = { min: 1, max: 1440 } as const;
/** The schema's limits of each list (signInExperienceSchema's `emailBlocklistPolicy`). */
export const MAX_LIST_ENTRIES = 500;
export const MAX_ENTRY_LENGTH = 256;

export const emailLists = ['customBlocklist', 'customAllowlist'] as const;
export type EmailList = (typeof emailLists)[number];

/** reCAPTCHA Enterprise's lowest accepted score when none is set (services/captcha.ts). */
export const MINIMUM_SCORE_DEFAULT = 0.5;
/** The schema's limits (captchaConfigSchema). */
export const CAPTCHA_LIMITS = { siteKey: 256, secretKey: 1024, projectId: 128, url: 2048 } as const;

/** The provider's own addresses, shown as what an empty URL means (services/captcha.ts `defaults`). */
export const CAPTCHA_DEFAULT_URLS: Record<CaptchaProviderType, { verify: string; script: string }> = {
  Turnstile: {
    verify: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
  },
  RecaptchaEnterprise: {
    verify: 'https://recaptchaenterprise.googleapis.com/v1/projects/{projectId}/assessments',
    script: 'https://www.google.com/recaptcha/enterprise.js',
  },
};

export { captchaProviderTypes };

export const captchaTextFields = ['siteKey', 'secretKey', 'projectId', 'verifyUrl', 'scriptUrl'] as const;

export function captchaToForm(provider: CaptchaProvider | null): CaptchaFields {
  const config = provider?.config;
  return {
    type: config?.type ?? 'Turnstile',
    siteKey: config?.siteKey ?? '',
    secretKey: '',
    projectId: config?.type === 'RecaptchaEnterprise' ? config.projectId : '',
    minimumScore:
      config?.type === 'RecaptchaEnterprise' ? (config.minimumScore ?? MINIMUM_SCORE_DEFAULT) : MINIMUM_SCORE_DEFAULT,
    verifyUrl: config?.verifyUrl ?? '',
    scriptUrl: config?.scriptUrl ?? '',
  };
}

export function securityToForm(sie: SignInExperience, provider: CaptchaProvider | null): SecurityForm {
  const { sentinelPolicy, emailBlocklistPolicy, captchaPolicy } = sie;
  return {
    sentinelPolicy: {
      maxAttempts: sentinelPolicy.maxAttempts ?? LOCKOUT_DEFAULTS.maxAttempts,
      lockoutDuration: sentinelPolicy.lockoutDuration ?? LOCKOUT_DEFAULTS.lockoutDuration,
    },
    emailBlocklistPolicy: {
      blockDisposableAddresses: emailBlocklistPolicy.blockDisposableAddresses ?? false,
      blockSubaddressing: emailBlocklistPolicy.blockSubaddressing ?? false,
      customBlocklist: (emailBlocklistPolicy.customBlocklist ?? []).join('\n'),
      customAllowlist: (emailBlocklistPolicy.customAllowlist ?? []).join('\n'),
    },
    captchaPolicy: { enabled: captchaPolicy.enabled ?? false },
    captcha: captchaToForm(provider),
  };
}

/** A list's entries as typed: one per line, trimmed, blank lines left out. */
export function listEntries(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Only called with values the resolver accepted, so both numbers are set. */
export function formToPatch(values: SecurityForm): SignInExperiencePatch {
  const { sentinelPolicy, emailBlocklistPolicy } = values;
  return {
    sentinelPolicy: {
      maxAttempts: sentinelPolicy.maxAttempts ?? LOCKOUT_DEFAULTS.maxAttempts,
      lockoutDuration: sentinelPolicy.lockoutDuration ?? LOCKOUT_DEFAULTS.lockoutDuration,
    },
    emailBlocklistPolicy: {
      blockDisposableAddresses: emailBlocklistPolicy.blockDisposableAddresses,
      blockSubaddressing: emailBlocklistPolicy.blockSubaddressing,
      customBlocklist: listEntries(emailBlocklistPolicy.customBlocklist),
      customAllowlist: listEntries(emailBlocklistPolicy.customAllowlist),
    },
    captchaPolicy: { enabled: values.captchaPolicy.enabled },
  };
}

const blank = (text: string) => text.trim() === '';

/**
 * Whether the stored secret key must be typed again for a new verification URL, the address it is sent to (issue 39,
 * item 3; the schemas' `captchaSecretBinding`): the server refuses `********` with another `verifyUrl` than the
 * stored one, compared as it does (trimmed, empty for the provider's own).
 */
export const isSecretKeySentElsewhere = (captcha: CaptchaFields, stored: CaptchaProvider | null): boolean =>
  stored !== null &&
  stored.config.type === captcha.type &&
  hasMovedDestination(captchaSecretBinding, stored.config, captcha);

/** Whether the stored secret key can be kept: one is stored, for the type chosen, and it goes where it went. */
export const keepsStoredSecret = (captcha: CaptchaFields, stored: CaptchaProvider | null): boolean =>
  stored !== null &&
  stored.config.type === captcha.type &&
  !hasMovedDestination(captchaSecretBinding, stored.config, captcha);

/** Whether the admin has started a provider: any of its texts typed (the type and the score alone are defaults). */
export const isCaptchaEntered = (captcha: CaptchaFields): boolean =>
  captchaTextFields.some((field) => !blank(captcha[field]));

/** The PUT's config; only called with fields the resolver accepted. */
export function captchaConfigOf(captcha: CaptchaFields, stored: CaptchaProvider | null): CaptchaConfig {
  const secretKey =
    blank(captcha.secretKey) && keepsStoredSecret(captcha, stored) ? CAPTCHA_SECRET_MASK : captcha.secretKey.trim();
  const urls = {
    ...(blank(captcha.verifyUrl) ? {} : { verifyUrl: captcha.verifyUrl.trim() }),
    ...(blank(captcha.scriptUrl) ? {} : { scriptUrl: captcha.scriptUrl.trim() }),
  };
  const common = { siteKey: captcha.siteKey.trim(), secretKey, ...urls };
  if (captcha.type === 'Turnstile') return { type: 'Turnstile', ...common };
  return {
    type: 'RecaptchaEnterprise',
    ...common,
    projectId: captcha.projectId.trim(),
    minimumScore: captcha.minimumScore ?? MINIMUM_SCORE_DEFAULT,
  };
}

/**
 * What to PUT, or undefined when the provider is as stored (or none is stored and none was started). A stored
 * reCAPTCHA Enterprise provider without a score compares as its default, which the form shows.
 */
export function captchaToPut(captcha: CaptchaFields, stored: CaptchaProvider | null): CaptchaProviderPut | undefined {
  if (!stored) return isCaptchaEntered(captcha) ? { config: captchaConfigOf(captcha, null) } : undefined;
  const config = captchaConfigOf(captcha, stored);
  return isSameJson(config, captchaConfigOf(captchaToForm(stored), stored)) ? undefined : { config };
}

/** The first problem of a list's text, with the line it is on (1-based, blank lines counted as the user sees them). */
export type ListProblem =
  | { kind: 'entry_invalid'; line: number; entry: string }
  | { kind: 'entry_too_long'; line: number }
  | { kind: 'too_many_entries'; count: number };

export function listProblem(text: string): ListProblem | undefined {
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry.length > MAX_ENTRY_LENGTH) return { kind: 'entry_too_long', line: index + 1 };
    if (!isEmailListEntry(entry)) return { kind: 'entry_invalid', line: index + 1, entry };
  }
  const count = listEntries(text).length;
  return count > MAX_LIST_ENTRIES ? { kind: 'too_many_entries', count } : undefined;
}

const turnstileShape = captchaConfigSchema.options[0].shape;
const recaptchaShape = captchaConfigSchema.options[1].shape;
const sentinelShape = signInExperienceSchema.shape.sentinelPolicy.shape;
const httpUrl = turnstileShape.verifyUrl.unwrap();
const fits = (check: z.ZodType, text: string) => check.safeParse(text.trim()).success;

/** A rule the form names when a value breaks it: a key of security:errors, said with the values in `params`. */
type SecurityRule = keyof (typeof securityStrings)['errors'];
type Refuse = (path: string, rule: SecurityRule, params?: Record<string, string | number>) => void;

/** The provider's problems, by field of the form's `captcha` (none when no provider is stored or started). */
function checkCaptcha(captcha: CaptchaFields, stored: CaptchaProvider | null, refuse: Refuse): void {
  if (!stored && !isCaptchaEntered(captcha)) return;
  const at = (field: keyof CaptchaFields) => `captcha.${field}`;
  if (blank(captcha.siteKey)) refuse(at('siteKey'), 'site_key_required');
  else if (!fits(turnstileShape.siteKey, captcha.siteKey)) {
    refuse(at('siteKey'), 'too_long', { max: CAPTCHA_LIMITS.siteKey });
  }
  if (blank(captcha.secretKey)) {
    if (!keepsStoredSecret(captcha, stored)) {
      const isOtherType = stored !== null && stored.config.type !== captcha.type;
      refuse(at('secretKey'), isOtherType ? 'secret_key_new_type' : 'secret_key_required');
    }
  } else if (!fits(turnstileShape.secretKey, captcha.secretKey)) {
    refuse(at('secretKey'), 'too_long', { max: CAPTCHA_LIMITS.secretKey });
  }
  if (captcha.type === 'RecaptchaEnterprise') {
    if (blank(captcha.projectId)) refuse(at('projectId'), 'project_id_required');
    else if (!fits(recaptchaShape.projectId, captcha.projectId)) {
      refuse(at('projectId'), 'too_long', { max: CAPTCHA_LIMITS.projectId });
    }
    if (!recaptchaShape.minimumScore.unwrap().safeParse(captcha.minimumScore).success) {
      refuse(at('minimumScore'), 'minimum_score');
    }
  }
  for (const field of ['verifyUrl', 'scriptUrl'] as const) {
    if (!blank(captcha[field]) && !fits(httpUrl, captcha[field])) refuse(at(field), 'url', { max: CAPTCHA_LIMITS.url });
  }
}

/**
 * The form's rules: the shared ones of the sign-in experience (the lockout's ranges, the lists' entries) and of the
 * captcha provider, checked on what a save would send; `stored` is the provider saved now.
 */
export function securityFormSchema(stored: CaptchaProvider | null) {
  return z.custom<SecurityForm>().superRefine((values, context) => {
    const refuse: Refuse = (path, rule, params) =>
      context.addIssue({ code: 'custom', message: rule, path: path.split('.'), params });
    const { maxAttempts, lockoutDuration } = values.sentinelPolicy;
    if (!sentinelShape.maxAttempts.unwrap().safeParse(maxAttempts).success) {
      refuse('sentinelPolicy.maxAttempts', 'max_attempts', MAX_ATTEMPTS_RANGE);
    }
    if (!sentinelShape.lockoutDuration.unwrap().safeParse(lockoutDuration).success) {
      refuse('sentinelPolicy.lockoutDuration', 'lockout_duration', LOCKOUT_DURATION_RANGE);
    }
    for (const list of emailLists) {
      const problem = listProblem(values.emailBlocklistPolicy[list]);
      if (!problem) continue;
      const path = `emailBlocklistPolicy.${list}`;
      if (problem.kind === 'entry_invalid') refuse(path, problem.kind, { line: problem.line, entry: problem.entry });
      else if (problem.kind === 'entry_too_long')
        refuse(path, problem.kind, { line: problem.line, max: MAX_ENTRY_LENGTH });
      else refuse(path, problem.kind, { entries: problem.count, max: MAX_LIST_ENTRIES });
    }
    checkCaptcha(values.captcha, stored, refuse);
    // The console's own rule, not the API's: the sign-in pages ask for a captcha only with a provider (one stored, or
    // one this save sets), so the switch alone would protect nothing. The server keeps accepting the switch without a
    // provider, as its DELETE /captcha-provider documents ("the sign-in pages stop asking for a captcha, whatever
    // `captchaPolicy` says"): there the switch is a setting waiting for a provider, not a broken one.
    if (values.captchaPolicy.enabled && !stored && !isCaptchaEntered(values.captcha)) {
      refuse('captchaPolicy.enabled', 'captcha_needs_provider');
    }
  });
}

/** The rules' names, said in the interface language with their values. */
export const securityWording =
  (t: TFunction<'security'>): IssueWording =>
  (issue) =>
    issue.code === 'custom' ? t(`errors.${issue.message as SecurityRule}`, issue.params) : undefined;

const captchaFieldNames: readonly string[] = ['type', ...captchaTextFields, 'minimumScore'];

/**
 * The server's refusals of a save: a 400 listing API paths, of the sign-in experience's PATCH (such as
 * `emailBlocklistPolicy.customBlocklist.3`) or of the provider's PUT (`config.siteKey`). The page adds the console's
 * words for a secret key kept for a new verification URL (`secret_required`, `useMaskedSecretWords`).
 */
export const securityServerErrors: ServerErrorMapping<SecurityForm> = {
  paths: (apiPath) => {
    const [head, field = ''] = apiPath.split('.');
    if (head === 'config') return captchaFieldNames.includes(field) ? `captcha.${field}` : 'captcha.type';
    if (head === 'captchaPolicy') return 'captchaPolicy.enabled';
    if (head === 'sentinelPolicy') {
      return field === 'lockoutDuration' ? 'sentinelPolicy.lockoutDuration' : 'sentinelPolicy.maxAttempts';
    }
    if (head === 'emailBlocklistPolicy') {
      if (field === 'blockDisposableAddresses' || field === 'blockSubaddressing' || field === 'customAllowlist') {
        return `emailBlocklistPolicy.${field}`;
      }
      return 'emailBlocklistPolicy.customBlocklist';
    }
    return undefined;
  },
};
