import { and, eq, inArray } from 'drizzle-orm';
import { allOf } from '../../db/conditions.ts';
import {
  organizationRoles,
  organizations,
  type organizationUserRoles,
  organizationUsers,
  roles,
  scimGroupMembers,
  scimGroups,
  type usersRoles,
} from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import { membershipEvent } from '../organization-members.ts';
import { idsOf } from '../organization-relations.ts';
import { findOrganization, memberRolesOf, membersOf } from '../organizations.ts';
import { auditOwner, changeRelation, type Relation, wholeSet } from '../relations.ts';
import { userRoleLinks } from '../role-assignments.ts';
import type { ScimConnectionRow } from '../scim-connections.ts';
import { findUser } from '../users.ts';
import type { WriteContext } from '../write-path.ts';

/**
 * What a connection's groups grant (docs/areas/scim.md "Groups"), brought in line for the users a change touched. The
 * grants are made by the relations' one write path (`changeRelation`, as the management API's routes make them), so
 * the audit entries and events are the ones an admin's change writes: `Admin.Organization.Updated` with
 * `Organization.Membership.Updated`, `Admin.User.Updated` for a user's roles.
 *
 * - `{kind: 'organization'}`: a user in any group of the connection is a member of the organization, one in none is
 *   not (the connection owns its users' membership there); an organization role named like one of the user's groups
 *   is held there.
 * - `{kind: 'roles'}`: a tenant user role named like one of the user's groups is held.
 * Only roles named like a group of the connection (now, or before this change) are managed: others stay as an admin
 * set them.
 */

const organizationMembers: Relation<{ id: string }, unknown, typeof organizationUsers> = {
  owner: (tx, { id }) => findOrganization(tx, id),
  links: ({ id }) => membersOf(id),
  audit: auditOwner('Admin.Organization.Updated', 'Organization', 'userIds'),
  events: (_tx, _organization, change, { id }) => membershipEvent(id, { kind: 'users', ...change }),
};

const memberRoles: Relation<{ id: string; userId: string }, unknown, typeof organizationUserRoles> = {
  owner: (tx, { id }) => findOrganization(tx, id),
  links: ({ id, userId }) => memberRolesOf(id, userId),
  audit: auditOwner('Admin.Organization.Updated', 'Organization', async (tx: TenantDb, { id, userId }) => ({
    userId,
    organizationRoleIds: await idsOf(tx, memberRolesOf(id, userId)),
  })),
};

const userRoles: Relation<{ userId: string }, unknown, typeof usersRoles> = {
  owner: (tx, { userId }) => findUser(tx, userId),
  links: ({ userId }) => userRoleLinks(userId),
  audit: {
    key: 'Admin.User.Updated',
    entity: ({ userId }) => ({ type: 'User', id: userId }),
    state: wholeSet('roleIds', ({ userId }: { userId: string }) => userRoleLinks(userId)),
  },
};

/** The display names of the connection's groups each user is in. */
async function groupNamesOf(
  tx: TenantDb,
  connectionId: string,
  userIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const rows = await tx.asTenant((db) =>
    db
      .select({ userId: scimGroupMembers.userId, name: scimGroups.displayName })
      .from(scimGroupMembers)
      .innerJoin(
        scimGroups,
        and(eq(scimGroups.tenantId, scimGroupMembers.tenantId), eq(scimGroups.id, scimGroupMembers.groupId)),
      )
      .where(
        allOf(
          eq(scimGroupMembers.tenantId, tx.tenantId),
          eq(scimGroups.connectionId, connectionId),
          inArray(scimGroupMembers.userId, [...userIds]),
        ),
      ),
  );
  const names = new Map<string, Set<string>>(userIds.map((id) => [id, new Set()]));
  for (const row of rows) names.get(row.userId)?.add(row.name);
  return names;
}

/** Every display name of the connection's groups, and the ones a change took away. */
async function managedNames(tx: TenantDb, connectionId: string, former: readonly string[]): Promise<Set<string>> {
  const groups = await tx.findMany(scimGroups, { where: eq(scimGroups.connectionId, connectionId) });
  return new Set([...groups.map((group) => group.displayName), ...former]);
}

