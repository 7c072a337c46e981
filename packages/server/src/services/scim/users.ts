import { isDeepStrictEqual } from 'node:util';
import type { ScimProvisionedUser, UserProfile } from '@gatehouse/schemas';
import { and, asc, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { allOf, anyOf } from '../../db/conditions.ts';
import { scimGroupMembers, scimGroups, scimUsers, ssoConnectors, userSsoIdentities, users } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import { likePattern, type Page } from '../list-query.ts';
import { endUserSessions } from '../user-sessions.ts';
import { createUser, deleteUser, toUser, type UserRow, updateUser } from '../users.ts';
import type { WriteContext } from '../write-path.ts';
import { conflict, scimNotFound } from './errors.ts';
import { conditionSql, type Operand, parseFilter, resourceScope } from './filter.ts';
import { syncGroupGrants } from './group-grants.ts';
import { listResponse, type ScimListQuery, type ScimScope, scimPage } from './paging.ts';
import { applyPatch, normalizePatch } from './patch.ts';
import {
  type AccountValues,
  accountValues,
  type JsonObject,
  normalizeUserInput,
  type Projection,
  project,
  projectionOf,
  projects,
  type UserInput,
  withOwnedKeys,
} from './resources.ts';
import { CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA } from './schema.ts';

/**
 * SCIM Users (RFC 7644 §3) of one connection: a Gatehouse account each, linked in `scim_users` with the directory's
 * userName, externalId and resource. Every change of the account goes through the users service (`createUser`,
 * `updateUser`, `deleteUser`), so it is audited with the connection as actor and sends `User.Created`,
 * `User.Data.Updated` and `User.Deleted` as an admin's change does; `active: false` suspends the account and ends its
 * sessions, grants and refresh tokens at once (the suspension's `endUserSessions`).
 */

type ScimUserRow = typeof scimUsers.$inferSelect;
type Provisioned = { link: ScimUserRow; user: UserRow };

const joinUsers = and(eq(users.tenantId, scimUsers.tenantId), eq(users.id, scimUsers.userId));

const userColumns: Record<string, Operand> = {
  id: { kind: 'text', sql: sql`${scimUsers.userId}`, caseExact: true },
  externalId: { kind: 'text', sql: sql`${scimUsers.externalId}`, caseExact: true },
  userName: { kind: 'text', sql: sql`${scimUsers.userName}`, caseExact: false },
  active: { kind: 'boolean', sql: sql`(not ${users.isSuspended})`, json: false },
  'meta.created': { kind: 'time', sql: sql`${scimUsers.createdAt}` },
  'meta.lastModified': { kind: 'time', sql: sql`${scimUsers.updatedAt}` },
};
const userScope = resourceScope({ resource: sql`${scimUsers.resource}`, columns: userColumns });

/** The connection's users (not the ones it let go) that meet `condition`. */
const provisionedWhere = (tenant: TenantDb, scope: ScimScope, condition?: SQL) =>
  allOf(
    eq(scimUsers.tenantId, tenant.tenantId),
    eq(scimUsers.connectionId, scope.connection.id),
    isNull(scimUsers.deletedAt),
    condition,
  );

function selectProvisioned(tenant: TenantDb, where: SQL, page?: { limit: number; offset: number }) {
  return tenant.asTenant(async (db) => {
    const query = db
      .select({ link: scimUsers, user: users })
      .from(scimUsers)
      .innerJoin(users, joinUsers)
      .where(where)
      .orderBy(asc(scimUsers.createdAt), asc(scimUsers.userId))
      .$dynamic();
    return page ? query.limit(page.limit).offset(page.offset) : query;
  });
}

async function countProvisioned(tenant: TenantDb, where: SQL): Promise<number> {
  const [row] = await tenant.asTenant((db) =>
    db.select({ value: count() }).from(scimUsers).innerJoin(users, joinUsers).where(where),
  );
  return Number(row?.value ?? 0);
}

type GroupRef = { id: string; displayName: string };

/** The connection's groups each of these users is in (one statement for a page). */
async function groupsOf(tenant: TenantDb, connectionId: string, userIds: string[]): Promise<Map<string, GroupRef[]>> {
  if (!userIds.length) return new Map();
  const rows = await tenant.asTenant((db) =>
    db
      .select({ userId: scimGroupMembers.userId, id: scimGroups.id, displayName: scimGroups.displayName })
      .from(scimGroupMembers)
      .innerJoin(
        scimGroups,
        and(eq(scimGroups.tenantId, scimGroupMembers.tenantId), eq(scimGroups.id, scimGroupMembers.groupId)),
      )
      .where(
        allOf(
          eq(scimGroupMembers.tenantId, tenant.tenantId),
          eq(scimGroups.connectionId, connectionId),
          inArray(scimGroupMembers.userId, userIds),
        ),
      )
      .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id)),
  );
  const grouped = new Map<string, GroupRef[]>();
  for (const row of rows) grouped.set(row.userId, [...(grouped.get(row.userId) ?? []), row]);
  return grouped;
}

