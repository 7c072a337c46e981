import { z } from 'zod';
import {
  emailRegex,
  loosePhoneRegex,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  usernameSchema,
} from './entities/user.ts';

/**
 * The forms of the server-rendered sign-in pages, as the browser posts them. A field reads as text whatever arrives
 * (missing, or a file, is empty text), so the fields always parse and the page can be shown again with what was
 * typed; the rules follow in the order the page reports them, and the message of the first one broken is the key of
 * the sign-in page string to show.
 */
export const signInFormErrors = [
  'required',
  'username_invalid',
  'email_invalid',
  'password_too_short',
  'password_mismatch',
  'reset_code_invalid',
  'terms_required',
  'phone_invalid',
  'contact_required',
] as const;
export type SignInFormError = (typeof signInFormErrors)[number];

const text = z.string().catch('');
const trimmedText = z.string().trim().catch('');

const rule = (error: SignInFormError) => ({ error });
const validUsername = (form: { username: string }) => usernameSchema.safeParse(form.username).success;
const passwordsMatch = (form: { password: string; password_confirm: string }) =>
  form.password === form.password_confirm;

/** Whether the terms checkbox must be ticked (spec §4 agree-to-terms, the tenant's setting for this screen). */
type TermsRule = { terms: boolean };
const agreed = (rules: TermsRule) => (form: { agree: string }) => !rules.terms || form.agree !== '';

/** Sign in: username or email, and password (the identifier is passed on as typed; sign-in trims it). */
export const signInFormSchemaFor = (rules: TermsRule) =>
  z
    .object({ identifier: text, password: text, agree: text })
    .refine((form) => form.identifier.trim() !== '' && form.password !== '', rule('required'))
    .refine(agreed(rules), rule('terms_required'));
export const signInFormSchema = signInFormSchemaFor({ terms: false });

/** Identifier-first, step 1: who is signing in. */
export const identifierFormSchema = z
  .object({ identifier: trimmedText })
  .refine((form) => form.identifier !== '', rule('required'));

/** The fields of a tenant's sign-up form, from its sign-up identifiers (the server decides them). */
export type RegisterFormFields = TermsRule & {
  username: boolean;
  email: 'required' | 'optional' | false;
  phone?: 'required' | 'optional' | false;
  /** Email or phone (spec §3 `emailOrSms`): both optional, one of them needed. */
  contactRequired?: boolean;
  password: boolean;
};

/** Sign up: the tenant's identifiers, its password twice when it asks for one, the terms (policy: the server's). */
export const registerFormSchemaFor = (fields: RegisterFormFields) =>
  z
    .object({
      username: trimmedText,
      email: trimmedText,
      phone: trimmedText,
      password: text,
      password_confirm: text,
      agree: text,
    })
    .refine((form) => !fields.username || validUsername(form), rule('username_invalid'))
    .refine(
      (form) => !fields.email || (form.email === '' ? fields.email === 'optional' : emailRegex.test(form.email)),
      rule('email_invalid'),
    )
    .refine(
      (form) => !fields.phone || (form.phone === '' ? fields.phone === 'optional' : loosePhoneRegex.test(form.phone)),
      rule('phone_invalid'),
    )
    .refine((form) => !fields.contactRequired || form.email !== '' || form.phone !== '', rule('contact_required'))
    .refine((form) => !fields.password || passwordsMatch(form), rule('password_mismatch'))
    .refine(agreed(fields), rule('terms_required'));
/** The form of the default sign-up: username, optional email, password twice. */
export const registerFormSchema = registerFormSchemaFor({
  username: true,
  email: 'optional',
  password: true,
  terms: false,
});

/** Sign-in by code, step 1: the email address or phone number (as the tenant allows), and the terms when needed. */
export const codeSignInFormSchemaFor = (rules: TermsRule & { email?: boolean; phone?: boolean }) =>
  z
    .object({ email: trimmedText, agree: text })
    .refine(
      (form) =>
        (rules.email !== false && emailRegex.test(form.email)) ||
        (rules.phone === true && !form.email.includes('@') && loosePhoneRegex.test(form.email)),
      rule(rules.email === false ? 'phone_invalid' : 'email_invalid'),
    )
    .refine(agreed(rules), rule('terms_required'));

/** The emailed code of a sign-up or a sign-in by code. */
export const codeFormSchema = z
  .object({ code: trimmedText })
  .refine((form) => /^\d{6}$/.test(form.code.replace(/\s/g, '')), rule('reset_code_invalid'));

/** First run (OSS): the first console admin's username and password twice. */
export const welcomeFormSchema = z
  .object({ username: trimmedText, password: text, password_confirm: text })
  .refine(validUsername, rule('username_invalid'))
  .refine(
    (form) => form.password.length >= PASSWORD_MIN_LENGTH && form.password.length <= PASSWORD_MAX_LENGTH,
    rule('password_too_short'),
  )
  .refine(passwordsMatch, rule('password_mismatch'));

/** Forgot password, step 1: the address to send a code to. */
export const forgotPasswordFormSchema = z
  .object({ email: trimmedText })
  .refine((form) => emailRegex.test(form.email), rule('email_invalid'));

/** Forgot password, step 2: the address (a hidden field), the emailed code, the new password twice. */
export const resetPasswordFormSchema = z
  .object({ email: trimmedText, code: text, password: text, password_confirm: text })
  .refine((form) => form.email !== '' && form.code.trim() !== '' && form.password !== '', rule('reset_code_invalid'))
  .refine(passwordsMatch, rule('password_mismatch'));

export type SignInForm<Shape extends z.ZodRawShape> = {
  /** What was posted, as text: always there, to fill the page again. */
  form: z.output<z.ZodObject<Shape>>;
  /** The first rule the form breaks. */
  error: SignInFormError | undefined;
};

/** Parses a posted sign-in form with one of the schemas above. */
export function parseSignInForm<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  body: unknown,
): SignInForm<Shape> {
  const result = schema.safeParse(body);
  if (result.success) return { form: result.data, error: undefined };
  // The fields alone never fail (they catch to empty text): the schema without its rules gives what was typed.
  return {
    form: z.object(schema.shape).parse(body),
    error: result.error.issues[0]?.message as SignInFormError,
  };
}
