import type { PasswordRejectionCode, PasswordUserInfo, UserCreate } from '@gatehouse/schemas';
import { z } from 'zod';
import {
  type FieldProblem,
  hasIdentifier,
  type IdentifierField,
  type IdentifierValues,
  optionalText,
  passwordRejections,
  userFieldProblems,
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
 * The create dialog's rules: spec §5 formats of each identifier given (the shared schemas), at least one identifier
 * (reported on `root.identifiers`, above the three fields), and a typed password checked against the policy with the
 * user's own names, as the server will check it.
 */
export function createUserFormSchema(messages: UserFormMessages) {
  return z
    .object({
      username: z.string(),
      primaryEmail: z.string(),
      primaryPhone: z.string(),
      name: z.string(),
      passwordMode: z.enum(passwordModes),
      password: z.string(),
    })
    .superRefine((values, context) => {
      for (const [field, problem] of Object.entries(userFieldProblems(values))) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: messages.fieldProblem(field as IdentifierField | 'name', problem),
        });
      }
      if (!hasIdentifier(values)) {
        context.addIssue({ code: 'custom', path: ['root', 'identifiers'], message: messages.identifierRequired });
      }
      if (values.passwordMode !== 'custom') return;
      if (!values.password) {
        context.addIssue({ code: 'custom', path: ['password'], message: messages.passwordRequired });
        return;
      }
      const rejections = passwordRejections(values.password, values);
      if (rejections.length > 0) {
        context.addIssue({ code: 'custom', path: ['password'], message: messages.passwordRejected(rejections) });
      }
    });
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
