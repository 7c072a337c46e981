import { z } from 'zod';
import { emailRegex, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, usernameSchema } from './entities/user.ts';

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
] as const;
export type SignInFormError = (typeof signInFormErrors)[number];

const text = z.string().catch('');
const trimmedText = z.string().trim().catch('');

const rule = (error: SignInFormError) => ({ error });
const validUsername = (form: { username: string }) => usernameSchema.safeParse(form.username).success;
const passwordsMatch = (form: { password: string; password_confirm: string }) =>
  form.password === form.password_confirm;

/** Sign in: username or email, and password (the identifier is passed on as typed; sign-in trims it). */
export const signInFormSchema = z
  .object({ identifier: text, password: text })
  .refine((form) => form.identifier.trim() !== '' && form.password !== '', rule('required'));

/** Sign up: username, optional email, password twice (the password policy is the registration service's). */
export const registerFormSchema = z
  .object({ username: trimmedText, email: trimmedText, password: text, password_confirm: text })
  .refine(validUsername, rule('username_invalid'))
  .refine((form) => form.email === '' || emailRegex.test(form.email), rule('email_invalid'))
  .refine(passwordsMatch, rule('password_mismatch'));

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