/** The ids a user should hold: the managed ones their groups name, and every unmanaged one they hold. */
function wanted(held: readonly string[], managed: ReadonlyMap<string, string>, names: ReadonlySet<string>): string[] {
  const kept = held.filter((id) => !managed.has(id));
  const granted = [...managed].filter(([, name]) => names.has(name)).map(([id]) => id);
  return [...new Set([...kept, ...granted])].sort();
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((id, index) => id === [...b].sort()[index]);

async function syncOrganization(
  ctx: WriteContext,
  organizationId: string,
  names: Map<string, Set<string>>,
  managed: Set<string>,
): Promise<void> {
  const tx = ctx.tenant;
  const userIds = [...names.keys()];
  const members = new Set(
    (
      await tx.findMany(organizationUsers, {
        where: allOf(eq(organizationUsers.organizationId, organizationId), inArray(organizationUsers.userId, userIds)),
      })
    ).map((row) => row.userId),
  );
  const joining = userIds.filter((id) => (names.get(id)?.size ?? 0) > 0 && !members.has(id));
  const leaving = userIds.filter((id) => (names.get(id)?.size ?? 0) === 0 && members.has(id));
  if (joining.length)
    await changeRelation(ctx, organizationMembers, { id: organizationId }, async () => ({ kind: 'add', ids: joining }));
  for (const userId of leaving) {
    await changeRelation(ctx, organizationMembers, { id: organizationId }, async () => ({
      kind: 'remove',
      id: userId,
    }));
  }
  const roleRows = managed.size
    ? await tx.findMany(organizationRoles, {
        where: allOf(inArray(organizationRoles.name, [...managed]), eq(organizationRoles.type, 'User')),
      })
    : [];
  const managedRoles = new Map(roleRows.map((role) => [role.id, role.name]));
  for (const userId of userIds) {
    const groupNames = names.get(userId) ?? new Set<string>();
    if (!groupNames.size) continue;
    const held = await idsOf(tx, memberRolesOf(organizationId, userId));
    const next = wanted(held, managedRoles, groupNames);
    if (sameIds(held, next)) continue;
    await changeRelation(ctx, memberRoles, { id: organizationId, userId }, async () => ({
      kind: 'replace',
      ids: next,
    }));
  }
}

async function syncRoles(ctx: WriteContext, names: Map<string, Set<string>>, managed: Set<string>): Promise<void> {
  const tx = ctx.tenant;
  if (!managed.size) return;
  const roleRows = await tx.findMany(roles, {
    where: allOf(inArray(roles.name, [...managed]), eq(roles.type, 'User')),
  });
  const managedRoles = new Map(roleRows.map((role) => [role.id, role.name]));
  if (!managedRoles.size) return;
  for (const [userId, groupNames] of names) {
    const held = await idsOf(tx, userRoleLinks(userId));
    const next = wanted(held, managedRoles, groupNames);
    if (sameIds(held, next)) continue;
    await changeRelation(ctx, userRoles, { userId }, async () => ({ kind: 'replace', ids: next }));
  }
}

/**
 * Brings what the connection's groups grant in line for `userIds`, in the caller's transaction (`ctx.tenant` is it).
 * `formerNames` are group names the change took away (a renamed or deleted group), whose roles are managed too. An
 * organization the mapping names that no longer exists grants nothing (the groups are still kept).
 */
export async function syncGroupGrants(
  ctx: WriteContext,
  connection: ScimConnectionRow,
  userIds: readonly string[],
  formerNames: readonly string[] = [],
): Promise<void> {
  const unique = [...new Set(userIds)];
  if (!unique.length) return;
  const names = await groupNamesOf(ctx.tenant, connection.id, unique);
  const managed = await managedNames(ctx.tenant, connection.id, formerNames);
  const mapping = connection.groupMapping;
  if (mapping.kind === 'roles') return syncRoles(ctx, names, managed);
  const organization = await ctx.tenant.findOne(organizations, eq(organizations.id, mapping.organizationId));
  if (!organization) return;
  await syncOrganization(ctx, mapping.organizationId, names, managed);
}
