import type { FieldValues, Path } from 'react-hook-form';
import { userFieldErrorCodes } from '../../api/users.ts';
import { passwordRejectedOn } from '../../components/password/password-rejections.ts';
import type { CodeField, ServerErrorMapping } from '../../components/submit/server-errors.ts';
import type { UserFormMessages } from './create/create-user-form.ts';

/**
 * Where the server's refusals of a user write go (spec §5): a username, email or phone in use (422, the server's
 * translated message) on its field, a password the policy rejects on the password field in the policy's sentences.
 * Every user form takes the same mapping; a form without one of these fields never receives its refusal.
 */
export function userServerErrors<Values extends FieldValues>(messages: UserFormMessages): ServerErrorMapping<Values> {
  // The user forms differ in their fields; the names below are those of the user API, shared by all of them.
  const codes: Record<string, CodeField<Values>> = Object.fromEntries(
    Object.entries(userFieldErrorCodes).map(([code, field]) => [code, field as Path<Values>]),
  );
  codes['password.rejected'] = passwordRejectedOn('password' as Path<Values>, messages.passwordRejected);
  return { codes };
}
