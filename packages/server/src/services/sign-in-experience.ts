import {
  applySignInExperiencePatch,
  type CustomPhrase,
  canonicalLanguageTag,
  checkPassword,
  DomainError,
  defaultSignInExperience,
  type ErrorCode,
  type Language,
  mfaSettingsProblems,
  notFound,
  type PasswordRejectionCode,
  type PasswordUserInfo,
  type SignInExperience,
  type SignInExperiencePatch,
  type SignInExperienceSettings,
  type SignInIdentifier,
  signInExperienceSchema,
  type UsernameCaseConflicts,
} from '@gatehouse/schemas';
import { eq, inArray, like } from 'drizzle-orm';
import { tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { matchTag } from '../i18n/messages.ts';
import type { PwnedCheck } from './pwned-passwords.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * A tenant's sign-in experience (spec §3): one `tenant_configs` row holding the settings that differ from
 * {@link defaultSignInExperience}, so a tenant that never saved any follows the defaults of its version.
 */
const SETTINGS_KEY = 'signInExperience';
const storedSettingsSchema = signInExperienceSchema.omit({ tenantId: true, id: true });

/** Who can send one-time codes: the system mail service (SMTP) for email; SMS needs a connector (none yet). */
export type CodeSenders = { email: boolean; sms: boolean };

export async function readSignInExperienceSettings(tenant: TenantDb): Promise<SignInExperienceSettings> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, SETTINGS_KEY));
  if (!row) return defaultSignInExperience;
  const parsed = storedSettingsSchema.safeParse({ ...defaultSignInExperience, ...(row.value as object) });
  // A stored value this version cannot read counts as the defaults rather than breaking every sign-in page.
  return parsed.success ? parsed.data : defaultSignInExperience;
}

export async function readSignInExperience(tenant: TenantDb): Promise<SignInExperience> {
  return { tenantId: tenant.tenantId, id: 'default', ...(await readSignInExperienceSettings(tenant)) };
}

const refuse = (code: ErrorCode, data?: unknown): never => {
  throw new DomainError('invalid', code, data);
};

/**
 * The rules across fields (reference: the sign-in experience guard). Each throws `400 {code}` naming the first rule
 * broken; the console shows the message at the field it concerns.
 */
export function assertValidSignInExperience(settings: SignInExperienceSettings, senders: CodeSenders): void {
  const { passwordPolicy, signIn, signUp, signInMode } = settings;
  if (passwordPolicy.length.min > passwordPolicy.length.max) refuse('sign_in_experiences.invalid_password_length');

  const methods = new Map<SignInIdentifier, (typeof signIn.methods)[number]>();
  for (const method of signIn.methods) {
    if (methods.has(method.identifier)) refuse('sign_in_experiences.duplicated_sign_in_method');
    methods.set(method.identifier, method);
    if (!method.password && !method.verificationCode) {
      refuse('sign_in_experiences.at_least_one_authentication_factor');
    }
    // A username cannot receive a code.
    if (method.identifier === 'username' && method.verificationCode) {
      refuse('sign_in_experiences.username_requires_password');
    }
  }
  if (signInMode !== 'Register' && methods.size === 0 && !settings.singleSignOnEnabled) {
    refuse('sign_in_experiences.empty_sign_in_methods');
  }

  if (signUp.identifiers.includes('username') && !signUp.password) {
    refuse('sign_in_experiences.username_requires_password');
  }
  if (signUp.identifiers.length > 0 && !signUp.password && !signUp.verify) {
    refuse('sign_in_experiences.passwordless_requires_verify');
  }
  for (const identifier of signUp.identifiers) {
    const method = methods.get(identifier);
    if (!method) refuse('sign_in_experiences.miss_sign_up_identifier_in_sign_in');
    if (signUp.password && !method?.password) refuse('sign_in_experiences.password_sign_in_must_be_enabled');
    if (!signUp.password && !method?.verificationCode) refuse('sign_in_experiences.code_sign_in_must_be_enabled');
  }

  // Codes need a sender.
  const usesEmailCodes =
    (signUp.verify && signUp.identifiers.includes('email')) || methods.get('email')?.verificationCode === true;
  const usesSmsCodes =
    (signUp.verify && signUp.identifiers.includes('phone')) || methods.get('phone')?.verificationCode === true;
  if (usesEmailCodes && !senders.email) refuse('sign_in_experiences.enabled_connector_not_found', { type: 'Email' });
  if (usesSmsCodes && !senders.sms) refuse('sign_in_experiences.enabled_connector_not_found', { type: 'Sms' });
  // The reference's own code for forgot-password methods, naming the sender missing (`email` or `sms`).
  for (const method of settings.forgotPasswordMethods ?? []) {
    const missing = method === 'EmailVerificationCode' ? !senders.email && 'email' : !senders.sms && ('sms' as const);
    if (missing) refuse('sign_in_experiences.forgot_password_method_requires_connector', { method: missing });
  }

  // The MFA rules across fields, shared with the console's MFA form (backup codes need an app or a passkey; so does a
  // policy that has users set up a factor).
  const [mfaProblem] = mfaSettingsProblems(settings.mfa);
  if (mfaProblem) refuse(`sign_in_experiences.${mfaProblem}`);
}

