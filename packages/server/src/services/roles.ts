import {
  generateId,
  type Role,
  type RoleCreate,
  type RoleListItem,
  type RolePatch,
  type RoleType,
} from '@gatehouse/schemas';
import { and, count, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { anyOf } from '../db/conditions.ts';
import { applicationsRoles, roles, rolesScopes, usersRoles } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { notFound } from '../http/errors.ts';
import { type ListQuery, likePattern } from '../http/route-kit.ts';
import { assertQuota, type QuotaDeps, roleQuotaKey } from './quota.ts';
import { notInRelation } from './relations.ts';
import { addScopesToRole, findRole, roleScopesUpdatedEvent } from './role-assignments.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/** The API shape of a role row. */
export function toRole(row: typeof roles.$inferSelect): Role {
  return { ...row, type: row.type as Role['type'], createdAt: row.createdAt.getTime() };
}

/**
 * The roles of a page with their users, applications and permissions counted: one grouped count per relation for
 * the whole page (three statements, each reading only these roles' index ranges), not one per role.
 */
export async function withCounts(tenant: TenantDb, rows: (typeof roles.$inferSelect)[]): Promise<RoleListItem[]> {
  if (!rows.length) return [];
  const ids = rows.map((row) => row.id);
  const countBy = async (table: typeof usersRoles | typeof applicationsRoles | typeof rolesScopes) => {
    const counted = await tenant.aggregate(
      { roleId: table.roleId, value: count() },
      table,
      inArray(table.roleId, ids),
      [table.roleId],
    );
    return new Map(counted.map((row) => [String(row.roleId), Number(row.value)]));
  };
  const [usersCounts, applicationsCounts, scopesCounts] = await Promise.all([
    countBy(usersRoles),
    countBy(applicationsRoles),
    countBy(rolesScopes),
  ]);
  return rows.map((row) => ({
    ...toRole(row),
    usersCount: usersCounts.get(row.id) ?? 0,
    applicationsCount: applicationsCounts.get(row.id) ?? 0,
    scopesCount: scopesCounts.get(row.id) ?? 0,
  }));
}

export type RoleFilter = {
  search?: string | undefined;
  type?: RoleType | undefined;
  /** Leave out roles this user holds. */
  excludeUserId?: string | undefined;
  /** Leave out roles this application holds. */
  excludeApplicationId?: string | undefined;
};

/** The condition and order of GET /roles, newest first. */
export function roleListQuery(tenant: TenantDb, filter: RoleFilter): ListQuery {
  const conditions: SQL[] = [];
  if (filter.type) conditions.push(eq(roles.type, filter.type));
  if (filter.excludeUserId) {
    conditions.push(
      notInRelation(tenant, roles.id, usersRoles, usersRoles.roleId, eq(usersRoles.userId, filter.excludeUserId)),
    );
  }
  if (filter.excludeApplicationId) {
    conditions.push(
      notInRelation(
        tenant,
        roles.id,
        applicationsRoles,
        applicationsRoles.roleId,
        eq(applicationsRoles.applicationId, filter.excludeApplicationId),
      ),
    );
  }
  if (filter.search) {
    const pattern = likePattern(filter.search);
    conditions.push(anyOf(ilike(roles.id, pattern), ilike(roles.name, pattern), ilike(roles.description, pattern)));
  }
  return {
    where: conditions.length ? and(...conditions) : undefined,
    orderBy: [desc(roles.createdAt), desc(roles.id)],
  };
}

export async function getRole(tenant: TenantDb, id: string): Promise<Role> {
  return toRole(await findRole(tenant, id));
}

/** A new role, with its first scopes when given (within the plan's roles and scopes-per-role quotas). */
export function createRole(ctx: WriteContext, deps: QuotaDeps, input: RoleCreate): Promise<Role> {
  return performWrite(ctx, 'Admin.Role.Created', async (tx) => {
    const { scopeIds = [], ...fields } = input;
    await assertQuota(tx, roleQuotaKey(fields.type), deps);
    const row = await tx.insert(roles, { id: generateId(), ...fields });
    const created = toRole(row);
    if (!scopeIds.length) {
      return {
        result: created,
        entity: { type: 'Role', id: created.id },
        before: null,
        after: created,
        events: [{ event: 'Role.Created', data: created }],
      };
    }
    await assertQuota(tx, 'scopesPerRoleLimit', deps, { parentId: row.id, added: scopeIds.length });
    await addScopesToRole(tx, row, scopeIds);
    return {
      result: created,
      entity: { type: 'Role', id: created.id },
      before: null,
      after: { ...created, scopeIds: [...scopeIds].sort() },
      events: [{ event: 'Role.Created', data: created }, await roleScopesUpdatedEvent(tx, created.id)],
    };
  });
}

export function updateRole(ctx: WriteContext, id: string, input: RolePatch): Promise<Role> {
  return performWrite(ctx, 'Admin.Role.Updated', async (tx) => {
    const existing = await findRole(tx, id);
    const [row] = await tx.update(roles, eq(roles.id, id), input);
    if (!row) throw notFound();
    const before = toRole(existing);
    const after = toRole(row);
    return {
      result: after,
      entity: { type: 'Role', id },
      before,
      after,
      events: [{ event: 'Role.Data.Updated', data: after }],
    };
  });
}

export function deleteRole(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.Role.Deleted', async (tx) => {
    const [row] = await tx.delete(roles, eq(roles.id, id));
    if (!row) throw notFound();
    const before = toRole(row);
    return {
      result: undefined,
      entity: { type: 'Role', id },
      before,
      after: null,
      events: [{ event: 'Role.Deleted', data: before }],
    };
  });
}
