import type { LogKey, User } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { notFound } from '../http/errors.ts';
import { performWrite, type WriteContext } from './write-path.ts';

export type UserRow = typeof users.$inferSelect;

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

/** The user of this tenant with that id, or 404 `entity.not_found`. */
export async function findUser(tenant: TenantDb, id: string): Promise<UserRow> {
  const user = await tenant.findOne(users, eq(users.id, id));
  if (!user) throw notFound();
  return user;
}

type UserValues = Partial<Omit<typeof users.$inferInsert, 'tenantId' | 'id'>>;
type AuditImages = { before: Record<string, unknown>; after: Record<string, unknown> };

export type UserUpdate<S extends z.ZodType> = {
  /** Audit-log key; admin writes default to `Admin.User.Updated`. */
  key?: LogKey;
  schema: S;
  input: unknown;
  /** The new column values, from the stored user and the valid input; may throw an ApiError. */
  change: (user: UserRow, input: z.output<S>, tx: TenantDb) => UserValues | Promise<UserValues>;
  /** Audit images when the user's API shape would not show the change (a new password). */
  audit?: (before: UserRow, after: UserRow) => AuditImages;
};

/**
 * One change of a user through the write path: 404 when it does not exist in the tenant, the new
 * values with `updatedAt`, an audit entry with before/after and the `User.Data.Updated` event.
 */
export function updateUser<S extends z.ZodType>(ctx: WriteContext, userId: string, spec: UserUpdate<S>) {
  return performWrite(
    ctx,
    { key: spec.key ?? 'Admin.User.Updated', schema: spec.schema, input: spec.input },
    async (tx, input) => {
      const existing = await findUser(tx, userId);
      const values = await spec.change(existing, input, tx);
      const [row] = await tx.update(users, eq(users.id, userId), { ...values, updatedAt: new Date() });
      if (!row) throw notFound();
      const images = spec.audit?.(existing, row) ?? { before: auditImage(existing), after: auditImage(row) };
      return {
        result: row,
        entity: { type: 'User', id: userId },
        ...images,
        events: [{ event: 'User.Data.Updated', data: toUser(row) }],
      };
    },
  );
}
