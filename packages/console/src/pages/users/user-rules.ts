import {
  checkPassword,
  defaultPasswordPolicy,
  emailSchema,
  generatePassword,
  type PasswordRejectionCode,
  type PasswordUserInfo,
  phoneSchema,
  userNameSchema,
  usernameSchema,
} from '@gatehouse/schemas';
import type { z } from 'zod';

/** The identifiers of spec §5; a user keeps at least one of them. */
export const identifierFields = ['username', 'primaryEmail', 'primaryPhone'] as const;
export type IdentifierField = (typeof identifierFields)[number];
export type IdentifierValues = Record<IdentifierField, string>;

/** The shared rules (one rule, one place): the console only words their refusals. */
const identifierSchemas: Record<IdentifierField, z.ZodType> = {
  username: usernameSchema,
  primaryEmail: emailSchema,
  primaryPhone: phoneSchema,
};

/** Why a value is refused, for the form to word: the rule it breaks, or a length over the schema's maximum. */
export type FieldProblem = { kind: 'invalid' } | { kind: 'too_long'; max: number };

function problemOf(schema: z.ZodType, value: string): FieldProblem | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return issue?.code === 'too_big' ? { kind: 'too_long', max: Number(issue.maximum) } : { kind: 'invalid' };
}

/** Problems of the identifier fields and the name; an empty identifier is 'not given' and breaks no rule. */
export function userFieldProblems(
  values: IdentifierValues & { name: string },
): Partial<Record<IdentifierField | 'name', FieldProblem>> {
  const problems: Partial<Record<IdentifierField | 'name', FieldProblem>> = {};
  for (const field of identifierFields) {
    const value = values[field].trim();
    const problem = value ? problemOf(identifierSchemas[field], value) : undefined;
    if (problem) problems[field] = problem;
  }
  const nameProblem = problemOf(userNameSchema, values.name.trim());
  if (nameProblem) problems.name = nameProblem;
  return problems;
}

/** Spec §5 and the API: a user needs a username, an email address or a phone number. */
export function hasIdentifier(values: IdentifierValues): boolean {
  return identifierFields.some((field) => values[field].trim() !== '');
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
