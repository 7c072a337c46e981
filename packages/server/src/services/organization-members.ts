import type { NamedRef } from '@gatehouse/schemas';
import { DomainError } from '@gatehouse/schemas';
import { eq, inArray, sql } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import {
  applications,
  organizationApplicationRoles,
  organizationUserRoles,
  organizationUsers,
  users,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { addIds, heldIds, idsOf } from './organization-relations.ts';
import {
  applicationRolesOf,
  applicationsOf,
  findOrganization,
  findOrganizationRoles,
  memberRolesOf,
  membersOf,
  organizationRoleIdsByName,
  rolesPerOwner,
} from './organizations.ts';
import { assertAllFound, inRelation } from './relations.ts';
import type { ApplicationRow } from './role-assignments.ts';
import { type DomainEvent, performWrite, type WriteContext } from './write-path.ts';

/**
 * The rules of organization membership, for users (members) and machine-to-machine applications:
 * ids must exist in the tenant (422, reference), applications must be machine-to-machine (422), and roles
 * are given only to members (422 `organization.require_membership` on a member's own path,
 * `entity.relation_foreign_key_not_found` in a bulk body). Runs in the caller's transaction.
 */

/** All `ids` must be users of this tenant (422 `entity.relation_foreign_key_not_found`, data.ids: reference). */
export async function assertUsersExist(tx: TenantDb, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  const found = await tx.findMany(users, { where: inArray(users.id, [...new Set(ids)]) });
  assertAllFound(
    ids,
    found.map((user) => user.id),
    'foreign_key',
  );
}

/** The applications of `ids`: all must exist (422, reference) and be machine-to-machine (422 `application.invalid_type`). */
export async function findMachineApplications(tx: TenantDb, ids: readonly string[]): Promise<ApplicationRow[]> {
  if (!ids.length) return [];
  const found = await tx.findMany(applications, { where: inArray(applications.id, [...new Set(ids)]) });
  assertAllFound(
    ids,
    found.map((app) => app.id),
    'foreign_key',
  );
  const wrong = found.filter((app) => app.type !== 'MachineToMachine').map((app) => app.id);
  if (wrong.length) throw new DomainError('unprocessable', 'application.invalid_type', { ids: wrong });
  return found;
}

/**
 * The two kinds of organization members, users and machine-to-machine applications: which ids are in the
 * organization, how one gets organization roles there, and the role type they may hold.
 */
export const memberKinds = {
  users: {
    roleType: 'User',
    held: (tx: TenantDb, organizationId: string, ids: readonly string[]) => heldIds(tx, membersOf(organizationId), ids),
    addRoles: (tx: TenantDb, organizationId: string, memberId: string, roleIds: readonly string[]) =>
      addIds(tx, memberRolesOf(organizationId, memberId), roleIds),
    roles: { table: organizationUserRoles, member: organizationUserRoles.userId },
  },
  applications: {
    roleType: 'MachineToMachine',
    held: (tx: TenantDb, organizationId: string, ids: readonly string[]) =>
      heldIds(tx, applicationsOf(organizationId), ids),
    addRoles: (tx: TenantDb, organizationId: string, memberId: string, roleIds: readonly string[]) =>
      addIds(tx, applicationRolesOf(organizationId, memberId), roleIds),
    roles: { table: organizationApplicationRoles, member: organizationApplicationRoles.applicationId },
  },
} as const;
export type MemberKind = keyof typeof memberKinds;

/**
 * 422 `organization.require_membership` unless `memberId` is in the organization (the path resource of a member's
 * routes), as the reference answers for every method of those paths.
 */
export async function assertInOrganization(tx: TenantDb, kind: MemberKind, organizationId: string, memberId: string) {
  const held = await memberKinds[kind].held(tx, organizationId, [memberId]);
  if (!held.size) throw new DomainError('unprocessable', 'organization.require_membership');
}

/**
 * 422 `entity.relation_foreign_key_not_found` (data.ids) unless every one of `memberIds` is in the organization: the
 * bulk role routes' answer in the reference, whose role links have a foreign key to the membership.
 */
export async function assertAllInOrganization(
  tx: TenantDb,
  kind: MemberKind,
  organizationId: string,
  memberIds: readonly string[],
) {
  const held = await memberKinds[kind].held(tx, organizationId, memberIds);
  assertAllFound(memberIds, held, 'foreign_key');
}

/** A page of members in their API shape, each with the organization roles it holds there (one query). */
export async function withMemberRoles<R extends { id: string }, A>(
  tx: TenantDb,
  kind: MemberKind,
  organizationId: string,
  rows: readonly R[],
  toApi: (row: R) => A,
): Promise<(A & { organizationRoles: NamedRef[] })[]> {
  const held = await rolesOfMembers(
    tx,
    kind,
    organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...toApi(row), organizationRoles: held.get(row.id) ?? [] }));
}

