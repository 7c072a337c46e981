import {
  checkPassword,
  defaultPasswordPolicy,
  generatePassword,
  type PasswordRejectionCode,
  type PasswordUserInfo,
  userCreateSchema,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { addPasswordRejected } from '../../components/password/password-rejections.ts';

/** The identifiers of spec §5; a user keeps at least one of them. */
export const identifierFields = ['username', 'primaryEmail', 'primaryPhone'] as const;
export type IdentifierField = (typeof identifierFields)[number];
export type IdentifierValues = Record<IdentifierField, string>;

/** Why a value is refused, for the form to word: the rule it breaks, or a length over the schema's maximum. */
export type FieldProblem = { kind: 'invalid' } | { kind: 'too_long'; max: number };

/** A field of the form as the API takes it: trimmed, and not given (undefined) when blank. */
const given = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim() || undefined : value), schema);

/**
 * The identifiers and the name with the rules of POST /users (spec §5, the shared schemas; PATCH takes the same
 * ones): each is checked once trimmed, and a blank one is 'not given' and breaks no rule.
 */
export const userFieldsSchema = z.object({
  username: given(userCreateSchema.shape.username),
  primaryEmail: given(userCreateSchema.shape.primaryEmail),
  primaryPhone: given(userCreateSchema.shape.primaryPhone),
  name: given(userCreateSchema.shape.name),
});

/**
 * Spec §5 and the API: a user needs a username, an email address or a phone number. The server's rule of POST /users
 * (`MISSING_IDENTIFIER_MESSAGE`); the forms report it above the three fields (`root.identifiers`).
 */
export function hasIdentifier(values: Partial<Record<IdentifierField, string | undefined>>): boolean {
  return identifierFields.some((field) => (values[field] ?? '').trim() !== '');
}

/** The form's rule that a user keeps one identifier: its issue, named `identifier_required`, sits above the fields. */
export function checkIdentifier(
  values: Partial<Record<IdentifierField, string | undefined>>,
  context: z.RefinementCtx,
) {
  if (!hasIdentifier(values)) {
    context.addIssue({ code: 'custom', path: ['root', 'identifiers'], message: 'identifier_required' });
  }
}

/**
 * A password typed for a user: required, and accepted by the policy for this user (the server checks both again). The
 * issues name the rule (`password_required`, `password_rejected` with the policy's codes in `params.rejections`).
 */
export function checkTypedPassword(password: string, user: PasswordUserInfo, context: z.RefinementCtx) {
  if (!password) {
    context.addIssue({ code: 'custom', path: ['password'], message: 'password_required' });
    return;
  }
  const rejections = passwordRejections(password, user);
  if (rejections.length > 0) addPasswordRejected(context, rejections);
}

/** The tenant's password policy (the default of spec §5 until the sign-in experience makes it editable). */
export const passwordPolicy = defaultPasswordPolicy;

/** A strong password for the user, avoiding their names, that the policy accepts (shown to the admin once). */
export function generateUserPassword(user: PasswordUserInfo): string {
  return generatePassword(passwordPolicy, user);
}

/** The policy's refusals of a password for this user (their names and identifiers may not make it up). */
export function passwordRejections(password: string, user: PasswordUserInfo): PasswordRejectionCode[] {
  return checkPassword(password, passwordPolicy, user);
}

/** A form's text as the API takes it: trimmed, and absent when empty. */
export function optionalText(value: string): string | undefined {
  return value.trim() || undefined;
}
