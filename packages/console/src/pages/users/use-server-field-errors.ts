import { useCallback } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../api/client.ts';
import { userFieldErrorCodes } from '../../api/users.ts';
import { serverPasswordRejections } from '../../components/password/password-rejections.ts';
import type { UserFormMessages } from './create/create-user-form.ts';

/**
 * Puts the server's refusals of a user write onto their fields: a username, email or phone in use (422, the server's
 * translated message) and a password the policy rejects (the policy's sentences). Returns false for other errors.
 */
export function useServerFieldErrors<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  messages: UserFormMessages,
) {
  return useCallback(
    (error: unknown): boolean => {
      if (!(error instanceof ApiError)) return false;
      const { code } = error;
      const field =
        code && Object.hasOwn(userFieldErrorCodes, code)
          ? userFieldErrorCodes[code as keyof typeof userFieldErrorCodes]
          : undefined;
      if (field) {
        setError(field as Path<Values>, { type: 'server', message: error.message }, { shouldFocus: true });
        return true;
      }
      const rejections = serverPasswordRejections(error);
      if (rejections) {
        const message = rejections.length ? messages.passwordRejected(rejections) : error.message;
        setError('password' as Path<Values>, { type: 'server', message }, { shouldFocus: true });
        return true;
      }
      return false;
    },
    [setError, messages],
  );
}
