import {
  type EntitySearchField,
  generateId,
  notFound,
  type Role,
  type RoleCreate,
  type RoleListItem,
  type RolePatch,
  type RoleType,
  type SearchSyntaxQuery,
} from '@gatehouse/schemas';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { applications, applicationsRoles, roles, rolesScopes, users, usersRoles } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { fieldSearchCondition } from './field-search.ts';
import { type ListQuery, tableList } from './list-query.ts';
import { assertQuota, type QuotaDeps, roleQuotaKey } from './quota.ts';
import { notInRelation } from './relations.ts';
import { addScopesToRole, findRole, roleScopesUpdatedEvent } from './role-assignments.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/** The API shape of a role row. */
export function toRole(row: typeof roles.$inferSelect): Role {
  return { ...row, type: row.type as Role['type'], createdAt: row.createdAt.getTime() };
}

/** Up to this many holders of each role are answered with the list (reference `featuredUsers`/`featuredApplications`). */
const FEATURED = 3;

/**
 * Up to three holders per role of the page, in one statement: a lateral `limit 3` per role reads three entries of that
 * role's index range, however many millions hold it (no sort over them; which three is the index's order).
 */
async function featuredHolders(
  tenant: TenantDb,
  table: typeof usersRoles | typeof applicationsRoles,
  ids: string[],
): Promise<{ roleId: string; holderId: string }[]> {
  const holder = table === usersRoles ? sql.raw('user_id') : sql.raw('application_id');
  const tableName = table === usersRoles ? sql.raw('users_roles') : sql.raw('applications_roles');
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await tenant.findMany(table, {
    where: sql`(${table.roleId}, ${table === usersRoles ? usersRoles.userId : applicationsRoles.applicationId}) in (
      select f.role_id, f.holder from unnest(array[${list}]::varchar[]) as r(id)
      cross join lateral (
        select h.role_id, h.${holder} as holder from ${tableName} h
        where h.tenant_id = ${tenant.tenantId} and h.role_id = r.id
        limit ${FEATURED}
      ) f
    )`,
  });
  return rows.map((row) => ({
    roleId: row.roleId,
    holderId: 'userId' in row ? row.userId : (row as typeof applicationsRoles.$inferSelect).applicationId,
  }));
}

/**
 * The roles of a page with their users, applications and permissions counted, and up to three users and
 * applications holding each (as the reference answers): one grouped count per relation for the whole page (each
 * reading only these roles' index ranges), and one statement per kind of holder, not one per role.
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
  const [usersCounts, applicationsCounts, scopesCounts, userHolders, applicationHolders] = await Promise.all([
    countBy(usersRoles),
    countBy(applicationsRoles),
    countBy(rolesScopes),
    featuredHolders(tenant, usersRoles, ids),
    featuredHolders(tenant, applicationsRoles, ids),
  ]);
  const [people, apps] = await Promise.all([
    userHolders.length
      ? tenant.findMany(users, { where: inArray(users.id, [...new Set(userHolders.map((h) => h.holderId))]) })
      : Promise.resolve([]),
    applicationHolders.length
      ? tenant.findMany(applications, {
          where: inArray(applications.id, [...new Set(applicationHolders.map((h) => h.holderId))]),
        })
      : Promise.resolve([]),
  ]);
  const userById = new Map(people.map((user) => [user.id, { id: user.id, name: user.name, avatar: user.avatar }]));
  const appById = new Map(apps.map((app) => [app.id, { id: app.id, name: app.name, type: app.type }]));
  const holdersOf = <T>(holders: { roleId: string; holderId: string }[], byId: Map<string, T>, roleId: string) =>
    holders
      .filter((holder) => holder.roleId === roleId)
      .map((holder) => holder.holderId)
      .sort()
      .flatMap((id) => byId.get(id) ?? []);
  return rows.map((row) => ({
    ...toRole(row),
    usersCount: usersCounts.get(row.id) ?? 0,
    featuredUsers: holdersOf(userHolders, userById, row.id),
    applicationsCount: applicationsCounts.get(row.id) ?? 0,
    featuredApplications: holdersOf(applicationHolders, appById, row.id),
    scopesCount: scopesCounts.get(row.id) ?? 0,
  }));
}

export type RoleFilter = SearchSyntaxQuery<EntitySearchField> & {
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
  // The reference's search syntax over id, name and description (`search`, `search.<field>`, `mode`, `joint`, …).
  const search = fieldSearchCondition(filter, { id: roles.id, name: roles.name, description: roles.description });
  if (search) conditions.push(search);
  return {
    where: conditions.length ? and(...conditions) : undefined,
    orderBy: [desc(roles.createdAt), desc(roles.id)],
  };
}

/** GET /roles: the roles a filter selects, newest first. */
export function roleList(tenant: TenantDb, filter: RoleFilter) {
  return tableList(tenant, roles, roleListQuery(tenant, filter));
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
