import type { PasswordUserInfo } from '@gatehouse/schemas';
import { z } from 'zod';
import type { UserFormMessages } from '../create/create-user-form.ts';
import { passwordRejections } from '../user-rules.ts';

export const resetPasswordModes = ['generate', 'custom'] as const;
export type ResetPasswordForm = { passwordMode: (typeof resetPasswordModes)[number]; password: string };

/** A typed password must pass the policy for this user (their own names and identifiers are refused). */
export function resetPasswordFormSchema(messages: UserFormMessages, user: PasswordUserInfo) {
  return z
    .object({ passwordMode: z.enum(resetPasswordModes), password: z.string() })
    .superRefine(({ passwordMode, password }, context) => {
      if (passwordMode !== 'custom') return;
      if (!password) {
        context.addIssue({ code: 'custom', path: ['password'], message: messages.passwordRequired });
        return;
      }
      const rejections = passwordRejections(password, user);
      if (rejections.length > 0) {
        context.addIssue({ code: 'custom', path: ['password'], message: messages.passwordRejected(rejections) });
      }
    });
}
