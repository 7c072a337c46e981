import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  defaultPasswordPolicy,
  type Language,
  languages,
  type PasswordRejectionCode,
  type SignInFormError,
} from '@gatehouse/schemas';
import { sourceDir } from '../source-dir.ts';

export const signInKeys = [
  'title',
  'identifier',
  'password',
  'submit',
  'invalid_credentials',
  'locked',
  'required',
  'session_expired',
  'welcome_title',
  'welcome_description',
  'username',
  'password_confirm',
  'welcome_submit',
  'password_mismatch',
  'password_too_short',
  'username_invalid',
  'create_account',
  'have_account',
  'register_title',
  'register_submit',
  'email',
  'email_invalid',
  'identifier_taken',
  'registration_closed',
  'sign_out_title',
  'sign_out_submit',
  'signed_out',
  'password_rejected',
  'rejected.too_short',
  'rejected.too_long',
  'rejected.unsupported_characters',
  'rejected.character_types',
  'rejected.pwned',
  'rejected.restricted.repetition',
  'rejected.restricted.sequence',
  'rejected.restricted.words',
  'rejected.restricted.user_info',
  'forgot_link',
  'forgot_title',
  'forgot_description',
  'forgot_email',
  'forgot_submit',
  'back_to_sign_in',
  'reset_sent',
  'reset_code',
  'reset_new_password',
  'reset_submit',
  'reset_code_invalid',
  'reset_code_exhausted',
  'reset_done',
  'resend_code',
  'request_error_title',
  'request_error_redirect_uri',
  'request_error_client',
  'request_error_generic',
  'request_error_code',
  'consent_title',
  'consent_intro',
  'consent_allow',
  'consent_deny',
  'consent_scope_openid',
  'consent_scope_profile',
  'consent_scope_email',
  'consent_scope_phone',
  'consent_scope_offline_access',
  'consent_scope_organizations',
  'consent_scope_resource',
] as const;
export type SignInKey = (typeof signInKeys)[number];

/** Strings of the server-rendered sign-in pages, per language (a unit test checks completeness). */
export const signInStrings = Object.fromEntries(
  languages.map((language) => [
    language,
    JSON.parse(readFileSync(join(sourceDir, 'i18n', 'sign-in', `${language}.json`), 'utf8')) as Record<
      SignInKey,
      string
    >,
  ]),
) as Record<Language, Record<SignInKey, string>>;

export function signInText(language: Language, key: SignInKey, values: Record<string, string | number> = {}): string {
  const template = signInStrings[language][key] ?? signInStrings.en[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}

/** The page's line for a form the sign-in form schemas refused (their messages are keys of these strings). */
export const signInFormErrorText = (language: Language, error: SignInFormError) =>
  signInText(language, error satisfies SignInKey);

type RejectionKey<Code> = Code extends `password_rejected.${infer Rule}` ? `rejected.${Rule}` : never;
/** `password_rejected.too_short` is shown with `rejected.too_short` (checked: every code has its string). */
const rejectionKey = (code: PasswordRejectionCode) =>
  code.replace('password_rejected.', 'rejected.') as RejectionKey<PasswordRejectionCode> satisfies SignInKey;

/** The page's line for a password the policy refused: the first reason, with the policy's length limits. */
export function passwordRejectedText(language: Language, rejections: readonly PasswordRejectionCode[]): string {
  const [first = 'password_rejected.too_short'] = rejections;
  const reason = signInText(language, rejectionKey(first), {
    min: defaultPasswordPolicy.length.min,
    max: defaultPasswordPolicy.length.max,
  });
  return signInText(language, 'password_rejected', { reason });
}
