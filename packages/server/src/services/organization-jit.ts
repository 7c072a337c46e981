import { eq } from 'drizzle-orm';
import { organizationJitEmailDomains, organizationJitRoles } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { membershipEvent } from './organization-members.ts';
import { addIds } from './organization-relations.ts';
import { memberRolesOf, membersOf } from './organizations.ts';
import type { DomainEvent } from './write-path.ts';

/**
 * Just-in-time provisioning: a new user whose email domain is one of an organization's JIT email
 * domains joins that organization with its JIT roles. Call it inside the transaction that creates
 * the user, with an email the user has proven (a typed, unverified address would let anyone join
 * any organization), and append the returned events to that write.
 */
export async function provisionJustInTime(
  tx: TenantDb,
  user: { id: string; verifiedEmail: string },
): Promise<{ organizationIds: string[]; events: DomainEvent[] }> {
  const domain = user.verifiedEmail.slice(user.verifiedEmail.lastIndexOf('@') + 1).toLowerCase();
  if (!domain) return { organizationIds: [], events: [] };
  const matches = await tx.findMany(organizationJitEmailDomains, {
    where: eq(organizationJitEmailDomains.emailDomain, domain),
  });
  const organizationIds = [...new Set(matches.map((match) => match.organizationId))].sort();
  const events: DomainEvent[] = [];
  for (const organizationId of organizationIds) {
    const joined = await addIds(tx, membersOf(organizationId), [user.id]);
    const roles = await tx.findMany(organizationJitRoles, {
      where: eq(organizationJitRoles.organizationId, organizationId),
    });
    await addIds(
      tx,
      memberRolesOf(organizationId, user.id),
      roles.map((role) => role.organizationRoleId),
    );
    events.push(...membershipEvent(organizationId, { kind: 'users', added: joined, removed: [] }));
  }
  return { organizationIds, events };
}
