import {
  defaultPasswordPolicy,
  type PasswordPolicy,
  type PasswordRejectionCode,
  passwordRejectionCodes,
} from '@gatehouse/schemas';
import type { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import type { TFunction } from '../../i18n/runtime.ts';
import type { SchemaIssue } from '../form/schema-resolver.ts';

function isPasswordRejectionCode(value: unknown): value is PasswordRejectionCode {
  return passwordRejectionCodes.some((code) => code === value);
}

/**
 * The policy codes of a `password.rejected` answer (its `data.rejections`), or undefined for any other error.
 * Codes this console does not know are dropped: they could not be translated.
 */
export function serverPasswordRejections(error: unknown): PasswordRejectionCode[] | undefined {
  if (!(error instanceof ApiError) || error.code !== 'password.rejected') return undefined;
  const { data } = error;
  const rejections = typeof data === 'object' && data !== null && 'rejections' in data ? data.rejections : undefined;
  return Array.isArray(rejections) ? rejections.filter(isPasswordRejectionCode) : [];
}

/**
 * Where a `password.rejected` refusal goes in a form's `applyServerErrors` mapping: on `field`, in the policy's
 * sentences (`describe`), or in the server's message when it named no code this console knows.
 */
export function passwordRejectedOn<Field extends string>(
  field: Field,
  describe: (codes: PasswordRejectionCode[]) => string,
): { field: Field; message: (error: ApiError) => string } {
  return {
    field,
    message: (error) => {
      const codes = serverPasswordRejections(error) ?? [];
      return codes.length ? describe(codes) : error.message;
    },
  };
}

/**
 * One translated sentence per rejection code (spec §5), with the policy's numbers filled in. Shared by every form that
 * sets a password (the profile, an admin setting a user's), for client and server rejections alike.
 */
export function passwordRejectionMessages(
  codes: readonly PasswordRejectionCode[],
  t: TFunction<'components'>,
  policy: PasswordPolicy = defaultPasswordPolicy,
): string[] {
  const values = { min: policy.length.min, max: policy.length.max, types: policy.characterTypes.min };
  return [...new Set(codes)].map((code) => t(code, values));
}

/**
 * A form's issue for a password the policy refuses (`password_rejected`, spec §5), with the policy's codes, for the
 * form's wording to say them in the policy's sentences (`passwordRejectionsOf`).
 */
export function addPasswordRejected(context: z.RefinementCtx, rejections: readonly PasswordRejectionCode[]) {
  context.addIssue({ code: 'custom', path: ['password'], message: 'password_rejected', params: { rejections } });
}

/** The policy's codes an `addPasswordRejected` issue carries (none for any other issue). */
export function passwordRejectionsOf(issue: SchemaIssue): PasswordRejectionCode[] {
  const codes: unknown =
    issue.code === 'custom' && issue.message === 'password_rejected' ? issue.params?.rejections : [];
  return Array.isArray(codes) ? codes.filter(isPasswordRejectionCode) : [];
}
