import { MAX_INVITEES_PER_REQUEST, tenantRoles } from '@gatehouse/schemas';
import { z } from 'zod';

/** The invite modal: committed chips (the chip input refuses addresses failing the email pattern) and the role. */
export const inviteFormSchema = z.object({
  emails: z
    .array(z.object({ id: z.string(), value: z.string(), status: z.literal('error').optional() }))
    .min(1)
    .max(MAX_INVITEES_PER_REQUEST),
  role: z.enum(tenantRoles),
});
export type InviteForm = z.infer<typeof inviteFormSchema>;

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
