import type { PasswordUserInfo } from '@gatehouse/schemas';
import { z } from 'zod';
import { checkTypedPassword } from '../user-rules.ts';

export const resetPasswordModes = ['generate', 'custom'] as const;
export type ResetPasswordForm = { passwordMode: (typeof resetPasswordModes)[number]; password: string };

/**
 * The body of PUT /users/{id}/password made here or typed: a typed password must pass the policy for this user (their
 * own names and identifiers are refused), as the server checks it. Worded by the users forms' `userWording`.
 */
export function resetPasswordFormSchema(user: PasswordUserInfo) {
  return z
    .object({ passwordMode: z.enum(resetPasswordModes), password: z.string() })
    .superRefine(({ passwordMode, password }, context) => {
      if (passwordMode === 'custom') checkTypedPassword(password, user, context);
    });
}