/** PATCH: the patch applied to the stored settings, checked as a whole, stored and audited with before and after. */
export function patchSignInExperience(
  ctx: WriteContext,
  patch: SignInExperiencePatch,
  senders: CodeSenders,
): Promise<SignInExperience> {
  return performWrite(ctx, 'Admin.SignInExperience.Updated', async (tx) => {
    // Created first, then locked by an update to itself: concurrent patches are applied one after the other.
    await tx.insertIfAbsent(tenantConfigs, { key: SETTINGS_KEY, value: {} });
    await tx.update(tenantConfigs, eq(tenantConfigs.key, SETTINGS_KEY), { key: SETTINGS_KEY });
    const before = await readSignInExperienceSettings(tx);
    const after = applySignInExperiencePatch(before, patch);
    assertValidSignInExperience(after, senders);
    await tx.update(tenantConfigs, eq(tenantConfigs.key, SETTINGS_KEY), { value: after });
    return {
      result: { tenantId: tx.tenantId, id: 'default', ...after },
      entity: { type: 'SignInExperience', id: 'default' },
      before,
      after,
    };
  });
}

/**
 * Usernames that would collide if compared whatever their case (the reference's conflict report, before it switches
 * a tenant's policy to case-insensitive). Gatehouse's usernames are unique whatever their case (the unique index
 * `users_username_unique` is on `lower(username)`, README 3), so there is never one, whatever the limit asked: nothing to read.
 */
export function usernameCaseConflicts(): UsernameCaseConflicts {
  return { totalConflicts: 0, samples: [] };
}

/**
 * The offline rules of the tenant's password policy, then (if on and the rest passed) the pwned check. The one check
 * of every password an end user or an admin chooses.
 */
export async function passwordRejections(
  tenant: TenantDb,
  password: string,
  userInfo: PasswordUserInfo,
  pwned?: PwnedCheck,
): Promise<PasswordRejectionCode[]> {
  const { passwordPolicy } = await readSignInExperienceSettings(tenant);
  const rejections = checkPassword(password, passwordPolicy, userInfo);
  if (rejections.length === 0 && passwordPolicy.rejects.pwned && pwned && (await pwned(password))) {
    rejections.push('password_rejected.pwned');
  }
  return rejections;
}

// ——— Custom phrases ———

/**
 * Custom phrases are stored per language tag: any well-formed BCP 47 tag, in its canonical form (`customPhrase:vi-VN`).
 * A tag that is not one of the 16 built-in languages still shows on the sign-in pages (`phrasesForPage`).
 */
const PHRASE_PREFIX = 'customPhrase:';
const phraseKey = (languageTag: string) => `${PHRASE_PREFIX}${languageTag}`;

const toPhrase = (tenantId: string, languageTag: string, translation: Record<string, string>): CustomPhrase => ({
  tenantId,
  id: languageTag,
  languageTag,
  translation,
});

/**
 * The reference's phrases are nested objects; keys here are their dotted paths (`rejected.too_short`). A value that is
 * neither text nor an object of them is malformed input (400 `guard.invalid_input`, as the reference's guard answers).
 */
export function flattenTranslation(input: unknown, prefix = '', into: Record<string, string> = {}) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) refuse('guard.invalid_input');
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into[path] = value;
    else flattenTranslation(value, path, into);
  }
  return into;
}

export async function listCustomPhrases(tenant: TenantDb): Promise<CustomPhrase[]> {
  const rows = await tenant.findMany(tenantConfigs, { where: like(tenantConfigs.key, `${PHRASE_PREFIX}%`) });
  return rows
    .map((row) => [row.key.slice(PHRASE_PREFIX.length), row.value as Record<string, string>] as const)
    .filter(([languageTag]) => canonicalLanguageTag(languageTag) === languageTag)
    .map(([languageTag, translation]) => toPhrase(tenant.tenantId, languageTag, translation))
    .sort((a, b) => a.languageTag.localeCompare(b.languageTag));
}

/** The tenant's wording for one language (empty when it has none): what the sign-in pages show instead of theirs. */
export async function customPhrasesOf(tenant: TenantDb, language: Language): Promise<Record<string, string>> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, phraseKey(language)));
  return (row?.value as Record<string, string> | undefined) ?? {};
}

