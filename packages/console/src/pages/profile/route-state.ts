import { emailRegex } from '@gatehouse/schemas';
import { z } from 'zod';

/** What the password and email flows do once the user is verified (spec §2.12). */
export const profileActions = ['changeEmail', 'changePassword'] as const;
export type ProfileAction = (typeof profileActions)[number];

export type ProfileRouteState = {
  email?: string;
  action?: ProfileAction;
  /** Proof of the current password, from verify-password to change-password. */
  verificationRecordId?: string;
};

// The email is optional: an OSS admin may have none, and the password flow must still work for them.
const flowSchema = z.object({ email: z.string().regex(emailRegex).optional(), action: z.enum(profileActions) });

/**
 * Spec §5: the state the profile's sub-routes carry. The email must match the email pattern and the action must be
 * changeEmail or changePassword; otherwise both are treated as undefined. The verification record is read apart,
 * so a bad email never discards it.
 */
export function parseProfileRouteState(state: unknown): ProfileRouteState {
  const flow = flowSchema.safeParse(state);
  const record = z.object({ verificationRecordId: z.string().min(1) }).safeParse(state);
  return {
    ...(flow.success && { action: flow.data.action }),
    ...(flow.success && flow.data.email !== undefined && { email: flow.data.email }),
    ...(record.success && { verificationRecordId: record.data.verificationRecordId }),
  };
}
