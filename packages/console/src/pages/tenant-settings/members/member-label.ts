import type { TenantMember } from '@gatehouse/schemas';

/** What names a member: the name, else the username, else the email, else the id. */
export const memberLabel = (member: TenantMember): string =>
  member.name || member.username || member.primaryEmail || member.id;
