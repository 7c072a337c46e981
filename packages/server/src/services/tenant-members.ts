import {
  DomainError,
  notFound,
  type TenantMember,
  type TenantRole,
  tenantMemberRoleUpdateSchema,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import { desc, eq, inArray } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { tenantRoleId } from '../db/seed.ts';
import { organizations, organizationUserRoles, organizationUsers, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { membershipEvent } from './organization-members.ts';
import { reassignDefaultTenants, strongestRole, tenantRoleOf } from './tenants.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/** A tenant's members: the users of organization `t-X` in the admin tenant, with their tenant role. */

export async function listTenantMembers(admin: TenantDb, tenantId: string): Promise<TenantMember[]> {
  const organizationId = tenantOrganizationId(tenantId);
  const memberships = await admin.findMany(organizationUsers, {
    where: eq(organizationUsers.organizationId, organizationId),
    orderBy: [desc(organizationUsers.createdAt), desc(organizationUsers.userId)],
  });
  const ids = memberships.map((row) => row.userId);
  if (!ids.length) return [];
  const [rows, held] = await Promise.all([
    admin.findMany(users, { where: inArray(users.id, ids) }),
    admin.findMany(organizationUserRoles, {
      where: allOf(
        eq(organizationUserRoles.organizationId, organizationId),
        inArray(organizationUserRoles.userId, ids),
      ),
    }),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const user = byId.get(id);
    if (!user) return [];
    const role = strongestRole(held.filter((row) => row.userId === id).map((row) => row.organizationRoleId));
    return [
      {
        id,
        name: user.name,
        username: user.username,
        primaryEmail: user.primaryEmail,
        avatar: user.avatar,
        role: role ?? 'collaborator',
      },
    ];
  });
}

/**
 * Serialises membership changes of one tenant: an UPDATE that changes nothing still takes the
 * organization row's lock until the transaction ends, so two admins demoting or removing each other at
 * once cannot both pass the last-admin check.
 */
async function lockTenantOrganization(tx: TenantDb, organizationId: string): Promise<void> {
  const [row] = await tx.findMany(organizations, { where: eq(organizations.id, organizationId), limit: 1 });
  if (!row) throw notFound();
  await tx.update(organizations, eq(organizations.id, organizationId), { name: row.name });
}

async function adminCount(tx: TenantDb, organizationId: string): Promise<number> {
  return tx.count(
    organizationUserRoles,
    allOf(
      eq(organizationUserRoles.organizationId, organizationId),
      eq(organizationUserRoles.organizationRoleId, tenantRoleId('admin')),
    ),
  );
}

/** Gives a member a new tenant role (their only one). Demoting the last admin is 422 `tenant.last_admin`. */
export async function updateTenantMemberRole(
  ctx: WriteContext,
  tenantId: string,
  userId: string,
  input: unknown,
): Promise<TenantMember> {
  const organizationId = tenantOrganizationId(tenantId);
  return performWrite(
    ctx,
    { key: 'Admin.TenantMember.Updated', schema: tenantMemberRoleUpdateSchema, input },
    async (tx, parsed) => {
      await lockTenantOrganization(tx, organizationId);
      const before = await tenantRoleOf(tx, tenantId, userId);
      if (!before) throw notFound();
      if (before === 'admin' && parsed.roleName !== 'admin' && (await adminCount(tx, organizationId)) <= 1) {
        throw new DomainError('unprocessable', 'tenant.last_admin');
      }
      const where = allOf(
        eq(organizationUserRoles.organizationId, organizationId),
        eq(organizationUserRoles.userId, userId),
      );
      await tx.delete(organizationUserRoles, where);
      await tx.insert(organizationUserRoles, {
        organizationId,
        userId,
        organizationRoleId: tenantRoleId(parsed.roleName),
      });
      const member = (await listTenantMembers(tx, tenantId)).find((row) => row.id === userId);
      if (!member) throw notFound();
      return {
        result: member,
        entity: { type: 'TenantMember', id: `${tenantId}:${userId}` },
        before: { tenantId, userId, role: before },
        after: { tenantId, userId, role: parsed.roleName },
      };
    },
  );
}

/**
 * Removes a member (or the member leaves). The last admin cannot go: 422 `tenant.last_admin`. A member whose default
 * tenant this was gets their oldest remaining tenant as default, in the same transaction.
 */
export async function removeTenantMember(ctx: WriteContext, tenantId: string, userId: string): Promise<void> {
  const organizationId = tenantOrganizationId(tenantId);
  await performWrite(ctx, 'Admin.TenantMember.Deleted', async (tx) => {
    await lockTenantOrganization(tx, organizationId);
    const role: TenantRole | undefined = await tenantRoleOf(tx, tenantId, userId);
    if (!role) throw notFound();
    if (role === 'admin' && (await adminCount(tx, organizationId)) <= 1)
      throw new DomainError('unprocessable', 'tenant.last_admin');
    const where = allOf(
      eq(organizationUserRoles.organizationId, organizationId),
      eq(organizationUserRoles.userId, userId),
    );
    await tx.delete(organizationUserRoles, where);
    await tx.delete(
      organizationUsers,
      allOf(eq(organizationUsers.organizationId, organizationId), eq(organizationUsers.userId, userId)),
    );
    // Whoever left or was removed no longer lands on this tenant by default.
    await reassignDefaultTenants(tx, tenantId, userId);
    return {
      result: undefined,
      entity: { type: 'TenantMember', id: `${tenantId}:${userId}` },
      before: { tenantId, userId, role },
      after: null,
      events: membershipEvent(organizationId, { kind: 'users', added: [], removed: [userId] }),
    };
  });
}