/** The SCIM User of a provisioned account: the resource as the directory last wrote it, `active` from the account. */
function toScimUser(scope: ScimScope, { link, user }: Provisioned, groups: readonly GroupRef[]): JsonObject {
  const { userName: _userName, ...attributes } = link.resource as JsonObject;
  return {
    schemas: ENTERPRISE_USER_SCHEMA in attributes ? [CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [CORE_USER_SCHEMA],
    id: user.id,
    ...(link.externalId === null ? {} : { externalId: link.externalId }),
    userName: link.userName,
    ...attributes,
    active: !user.isSuspended,
    ...(groups.length
      ? {
          groups: groups.map((group) => ({
            value: group.id,
            $ref: `${scope.baseUrl}/Groups/${group.id}`,
            display: group.displayName,
            type: 'direct',
          })),
        }
      : {}),
    meta: {
      resourceType: 'User',
      created: link.createdAt.toISOString(),
      lastModified: link.updatedAt.toISOString(),
      location: `${scope.baseUrl}/Users/${user.id}`,
    },
  };
}

async function render(tenant: TenantDb, scope: ScimScope, rows: Provisioned[], projection: Projection) {
  const groups = projects('User', projection, 'groups')
    ? await groupsOf(
        tenant,
        scope.connection.id,
        rows.map((row) => row.user.id),
      )
    : new Map<string, GroupRef[]>();
  return rows.map((row) => project('User', toScimUser(scope, row, groups.get(row.user.id) ?? []), projection));
}

/** `GET /Users`: a filtered page, oldest first. */
export function listScimUsers(tenant: TenantDb, scope: ScimScope, query: ScimListQuery): Promise<JsonObject> {
  const condition = query.filter ? conditionSql(parseFilter('User', query.filter), userScope) : undefined;
  const page = scimPage(query);
  const where = provisionedWhere(tenant, scope, condition);
  return tenant.onOneConnection(async (tx) => {
    const total = await countProvisioned(tx, where);
    const rows = page.count
      ? await selectProvisioned(tx, where, { limit: page.count, offset: page.startIndex - 1 })
      : [];
    return listResponse(await render(tx, scope, rows, projectionOf(query)), total, page);
  });
}

async function findProvisioned(tenant: TenantDb, scope: ScimScope, id: string): Promise<Provisioned> {
  const [row] = await selectProvisioned(tenant, provisionedWhere(tenant, scope, eq(scimUsers.userId, id)));
  if (!row) throw scimNotFound(`No user "${id.slice(0, 100)}".`);
  return row;
}

export async function getScimUser(
  tenant: TenantDb,
  scope: ScimScope,
  id: string,
  projection: Projection = {},
): Promise<JsonObject> {
  const [resource] = await render(tenant, scope, [await findProvisioned(tenant, scope, id)], projection);
  return resource as JsonObject;
}

// ——— Writes ———

/** The account as the directory's values make it (profile and custom data keep the keys the directory does not own). */
function accountUpdate(existing: UserRow, values: AccountValues, active: boolean) {
  return {
    primaryEmail: values.primaryEmail,
    name: values.name,
    profile: withOwnedKeys(existing.profile, values.profile),
    customData: withOwnedKeys(existing.customData, values.customData),
    isSuspended: !active,
  };
}

const unchanged = (existing: UserRow, update: ReturnType<typeof accountUpdate>) =>
  existing.primaryEmail === update.primaryEmail &&
  existing.name === update.name &&
  existing.isSuspended === update.isSuspended &&
  isDeepStrictEqual(existing.profile, update.profile) &&
  isDeepStrictEqual(existing.customData, update.customData);

const linkValues = (input: UserInput) => ({
  userName: input.userName,
  externalId: input.externalId,
  resource: input.resource,
});

/**
 * One audited change of the account (`Admin.User.Updated`, `User.Data.Updated`) with its link: suspension ends the
 * user's sessions, grants and tokens in the same transaction, as the admin's suspension does.
 */
function writeAccount(
  ctx: WriteContext,
  userId: string,
  change: { values: AccountValues; active: boolean; link: (tx: TenantDb) => Promise<unknown> },
) {
  return updateUser(ctx, userId, {
    change: async (existing, tx) => {
      const update = accountUpdate(existing, change.values, change.active);
      if (update.isSuspended && !existing.isSuspended) await endUserSessions(tx, userId);
      await change.link(tx);
      return update;
    },
  });
}

const sameUserName = (userName: string) => sql`lower(${scimUsers.userName}) = lower(${userName})`;
const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * Whether an existing account of the tenant, not provisioned by any connection, becomes this connection's user when
 * the directory creates a user with its email: when the SSO connector vouches for the address (its domain is one of
 * the connector's) or the account already signs in through the connector. Anything else is 409 `uniqueness`.
 */
async function adoptable(tx: TenantDb, scope: ScimScope, holder: UserRow, email: string): Promise<boolean> {
  const connector = await tx.findOne(ssoConnectors, eq(ssoConnectors.id, scope.connection.ssoConnectorId));
  if (connector?.domains.map((domain) => domain.toLowerCase()).includes(emailDomain(email))) return true;
  const identity = await tx.findOne(
    userSsoIdentities,
    allOf(
      eq(userSsoIdentities.userId, holder.id),
      eq(userSsoIdentities.ssoConnectorId, scope.connection.ssoConnectorId),
    ),
  );
  return Boolean(identity);
}

type CreationTarget = { kind: 'new' } | { kind: 'existing'; userId: string; link: ScimUserRow | undefined };

/** What a POST makes: a new account, a user the connection let go (revived), or an account it adopts. */
async function creationTarget(
  tx: TenantDb,
  scope: ScimScope,
  input: UserInput,
  email: string,
): Promise<CreationTarget> {
  const connectionId = scope.connection.id;
  const byName = await tx.findOne(
    scimUsers,
    allOf(eq(scimUsers.connectionId, connectionId), sameUserName(input.userName)),
  );
  if (byName && !byName.deletedAt) throw conflict(`A user with userName "${input.userName}" exists.`);
  const holder = await tx.findOne(users, sql`lower(${users.primaryEmail}) = lower(${email})`);
  if (byName) {
    if (holder && holder.id !== byName.userId) throw conflict(`The email address "${email}" is another user's.`);
    return { kind: 'existing', userId: byName.userId, link: byName };
  }
  if (!holder) return { kind: 'new' };
  const held = await tx.findOne(scimUsers, eq(scimUsers.userId, holder.id));
  if (held?.connectionId === connectionId && held.deletedAt) return { kind: 'existing', userId: holder.id, link: held };
  if (held || !(await adoptable(tx, scope, holder, email))) {
    throw conflict(`The email address "${email}" is another user's.`);
  }
  return { kind: 'existing', userId: holder.id, link: undefined };
}

/** `POST /Users`. */
export async function createScimUser(ctx: WriteContext, scope: ScimScope, body: unknown): Promise<JsonObject> {
  const input = normalizeUserInput(body);
  const values = accountValues(input);
  const active = input.active ?? true;
  const userId = await ctx.tenant.transaction(async (tx) => {
    const inner = { ...ctx, tenant: tx };
    const target = await creationTarget(tx, scope, input, values.primaryEmail);
    const now = new Date();
    const link = { ...linkValues(input), connectionId: scope.connection.id, updatedAt: now, deletedAt: null };
    if (target.kind === 'new') {
      const owned = (record: Record<string, string | null>) => withOwnedKeys({}, record);
      const created = await createUser(inner, {
        primaryEmail: values.primaryEmail,
        name: values.name,
        // Only the profile claims the schema knows (accountValues names no other).
        profile: owned(values.profile) as UserProfile,
        customData: owned(values.customData),
      });
      await tx.insert(scimUsers, { ...link, userId: created.id, createdAt: now });
      if (!active) await updateUser(inner, created.id, { change: () => ({ isSuspended: true }) });
      return created.id;
    }
    await writeAccount(inner, target.userId, {
      values,
      active,
      link: (write) =>
        target.link
          ? write.update(scimUsers, eq(scimUsers.userId, target.userId), link)
          : write.insert(scimUsers, { ...link, userId: target.userId, createdAt: now }),
    });
    return target.userId;
  });
  return getScimUser(ctx.tenant, scope, userId);
}

/** PUT and PATCH: the user's new input, from the stored one; unchanged input writes nothing. */
async function writeScimUser(
  ctx: WriteContext,
  scope: ScimScope,
  id: string,
  build: (current: Provisioned) => UserInput,
): Promise<JsonObject> {
  await ctx.tenant.transaction(async (tx) => {
    const current = await findProvisioned(tx, scope, id);
    const input = build(current);
    const values = accountValues(input);
    const active = input.active ?? !current.user.isSuspended;
    if (input.userName.toLowerCase() !== current.link.userName.toLowerCase()) {
      const taken = await tx.findOne(
        scimUsers,
        allOf(eq(scimUsers.connectionId, scope.connection.id), sameUserName(input.userName)),
      );
      if (taken) throw conflict(`A user with userName "${input.userName}" exists.`);
    }
    const sameLink =
      current.link.userName === input.userName &&
      current.link.externalId === input.externalId &&
      isDeepStrictEqual(current.link.resource, input.resource);
    if (sameLink && unchanged(current.user, accountUpdate(current.user, values, active))) return;
    await writeAccount({ ...ctx, tenant: tx }, id, {
      values,
      active,
      link: (write) =>
        write.update(scimUsers, eq(scimUsers.userId, id), { ...linkValues(input), updatedAt: new Date() }),
    });
  });
  return getScimUser(ctx.tenant, scope, id);
}

/** `PUT /Users/{id}`: the whole resource; `active` left out keeps the account's state. */
export function replaceScimUser(ctx: WriteContext, scope: ScimScope, id: string, body: unknown): Promise<JsonObject> {
  const input = normalizeUserInput(body);
  return writeScimUser(ctx, scope, id, () => input);
}

/** `PATCH /Users/{id}`: the operations applied to the stored resource (patch.ts), then written as a PUT would be. */
export function patchScimUser(ctx: WriteContext, scope: ScimScope, id: string, body: unknown): Promise<JsonObject> {
  const operations = normalizePatch('User', body);
  return writeScimUser(ctx, scope, id, ({ link, user }) => {
    const document: JsonObject = {
      schemas: [CORE_USER_SCHEMA],
      id: user.id,
      ...(link.resource as JsonObject),
      userName: link.userName,
      ...(link.externalId === null ? {} : { externalId: link.externalId }),
      active: !user.isSuspended,
      meta: { resourceType: 'User' },
    };
    return normalizeUserInput(applyPatch(document, operations));
  });
}

/**
 * `DELETE /Users/{id}`, as the connection's `deprovision` says: `delete` deletes the account (`User.Deleted`);
 * `suspend` suspends it (its sessions end), takes it out of the connection's groups and lets it go from the
 * connection (404 from now on; a later POST of the same userName or email revives it).
 */
export async function deleteScimUser(ctx: WriteContext, scope: ScimScope, id: string): Promise<void> {
  await ctx.tenant.transaction(async (tx) => {
    const inner = { ...ctx, tenant: tx };
    await findProvisioned(tx, scope, id);
    if (scope.connection.deprovision === 'delete') {
      await deleteUser(inner, id);
      return;
    }
    await updateUser(inner, id, {
      change: async (_existing, write) => {
        await endUserSessions(write, id);
        await write.delete(scimGroupMembers, eq(scimGroupMembers.userId, id));
        const now = new Date();
        await write.update(scimUsers, eq(scimUsers.userId, id), { deletedAt: now, updatedAt: now });
        return { isSuspended: true };
      },
    });
    await syncGroupGrants(inner, scope.connection, [id]);
  });
}

// ——— The management API's view ———

/** `GET /scim-connections/{id}/users`: a page of the users the connection provisioned, oldest first. */
export async function listProvisionedUsers(
  tenant: TenantDb,
  connectionId: string,
  page: Page,
  search: string | undefined,
): Promise<{ rows: ScimProvisionedUser[]; total: number }> {
  const pattern = search === undefined ? undefined : likePattern(search);
  const where = allOf(
    eq(scimUsers.tenantId, tenant.tenantId),
    eq(scimUsers.connectionId, connectionId),
    isNull(scimUsers.deletedAt),
    pattern === undefined
      ? undefined
      : anyOf(
          sql`${scimUsers.userName} ilike ${pattern}`,
          sql`${users.primaryEmail} ilike ${pattern}`,
          sql`${users.name} ilike ${pattern}`,
        ),
  );
  return tenant.onOneConnection(async (tx) => {
    const total = await countProvisioned(tx, where);
    const rows = await selectProvisioned(tx, where, { limit: page.limit, offset: page.offset });
    return {
      total,
      rows: rows.map(({ link, user }) => ({
        userName: link.userName,
        externalId: link.externalId,
        createdAt: link.createdAt.getTime(),
        updatedAt: link.updatedAt.getTime(),
        user: toUser(user),
      })),
    };
  });
}
