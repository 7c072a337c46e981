import {
  customDataSchema,
  DomainError,
  generateId,
  invalidFields,
  type LogKey,
  MISSING_IDENTIFIER_MESSAGE,
  rowNotFound,
  type User,
  type UserListQuery,
  type UserProfile,
  type userCreateSchema,
  type userPatchSchema,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { Page } from './list-query.ts';
import { assertPasswordAllowed, encryptPassword, verifyStoredPassword } from './user-passwords.ts';
import {
  countTenantUsers,
  searchCandidates,
  type UserListTotal,
  userListCondition,
  userListOrder,
  userListTotal,
} from './user-search.ts';
import { endUserSessions } from './user-sessions.ts';
import { performWrite, type WriteContext } from './write-path.ts';

export type UserRow = typeof users.$inferSelect;
type UserCreate = z.output<typeof userCreateSchema>;
type UserPatch = z.output<typeof userPatchSchema>;

/** The API shape of a user: never the password hash, only whether there is a password. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    primaryEmail: row.primaryEmail,
    primaryPhone: row.primaryPhone,
    name: row.name,
    avatar: row.avatar,
    customData: row.customData,
    identities: row.identities,
    profile: row.profile,
    isSuspended: row.isSuspended,
    hasPassword: Boolean(row.passwordEncrypted),
    lastSignInAt: row.lastSignInAt?.getTime() ?? null,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

/** The audit image of a user (before/after): the API shape without the timestamps every write moves. */
export function auditImage(row: UserRow): Record<string, unknown> {
  const { updatedAt: _updated, lastSignInAt: _lastSignIn, ...image } = toUser(row);
  return image;
}

/** The user of this tenant with that id, or 404 `entity.not_found` (the reference's user finder is a one-row query). */
export async function findUser(tenant: TenantDb, id: string): Promise<UserRow> {
  const user = await tenant.findOne(users, eq(users.id, id));
  if (!user) throw rowNotFound();
  return user;
}

type UserValues = Partial<Omit<typeof users.$inferInsert, 'tenantId' | 'id'>>;
type AuditImages = { before: Record<string, unknown>; after: Record<string, unknown> };

export type UserUpdate = {
  /** Audit-log key; admin writes default to `Admin.User.Updated`. */
  key?: LogKey;
  /** The new column values, from the stored user; may throw a DomainError. */
  change: (user: UserRow, tx: TenantDb) => UserValues | Promise<UserValues>;
  /** Audit images when the user's API shape would not show the change (a new password). */
  audit?: (before: UserRow, after: UserRow) => AuditImages;
};

/**
 * One change of a user through the write path: 404 when it does not exist in the tenant, the new
 * values with `updatedAt`, an audit entry with before/after and the `User.Data.Updated` event.
 */
export function updateUser(ctx: WriteContext, userId: string, spec: UserUpdate): Promise<UserRow> {
  return performWrite(ctx, spec.key ?? 'Admin.User.Updated', async (tx) => {
    const existing = await findUser(tx, userId);
    const values = await spec.change(existing, tx);
    // An admin who sets the primary email vouches for it, as on creation.
    if (values.primaryEmail !== undefined && values.primaryEmailVerified === undefined) {
      values.primaryEmailVerified = values.primaryEmail !== null;
    }
    if (values.primaryPhone !== undefined && values.primaryPhoneVerified === undefined) {
      values.primaryPhoneVerified = values.primaryPhone !== null;
    }
    const [row] = await tx.update(users, eq(users.id, userId), { ...values, updatedAt: new Date() });
    if (!row) throw rowNotFound();
    const images = spec.audit?.(existing, row) ?? { before: auditImage(existing), after: auditImage(row) };
    return {
      result: row,
      entity: { type: 'User', id: userId },
      ...images,
      events: [{ event: 'User.Data.Updated', data: toUser(row) }],
    };
  });
}

/** One page of GET /users with its total (exact, or capped at {@link USER_COUNT_CAP} for searches). */
export async function findUserPage(
  tenant: TenantDb,
  query: UserListQuery,
  page: Page,
): Promise<{ rows: UserRow[]; total: UserListTotal }> {
  // The page's three or four statements on one connection that is the tenant already (no transaction on PostgreSQL:
  // the count and the rows need no common snapshot, and BEGIN and COMMIT would be two more round trips).
  return tenant.onOneConnection(async (tx) => {
    const candidates = await searchCandidates(tx, query);
    const where = userListCondition(tx, query, candidates);
    const tenantUsers = await countTenantUsers(tx);
    const total = await userListTotal(tx, query, where, tenantUsers, candidates);
    const rows =
      page.offset < total.total || total.capped
        ? await tx.findMany(users, {
            where,
            orderBy: userListOrder(total, tenantUsers, page),
            limit: page.limit,
            offset: page.offset,
          })
        : [];
    return { rows, total };
  });
}

/**
 * A new user. The password policy check and the (deliberately slow) hash run before the transaction
 * opens; an imported digest is stored as given.
 */
export async function createUser(ctx: WriteContext, input: UserCreate): Promise<User> {
  if (input.password !== undefined) await assertPasswordAllowed(ctx.tenant, input.password, input);
  const password =
    input.password !== undefined
      ? await encryptPassword(input.password)
      : input.passwordDigest !== undefined && input.passwordAlgorithm !== undefined
        ? { passwordEncrypted: input.passwordDigest, passwordEncryptionMethod: input.passwordAlgorithm }
        : { passwordEncrypted: null, passwordEncryptionMethod: null };
  return performWrite(ctx, 'Admin.User.Created', async (tx) => {
    const row = await tx.insert(users, {
      id: generateId(12),
      username: input.username ?? null,
      primaryEmail: input.primaryEmail ?? null,
      // Set through the admin API: the admin's word counts as verification (docs/areas/sign-in.md).
      primaryEmailVerified: input.primaryEmail != null,
      primaryPhone: input.primaryPhone ?? null,
      primaryPhoneVerified: input.primaryPhone != null,
      name: input.name ?? null,
      avatar: input.avatar ?? null,
      customData: input.customData ?? {},
      profile: input.profile ?? {},
      ...password,
    });
    const created = toUser(row);
    return {
      result: created,
      entity: { type: 'User', id: row.id },
      before: null,
      after: auditImage(row),
      events: [{ event: 'User.Created', data: created }],
    };
  });
}

/** A patch of a user's fields; the user keeps at least one of username, email and phone. */
export function patchUser(ctx: WriteContext, userId: string, patch: UserPatch): Promise<UserRow> {
  return updateUser(ctx, userId, {
    change: (existing) => {
      const identifiers = { ...pickIdentifiers(existing), ...pickIdentifiers(patch) };
      if (!identifiers.username && !identifiers.primaryEmail && !identifiers.primaryPhone) {
        throw new DomainError('invalid', 'guard.invalid_input', [
          { path: '', message: MISSING_IDENTIFIER_MESSAGE, code: 'custom' },
        ]);
      }
      return patch;
    },
  });
}

/** Deletes a user; their sessions, grants and tokens go in the same transaction. */
export function deleteUser(ctx: WriteContext, userId: string): Promise<void> {
  return performWrite(ctx, 'Admin.User.Deleted', async (tx) => {
    const [row] = await tx.delete(users, eq(users.id, userId));
    if (!row) throw rowNotFound();
    await endUserSessions(tx, userId);
    return {
      result: undefined,
      entity: { type: 'User', id: userId },
      before: auditImage(row),
      after: null,
      events: [{ event: 'User.Deleted', data: toUser(row) }],
    };
  });
}

/**
 * The given top-level keys replace the stored ones and the others stay (the reference's merge). The merged object
 * keeps the 64 KiB rule: 400 on `customData` when it would outgrow it.
 */
export function mergeCustomData(
  ctx: WriteContext,
  userId: string,
  customData: Record<string, unknown>,
): Promise<UserRow> {
  return updateUser(ctx, userId, {
    change: (existing) => {
      const merged = { ...existing.customData, ...customData };
      const checked = customDataSchema.safeParse(merged);
      if (!checked.success) {
        throw new DomainError(
          'invalid',
          'guard.invalid_input',
          invalidFields(checked.error).map((field) => ({ ...field, path: 'customData' })),
        );
      }
      return { customData: merged };
    },
  });
}

/** The given profile fields replace the stored ones; the others are kept. */
export function patchProfile(ctx: WriteContext, userId: string, profile: UserProfile): Promise<UserRow> {
  return updateUser(ctx, userId, { change: (existing) => ({ profile: { ...existing.profile, ...profile } }) });
}

/** Sets a password the policy allows; the audit entry says that it changed, never the password or its hash. */
export async function setPassword(ctx: WriteContext, userId: string, password: string): Promise<UserRow> {
  const existing = await findUser(ctx.tenant, userId);
  await assertPasswordAllowed(ctx.tenant, password, existing);
  const encrypted = await encryptPassword(password);
  return updateUser(ctx, userId, {
    change: () => encrypted,
    audit: (before) => ({
      before: { password: before.passwordEncrypted ? 'set' : 'none' },
      after: { password: 'changed' },
    }),
  });
}

/** 422 `session.invalid_credentials` unless the password is the user's. */
export async function verifyPassword(tenant: TenantDb, userId: string, password: string): Promise<void> {
  const user = await findUser(tenant, userId);
  const matches = user.passwordEncrypted
    ? await verifyStoredPassword(user.passwordEncryptionMethod, user.passwordEncrypted, password)
    : false;
  if (!matches) throw new DomainError('unprocessable', 'session.invalid_credentials');
}

/** Suspension ends what the provider holds for the user (sessions, grants, tokens) in the same transaction. */
export function setSuspension(ctx: WriteContext, userId: string, isSuspended: boolean): Promise<UserRow> {
  return updateUser(ctx, userId, {
    change: async (existing, tx) => {
      if (isSuspended) await endUserSessions(tx, existing.id);
      return { isSuspended };
    },
  });
}

/** Unlinks the identity of a connector target (404 `user.identity_not_exist` when the user has none there). */
export function deleteIdentity(ctx: WriteContext, userId: string, target: string): Promise<UserRow> {
  return updateUser(ctx, userId, {
    change: (user) => {
      if (!Object.hasOwn(user.identities, target)) throw new DomainError('not_found', 'user.identity_not_exist');
      const { [target]: _removed, ...identities } = user.identities;
      return { identities };
    },
  });
}

/** The identifier fields a value sets (undefined ones are not part of a patch). */
function pickIdentifiers(value: {
  username?: string | null;
  primaryEmail?: string | null;
  primaryPhone?: string | null;
}) {
  return Object.fromEntries(
    (['username', 'primaryEmail', 'primaryPhone'] as const).flatMap((field) =>
      value[field] === undefined ? [] : [[field, value[field]]],
    ),
  ) as Partial<Record<'username' | 'primaryEmail' | 'primaryPhone', string | null>>;
}
