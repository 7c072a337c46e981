import { generateId, type ScimGroup } from '@gatehouse/schemas';
import { asc, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { allOf } from '../../db/conditions.ts';
import { scimGroupMembers, scimGroups, scimUsers } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import { likePattern, type Page } from '../list-query.ts';
import { performWrite, type WriteContext } from '../write-path.ts';
import { badRequest, scimNotFound } from './errors.ts';
import { conditionSql, type FilterScope, type Operand, parseFilter, resourceScope } from './filter.ts';
import { syncGroupGrants } from './group-grants.ts';
import { listResponse, type ScimListQuery, type ScimScope, scimPage } from './paging.ts';
import { applyPatch, normalizePatch } from './patch.ts';
import {
  type GroupInput,
  type JsonObject,
  normalizeGroupInput,
  type Projection,
  project,
  projectionOf,
  projects,
} from './resources.ts';
import { CORE_GROUP_SCHEMA } from './schema.ts';

/**
 * SCIM Groups (RFC 7644 §3) of one connection: a display name and members, who must be users of the same connection
 * (nested groups and other accounts are 400 `invalidValue`). A change is audited as `Admin.ScimGroup.*` with the
 * connection as actor, then what the groups grant is brought in line for the users it touched (group-grants.ts).
 */

type ScimGroupRow = typeof scimGroups.$inferSelect;

const groupColumns: Record<string, Operand> = {
  id: { kind: 'text', sql: sql`${scimGroups.id}`, caseExact: true },
  externalId: { kind: 'text', sql: sql`${scimGroups.externalId}`, caseExact: true },
  displayName: { kind: 'text', sql: sql`${scimGroups.displayName}`, caseExact: false },
  'meta.created': { kind: 'time', sql: sql`${scimGroups.createdAt}` },
  'meta.lastModified': { kind: 'time', sql: sql`${scimGroups.updatedAt}` },
};

/** A group's members are rows of `scim_group_members`: `members.value` and `members[value …]` read them. */
const memberScope: FilterScope = {
  operand(path) {
    if (path.attribute.name !== 'value') throw badRequest('invalidFilter', 'Members are filtered by their value only.');
    return { kind: 'text', sql: sql`${scimGroupMembers.userId}`, caseExact: true };
  },
  present: (path) => (path.attribute.name === 'value' ? sql`true` : sql`false`),
  any() {
    throw badRequest('invalidFilter', 'A filter of values cannot hold another one.');
  },
};

const groupScope = resourceScope({
  resource: sql`'{}'::jsonb`,
  columns: groupColumns,
  relation: (path, item) =>
    path.attribute.name === 'members'
      ? sql`exists (select 1 from ${scimGroupMembers} where ${scimGroupMembers.tenantId} = ${scimGroups.tenantId}
          and ${scimGroupMembers.groupId} = ${scimGroups.id} and ${item(memberScope)})`
      : undefined,
});

const groupsWhere = (scope: ScimScope, condition?: SQL) =>
  allOf(eq(scimGroups.connectionId, scope.connection.id), condition);

/** The members of these groups, by group (one statement for a page). */
async function membersOf(tenant: TenantDb, groupIds: string[]): Promise<Map<string, string[]>> {
  if (!groupIds.length) return new Map();
  const rows = await tenant.findMany(scimGroupMembers, {
    where: inArray(scimGroupMembers.groupId, groupIds),
    orderBy: [asc(scimGroupMembers.userId)],
  });
  const grouped = new Map<string, string[]>();
  for (const row of rows) grouped.set(row.groupId, [...(grouped.get(row.groupId) ?? []), row.userId]);
  return grouped;
}

function toScimGroup(scope: ScimScope, row: ScimGroupRow, memberIds: readonly string[]): JsonObject {
  return {
    schemas: [CORE_GROUP_SCHEMA],
    id: row.id,
    ...(row.externalId === null ? {} : { externalId: row.externalId }),
    displayName: row.displayName,
    ...(memberIds.length
      ? { members: memberIds.map((id) => ({ value: id, $ref: `${scope.baseUrl}/Users/${id}`, type: 'User' })) }
      : {}),
    meta: {
      resourceType: 'Group',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${scope.baseUrl}/Groups/${row.id}`,
    },
  };
}

async function render(tenant: TenantDb, scope: ScimScope, rows: ScimGroupRow[], projection: Projection) {
  // Entra ID reads groups with `excludedAttributes=members`: their members are then not read at all.
  const members = projects('Group', projection, 'members')
    ? await membersOf(
        tenant,
        rows.map((row) => row.id),
      )
    : new Map<string, string[]>();
  return rows.map((row) => project('Group', toScimGroup(scope, row, members.get(row.id) ?? []), projection));
}

/** `GET /Groups`: a filtered page, oldest first. */
export function listScimGroups(tenant: TenantDb, scope: ScimScope, query: ScimListQuery): Promise<JsonObject> {
  const condition = query.filter ? conditionSql(parseFilter('Group', query.filter), groupScope) : undefined;
  const page = scimPage(query);
  const where = groupsWhere(scope, condition);
  return tenant.onOneConnection(async (tx) => {
    const total = await tx.count(scimGroups, where);
    const rows = page.count
      ? await tx.findMany(scimGroups, {
          where,
          orderBy: [asc(scimGroups.createdAt), asc(scimGroups.id)],
          limit: page.count,
          offset: page.startIndex - 1,
        })
      : [];
    return listResponse(await render(tx, scope, rows, projectionOf(query)), total, page);
  });
}

async function findGroup(tenant: TenantDb, scope: ScimScope, id: string): Promise<ScimGroupRow> {
  const row = await tenant.findOne(scimGroups, groupsWhere(scope, eq(scimGroups.id, id)));
  if (!row) throw scimNotFound(`No group "${id.slice(0, 100)}".`);
  return row;
}

export async function getScimGroup(
  tenant: TenantDb,
  scope: ScimScope,
  id: string,
  projection: Projection = {},
): Promise<JsonObject> {
  const [resource] = await render(tenant, scope, [await findGroup(tenant, scope, id)], projection);
  return resource as JsonObject;
}

// ——— Writes ———

const audited = (id: string) => ({ type: 'ScimGroup', id });
const image = (row: ScimGroupRow) => ({
  id: row.id,
  connectionId: row.connectionId,
  displayName: row.displayName,
  externalId: row.externalId,
});

/** 400 `invalidValue` unless every id is a user of this connection. */
async function assertMembers(tx: TenantDb, scope: ScimScope, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  const found = await tx.findMany(scimUsers, {
    where: allOf(
      eq(scimUsers.connectionId, scope.connection.id),
      isNull(scimUsers.deletedAt),
      inArray(scimUsers.userId, [...ids]),
    ),
  });
  const known = new Set(found.map((row) => row.userId));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    const named = missing
      .slice(0, 5)
      .map((id) => `"${id.slice(0, 100)}"`)
      .join(', ');
    throw badRequest('invalidValue', `Members must be users of this connection (not: ${named}).`);
  }
}

/** `POST /Groups`. */
export async function createScimGroup(ctx: WriteContext, scope: ScimScope, body: unknown): Promise<JsonObject> {
  const input = normalizeGroupInput(body);
  const id = await ctx.tenant.transaction(async (tx) => {
    const inner = { ...ctx, tenant: tx };
    await assertMembers(tx, scope, input.memberIds);
    const created = await performWrite(inner, 'Admin.ScimGroup.Created', async (write) => {
      const now = new Date();
      const row = await write.insert(scimGroups, {
        id: generateId(),
        connectionId: scope.connection.id,
        displayName: input.displayName,
        externalId: input.externalId,
        createdAt: now,
        updatedAt: now,
      });
      await write.insertMany(
        scimGroupMembers,
        input.memberIds.map((userId) => ({ groupId: row.id, userId })),
        { returning: false },
      );
      const after = { ...image(row), userIds: [...input.memberIds].sort() };
      return { result: row, entity: audited(row.id), before: null, after };
    });
    await syncGroupGrants(inner, scope.connection, input.memberIds);
    return created.id;
  });
  return getScimGroup(ctx.tenant, scope, id);
}

/** PUT and PATCH: the group's new input from the stored one; members wholesale (Okta's PUT); unchanged writes nothing. */
async function writeScimGroup(
  ctx: WriteContext,
  scope: ScimScope,
  id: string,
  build: (row: ScimGroupRow, memberIds: string[]) => GroupInput,
): Promise<void> {
  await ctx.tenant.transaction(async (tx) => {
    const inner = { ...ctx, tenant: tx };
    const row = await findGroup(tx, scope, id);
    const memberIds = (await membersOf(tx, [id])).get(id) ?? [];
    const input = build(row, memberIds);
    const before = new Set(memberIds);
    const after = new Set(input.memberIds);
    const added = input.memberIds.filter((userId) => !before.has(userId));
    const removed = memberIds.filter((userId) => !after.has(userId));
    await assertMembers(tx, scope, added);
    const renamed = input.displayName !== row.displayName;
    if (!renamed && input.externalId === row.externalId && !added.length && !removed.length) return;
    await performWrite(inner, 'Admin.ScimGroup.Updated', async (write) => {
      const [updated] = await write.update(scimGroups, eq(scimGroups.id, id), {
        displayName: input.displayName,
        externalId: input.externalId,
        updatedAt: new Date(),
      });
      if (removed.length) {
        await write.delete(
          scimGroupMembers,
          allOf(eq(scimGroupMembers.groupId, id), inArray(scimGroupMembers.userId, removed)),
        );
      }
      await write.insertMany(
        scimGroupMembers,
        added.map((userId) => ({ groupId: id, userId })),
        { returning: false },
      );
      return {
        result: undefined,
        entity: audited(id),
        // A group may have very many members: before/after name the ones this request removed and added.
        before: { ...image(row), userIds: [...removed].sort() },
        after: { ...image(updated ?? row), userIds: [...added].sort() },
      };
    });
    // A rename changes what every member's group names grant; otherwise only the members who came or went.
    const touched = renamed ? [...new Set([...memberIds, ...input.memberIds])] : [...added, ...removed];
    await syncGroupGrants(inner, scope.connection, touched, renamed ? [row.displayName] : []);
  });
}

/** `PUT /Groups/{id}`: display name, externalId and members replaced (a PUT without members empties the group). */
export async function replaceScimGroup(ctx: WriteContext, scope: ScimScope, id: string, body: unknown) {
  const input = normalizeGroupInput(body);
  await writeScimGroup(ctx, scope, id, () => input);
  return getScimGroup(ctx.tenant, scope, id);
}

/** `PATCH /Groups/{id}` (answered 204): add and remove members, rename. */
export async function patchScimGroup(ctx: WriteContext, scope: ScimScope, id: string, body: unknown): Promise<void> {
  const operations = normalizePatch('Group', body);
  await writeScimGroup(ctx, scope, id, (row, memberIds) =>
    normalizeGroupInput(
      applyPatch(
        {
          schemas: [CORE_GROUP_SCHEMA],
          id: row.id,
          displayName: row.displayName,
          ...(row.externalId === null ? {} : { externalId: row.externalId }),
          ...(memberIds.length ? { members: memberIds.map((value) => ({ value })) } : {}),
          meta: { resourceType: 'Group' },
        },
        operations,
      ),
    ),
  );
}

/** `DELETE /Groups/{id}`: its members lose what it granted. */
export async function deleteScimGroup(ctx: WriteContext, scope: ScimScope, id: string): Promise<void> {
  await ctx.tenant.transaction(async (tx) => {
    const inner = { ...ctx, tenant: tx };
    const row = await findGroup(tx, scope, id);
    const memberIds = (await membersOf(tx, [id])).get(id) ?? [];
    await performWrite(inner, 'Admin.ScimGroup.Deleted', async (write) => {
      await write.delete(scimGroups, eq(scimGroups.id, id));
      return {
        result: undefined,
        entity: audited(id),
        before: { ...image(row), memberCount: memberIds.length },
        after: null,
      };
    });
    await syncGroupGrants(inner, scope.connection, memberIds, [row.displayName]);
  });
}

// ——— The management API's view ———

/** `GET /scim-connections/{id}/groups`: a page of the connection's groups with their member counts, oldest first. */
export async function listProvisionedGroups(
  tenant: TenantDb,
  connectionId: string,
  page: Page,
  search: string | undefined,
): Promise<{ rows: ScimGroup[]; total: number }> {
  const where = allOf(
    eq(scimGroups.connectionId, connectionId),
    search === undefined ? undefined : sql`${scimGroups.displayName} ilike ${likePattern(search)}`,
  );
  return tenant.onOneConnection(async (tx) => {
    const total = await tx.count(scimGroups, where);
    const rows = await tx.findMany(scimGroups, {
      where,
      orderBy: [asc(scimGroups.createdAt), asc(scimGroups.id)],
      limit: page.limit,
      offset: page.offset,
    });
    const counts = rows.length
      ? await tx.aggregate(
          { groupId: scimGroupMembers.groupId, members: count() },
          scimGroupMembers,
          inArray(
            scimGroupMembers.groupId,
            rows.map((row) => row.id),
          ),
          [scimGroupMembers.groupId],
        )
      : [];
    const memberCounts = new Map(counts.map((row) => [String(row.groupId), Number(row.members)]));
    return {
      total,
      rows: rows.map((row) => ({
        id: row.id,
        displayName: row.displayName,
        externalId: row.externalId,
        memberCount: memberCounts.get(row.id) ?? 0,
        createdAt: row.createdAt.getTime(),
        updatedAt: row.updatedAt.getTime(),
      })),
    };
  });
}
