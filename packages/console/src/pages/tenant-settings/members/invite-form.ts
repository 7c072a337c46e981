import { tenantInvitationCreateSchema } from '@gatehouse/schemas';
import { z } from 'zod';

const { invitee, roleName } = tenantInvitationCreateSchema.shape;
/** The list form of POST …/invitations' `invitee` (one to MAX_INVITEES_PER_REQUEST addresses). */
const inviteeList = invitee.options[1];

/**
 * The invite modal, with the rules of POST …/invitations: committed chips (the chip input refuses addresses failing
 * the email pattern), whose distinct addresses are the request's invitees, and the role. The resolver submits the
 * chips as typed (`raw`).
 */
export const inviteFormSchema = z.object({
  emails: z
    .array(z.object({ id: z.string(), value: z.string(), status: z.literal('error').optional() }))
    .transform(inviteeEmails)
    .pipe(inviteeList),
  role: roleName,
});
export type InviteForm = z.input<typeof inviteFormSchema>;

/** Distinct addresses, compared without case: one invitation per person. */
export function inviteeEmails(chips: readonly { value: string }[]): string[] {
  const seen = new Map<string, string>();
  for (const chip of chips) {
    const email = chip.value.trim();
    if (email && !seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  return [...seen.values()];
}

/**
 * The link an invitation opens: the console's acceptance page, as the server's email has it
 * (`{publicUrl}/console/accept/{id}`), for sharing by hand when no email goes out.
 */
export function invitationLink(id: string, origin: string, basename: string): string {
  return new URL(`${basename.replace(/\/?$/, '/')}accept/${encodeURIComponent(id)}`, origin).href;
}