/** The most tags of a visitor's preferences looked at for a page (a header can list any number). */
const MAX_ASKED_TAGS = 10;

/**
 * The language and custom phrases of a sign-in page, from the visitor's language tags in order of preference (OIDC
 * `ui_locales`, then Accept-Language). The first tag the tenant has custom phrases for, or that a built-in language
 * serves (`en-US` → `en`), decides; none: the tenant's fallback language. A tag with custom phrases shows them over
 * its built-in language's strings and the tenant's phrases of that language; when no built-in language serves it
 * (`vi-VN`), over English's built-in strings, as the reference shows them. `tag` is the tag whose phrases show.
 */
export async function phrasesForPage(
  tenant: TenantDb,
  asked: readonly string[],
  fallback: Language,
): Promise<{ language: Language; tag: string; phrases: Record<string, string> }> {
  const tags = asked
    .slice(0, MAX_ASKED_TAGS)
    // A tag longer than a stored one can be (35 characters) names no custom phrases.
    .map((tag) => ({ tag: tag.length <= 35 ? canonicalLanguageTag(tag) : undefined, builtIn: matchTag(tag) }));
  const keys = new Set([fallback, ...tags.flatMap(({ tag, builtIn }) => [tag, builtIn])].filter(Boolean) as string[]);
  const rows = await tenant.findMany(tenantConfigs, {
    where: inArray(
      tenantConfigs.key,
      [...keys].map((key) => phraseKey(key)),
    ),
  });
  const stored = new Map(rows.map((row) => [row.key.slice(PHRASE_PREFIX.length), row.value as Record<string, string>]));
  for (const { tag, builtIn } of tags) {
    if (tag && stored.has(tag)) {
      if (!builtIn) return { language: 'en', tag, phrases: { ...stored.get(tag) } };
      return { language: builtIn, tag, phrases: { ...stored.get(builtIn), ...stored.get(tag) } };
    }
    if (builtIn) return { language: builtIn, tag: builtIn, phrases: stored.get(builtIn) ?? {} };
  }
  return { language: fallback, tag: fallback, phrases: stored.get(fallback) ?? {} };
}

export async function getCustomPhrase(tenant: TenantDb, languageTag: string): Promise<CustomPhrase> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, phraseKey(languageTag)));
  if (!row) throw notFound();
  return toPhrase(tenant.tenantId, languageTag, row.value as Record<string, string>);
}

/**
 * PUT: replaces the language's phrases. Every key must be one the sign-in pages have (`knownKeys`; 422 otherwise, as the
 * reference), every value text of at most 1,024 characters. Answers whether it was created.
 */
export function putCustomPhrase(
  ctx: WriteContext,
  language: string,
  input: unknown,
  knownKeys: ReadonlySet<string>,
): Promise<{ phrase: CustomPhrase; created: boolean }> {
  const translation = flattenTranslation(input);
  const unknown = Object.keys(translation).filter((key) => !knownKeys.has(key));
  // The reference answers a key its phrases do not have 422.
  if (unknown.length > 0) {
    throw new DomainError('unprocessable', 'localization.invalid_translation_structure', {
      keys: unknown.slice(0, 20),
    });
  }
  if (Object.values(translation).some((value) => value.length > 1024 || value.trim() === '')) {
    refuse('guard.invalid_input');
  }
  return performWrite(ctx, 'Admin.CustomPhrase.Updated', async (tx) => {
    const existing = await tx.findOne(tenantConfigs, eq(tenantConfigs.key, phraseKey(language)));
    if (existing) await tx.update(tenantConfigs, eq(tenantConfigs.key, phraseKey(language)), { value: translation });
    else await tx.insert(tenantConfigs, { key: phraseKey(language), value: translation });
    return {
      result: { phrase: toPhrase(tx.tenantId, language, translation), created: !existing },
      entity: { type: 'CustomPhrase', id: language },
      before: (existing?.value as Record<string, unknown> | undefined) ?? null,
      after: translation,
    };
  });
}

/** DELETE: the fallback language keeps its phrases (409), as the reference does. */
export function deleteCustomPhrase(ctx: WriteContext, language: string): Promise<void> {
  return performWrite(ctx, 'Admin.CustomPhrase.Deleted', async (tx) => {
    const { languageInfo } = await readSignInExperienceSettings(tx);
    const [removed] = await tx.delete(tenantConfigs, eq(tenantConfigs.key, phraseKey(language)));
    if (!removed) throw notFound();
    if (languageInfo.fallbackLanguage === language) {
      throw new DomainError('conflict', 'localization.cannot_delete_default_language');
    }
    return {
      result: undefined,
      entity: { type: 'CustomPhrase', id: language },
      before: removed.value as Record<string, unknown>,
      after: null,
    };
  });
}
