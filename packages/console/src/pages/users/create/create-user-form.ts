import type { PasswordRejectionCode, PasswordUserInfo, UserCreate } from '@gatehouse/schemas';
import { z } from 'zod';
import type { IssueWording, SchemaIssue } from '../../../components/form/schema-resolver.ts';
import { passwordRejectionsOf } from '../../../components/password/password-rejections.ts';
import {
  checkIdentifier,
  checkTypedPassword,
  type FieldProblem,
  type IdentifierField,
  type IdentifierValues,
  optionalText,
  userFieldsSchema,
} from '../user-rules.ts';

/** How the new user's password comes about: generated and shown once, typed by the admin, or none (sign-in by code or social). */
export const passwordModes = ['generate', 'custom', 'none'] as const;
export type PasswordMode = (typeof passwordModes)[number];

export type CreateUserForm = IdentifierValues & { name: string; passwordMode: PasswordMode; password: string };

export const emptyCreateUserForm: CreateUserForm = {
  username: '',
  primaryEmail: '',
  primaryPhone: '',
  name: '',
  passwordMode: 'generate',
  password: '',
};

/** The sentences of the form's refusals, in the interface language (plain strings in tests). */
export type UserFormMessages = {
  identifierRequired: string;
  fieldProblem: (field: IdentifierField | 'name', problem: FieldProblem) => string;
  passwordRequired: string;
  passwordRejected: (codes: readonly PasswordRejectionCode[]) => string;
};

/**
 * The create dialog's rules, those of POST /users: spec §5 formats of each identifier given (the shared schemas), at
 * least one identifier (reported on `root.identifiers`, above the three fields), and a typed password checked against
 * the policy with the user's own names, as the server will check it. How the password comes about is the form's own.
 * The resolver submits the values as typed (`raw`); `toCreateUserBody` makes the body.
 */
export const createUserFormSchema = userFieldsSchema
  .extend({ passwordMode: z.enum(passwordModes), password: z.string() })
  .superRefine((values, context) => {
    checkIdentifier(values, context);
    if (values.passwordMode === 'custom') checkTypedPassword(values.password, values, context);
  });

const userFields: readonly string[] = ['username', 'primaryEmail', 'primaryPhone', 'name'];
const isUserField = (field: unknown): field is IdentifierField | 'name' =>
  typeof field === 'string' && userFields.includes(field);

/** Why the shared schema refused an identifier or the name. */
function fieldProblemOf(issue: SchemaIssue): FieldProblem {
  return issue.code === 'too_big' ? { kind: 'too_long', max: Number(issue.maximum) } : { kind: 'invalid' };
}

/** The users forms' words for the issues of their schemas (the fields they share with the create dialog). */
export function userWording(messages: UserFormMessages): IssueWording {
  return (issue) => {
    const [field] = issue.path;
    if (field === 'root') return messages.identifierRequired;
    if (field === 'password') {
      return issue.message === 'password_required'
        ? messages.passwordRequired
        : messages.passwordRejected(passwordRejectionsOf(issue));
    }
    return isUserField(field) ? messages.fieldProblem(field, fieldProblemOf(issue)) : undefined;
  };
}

/**
 * The POST /users body of valid form values: trimmed, empty fields left out, and the password typed or generated
 * (`generate` receives the user's names, which a generated password must avoid too).
 */
export function toCreateUserBody(
  values: CreateUserForm,
  generate: (user: PasswordUserInfo) => string,
): { body: UserCreate; generatedPassword?: string } {
  const user = {
    username: optionalText(values.username),
    primaryEmail: optionalText(values.primaryEmail),
    primaryPhone: optionalText(values.primaryPhone),
    name: optionalText(values.name),
  };
  const body: UserCreate = Object.fromEntries(Object.entries(user).filter(([, value]) => value !== undefined));
  if (values.passwordMode === 'custom') return { body: { ...body, password: values.password } };
  if (values.passwordMode === 'none') return { body };
  const generatedPassword = generate(body);
  return { body: { ...body, password: generatedPassword }, generatedPassword };
}