/** The organization roles of each of these members (one query for a whole page). */
async function rolesOfMembers(
  tx: TenantDb,
  kind: MemberKind,
  organizationId: string,
  memberIds: readonly string[],
): Promise<Map<string, NamedRef[]>> {
  if (!memberIds.length) return new Map();
  const { table, member } = memberKinds[kind].roles;
  const rows = await tx.findMany(table, {
    where: allOf(eq(table.organizationId, organizationId), inArray(member, [...memberIds])),
  });
  return rolesPerOwner(
    tx,
    rows,
    (row) => ('userId' in row ? row.userId : row.applicationId),
    (row) => row.organizationRoleId,
  );
}

/**
 * Gives organization roles (of the kind's type) to several members of the organization; roles already held
 * stay as they are. One audited write whose entry names, per member, the roles this request added.
 */
export function assignRolesToMembers(
  ctx: WriteContext,
  kind: MemberKind,
  organizationId: string,
  body: { memberIds: readonly string[]; organizationRoleIds: readonly string[] },
): Promise<void> {
  return performWrite(ctx, 'Admin.Organization.Updated', async (tx) => {
    await findOrganization(tx, organizationId);
    await assertAllInOrganization(tx, kind, organizationId, body.memberIds);
    await findOrganizationRoles(tx, body.organizationRoleIds, memberKinds[kind].roleType);
    const added: Record<string, unknown>[] = [];
    const [listKey, idKey] = kind === 'users' ? ['memberRoles', 'userId'] : ['applicationRoles', 'applicationId'];
    for (const memberId of body.memberIds) {
      const roleIds = await memberKinds[kind].addRoles(tx, organizationId, memberId, body.organizationRoleIds);
      if (roleIds.length) added.push({ [idKey]: memberId, organizationRoleIds: roleIds.sort() });
    }
    return {
      result: undefined,
      entity: { type: 'Organization', id: organizationId },
      before: { [listKey]: [] },
      after: { [listKey]: added },
    };
  });
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

// The relation routes of one member (`/organizations/{id}/users/{userId}/…`, `…/applications/{applicationId}/roles`).

/** The member a path names: the organization (404), then the user in it (422 `organization.require_membership`). */
export async function findMember(tx: TenantDb, { id, userId }: { id: string; userId: string }): Promise<void> {
  await findOrganization(tx, id);
  await assertInOrganization(tx, 'users', id, userId);
}

/** The application a path names: the organization (404), then the application in it (422, as for a member). */
export async function findMemberApplication(
  tx: TenantDb,
  { id, applicationId }: { id: string; applicationId: string },
): Promise<void> {
  await findOrganization(tx, id);
  await assertInOrganization(tx, 'applications', id, applicationId);
}

/** A member's organization roles as its audit entry shows them (a member holds few: the whole set). */
export async function memberRolesState(tx: TenantDb, { id, userId }: { id: string; userId: string }) {
  return { userId, organizationRoleIds: await idsOf(tx, memberRolesOf(id, userId)) };
}

/** An application's organization roles as its audit entry shows them (an application holds few: the whole set). */
export async function applicationRolesState(
  tx: TenantDb,
  { id, applicationId }: { id: string; applicationId: string },
) {
  return { applicationId, organizationRoleIds: await idsOf(tx, applicationRolesOf(id, applicationId)) };
}

/** The roles a member roles body names, by id and/or name, as user-type role ids (404/422 for unknown or M2M ones). */
export async function memberRoleIdsOf(
  tx: TenantDb,
  body: { organizationRoleIds?: string[] | undefined; organizationRoleNames?: string[] | undefined },
): Promise<string[]> {
  const ids = body.organizationRoleIds ?? [];
  await findOrganizationRoles(tx, ids, 'User');
  const named = await organizationRoleIdsByName(tx, body.organizationRoleNames ?? [], 'User');
  return [...new Set([...ids, ...named])];
}
