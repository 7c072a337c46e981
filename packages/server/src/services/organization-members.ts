import type { NamedRef } from '@gatehouse/schemas';
import { eq, inArray, sql } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import {
  organizationApplicationRoles,
  organizationApplications,
  organizationUserRoles,
  organizationUsers,
  users,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { rolesPerOwner } from './organizations.ts';
import { assertAllFound, inRelation } from './relations.ts';
import { type ApplicationRow, findAllApplications } from './role-assignments.ts';
import type { DomainEvent } from './write-path.ts';

/**
 * The rules of organization membership, for users (members) and machine-to-machine applications:
 * ids must exist in the tenant (404), applications must be machine-to-machine (422), and roles
 * are given only to members (422 `organization.require_membership`). Runs in the caller's transaction.
 */

/** All `ids` must be users of this tenant (404 `entity.relation_foreign_key_not_found`, data.ids). */
export async function assertUsersExist(tx: TenantDb, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  const found = await tx.findMany(users, { where: inArray(users.id, [...ids]) });
  assertAllFound(
    ids,
    found.map((user) => user.id),
  );
}

/** The applications of `ids`: all must exist (404) and be machine-to-machine (422 `application.invalid_type`). */
export async function findMachineApplications(tx: TenantDb, ids: readonly string[]): Promise<ApplicationRow[]> {
  if (!ids.length) return [];
  const found = await findAllApplications(tx, ids);
  const wrong = found.filter((app) => app.type !== 'MachineToMachine').map((app) => app.id);
  if (wrong.length) throw new ApiError(422, 'application.invalid_type', { ids: wrong });
  return found;
}

/** 404 unless the user is a member of the organization (the member routes' path resource). */
export async function assertMember(tx: TenantDb, organizationId: string, userId: string): Promise<void> {
  const row = await tx.findOne(
    organizationUsers,
    allOf(eq(organizationUsers.organizationId, organizationId), eq(organizationUsers.userId, userId)),
  );
  if (!row) throw notFound();
}

export async function assertApplicationMember(tx: TenantDb, organizationId: string, applicationId: string) {
  const row = await tx.findOne(
    organizationApplications,
    allOf(
      eq(organizationApplications.organizationId, organizationId),
      eq(organizationApplications.applicationId, applicationId),
    ),
  );
  if (!row) throw notFound();
}

/** 422 `organization.require_membership` (data.ids) unless every user is a member. */
export async function assertAllMembers(tx: TenantDb, organizationId: string, userIds: readonly string[]) {
  const rows = await tx.findMany(organizationUsers, {
    where: allOf(eq(organizationUsers.organizationId, organizationId), inArray(organizationUsers.userId, [...userIds])),
  });
  const members = new Set(rows.map((row) => row.userId));
  const outside = userIds.filter((id) => !members.has(id));
  if (outside.length) throw new ApiError(422, 'organization.require_membership', { ids: outside });
}

export async function assertAllApplicationMembers(
  tx: TenantDb,
  organizationId: string,
  applicationIds: readonly string[],
) {
  const rows = await tx.findMany(organizationApplications, {
    where: allOf(
      eq(organizationApplications.organizationId, organizationId),
      inArray(organizationApplications.applicationId, [...applicationIds]),
    ),
  });
  const members = new Set(rows.map((row) => row.applicationId));
  const outside = applicationIds.filter((id) => !members.has(id));
  if (outside.length) throw new ApiError(422, 'organization.require_membership', { ids: outside });
}

/** The organization roles of each of these members (one query for a whole page). */
export async function memberRoles(
  tx: TenantDb,
  organizationId: string,
  userIds: readonly string[],
): Promise<Map<string, NamedRef[]>> {
  if (!userIds.length) return new Map();
  const rows = await tx.findMany(organizationUserRoles, {
    where: allOf(
      eq(organizationUserRoles.organizationId, organizationId),
      inArray(organizationUserRoles.userId, [...userIds]),
    ),
  });
  return rolesPerOwner(
    tx,
    rows,
    (row) => row.userId,
    (row) => row.organizationRoleId,
  );
}

export async function applicationRoles(
  tx: TenantDb,
  organizationId: string,
  applicationIds: readonly string[],
): Promise<Map<string, NamedRef[]>> {
  if (!applicationIds.length) return new Map();
  const rows = await tx.findMany(organizationApplicationRoles, {
    where: allOf(
      eq(organizationApplicationRoles.organizationId, organizationId),
      inArray(organizationApplicationRoles.applicationId, [...applicationIds]),
    ),
  });
  return rolesPerOwner(
    tx,
    rows,
    (row) => row.applicationId,
    (row) => row.organizationRoleId,
  );
}

/** The reference's `Organization.Membership.Updated`, with who joined and who left. */
export function membershipEvent(
  organizationId: string,
  change: { kind: 'users' | 'applications'; added: readonly string[]; removed: readonly string[] },
): DomainEvent[] {
  if (!change.added.length && !change.removed.length) return [];
  const [addedKey, removedKey] =
    change.kind === 'users' ? ['addedUserIds', 'removedUserIds'] : ['addedApplicationIds', 'removedApplicationIds'];
  return [
    {
      event: 'Organization.Membership.Updated',
      data: { organizationId, [addedKey]: [...change.added].sort(), [removedKey]: [...change.removed].sort() },
    },
  ];
}

/** The member of the organization whose primary email is `email` (case-insensitive), if any: nobody to invite. */
export async function memberWithEmail(tx: TenantDb, organizationId: string, email: string) {
  return tx.findOne(
    users,
    allOf(
      sql`lower(${users.primaryEmail}) = lower(${email})`,
      inRelation(
        tx,
        users.id,
        organizationUsers,
        organizationUsers.userId,
        eq(organizationUsers.organizationId, organizationId),
      ),
    ),
  );
}
