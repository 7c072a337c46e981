import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

/**
 * Tables. Every tenant-scoped table has `tenant_id` first in its primary key, and relations
 * between tenant-scoped rows use composite foreign keys, so a row can never point into another tenant.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const tenantId = () =>
  varchar('tenant_id', { length: 21 })
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const tenants = pgTable('tenants', {
  id: varchar('id', { length: 21 }).primaryKey(),
  name: varchar('name', { length: 128 }).notNull(),
  tag: varchar('tag', { length: 32 }).notNull().default('development'),
  regionName: varchar('region_name', { length: 8 }).notNull().default('EU'),
  isSuspended: boolean('is_suspended').notNull().default(false),
  createdAt: createdAt(),
});

/** A tenant's OIDC signing keys (private JWKs); the newest is used to sign. */
export const signingKeys = pgTable(
  'signing_keys',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const users = pgTable(
  'users',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 12 }).notNull(),
    username: varchar('username', { length: 128 }),
    primaryEmail: varchar('primary_email', { length: 128 }),
    primaryPhone: varchar('primary_phone', { length: 128 }),
    passwordEncrypted: varchar('password_encrypted', { length: 256 }),
    passwordEncryptionMethod: varchar('password_encryption_method', { length: 32 }),
    name: varchar('name', { length: 128 }),
    avatar: varchar('avatar', { length: 2048 }),
    profile: jsonb('profile').$type<Record<string, unknown>>().notNull().default({}),
    customData: jsonb('custom_data').$type<Record<string, unknown>>().notNull().default({}),
    identities: jsonb('identities').$type<Record<string, unknown>>().notNull().default({}),
    isSuspended: boolean('is_suspended').notNull().default(false),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('users_username_unique').on(t.tenantId, sql`lower(${t.username})`),
    uniqueIndex('users_primary_email_unique').on(t.tenantId, sql`lower(${t.primaryEmail})`),
    uniqueIndex('users_primary_phone_unique').on(t.tenantId, t.primaryPhone),
    index('users_created_at').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const roles = pgTable(
  'roles',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    description: varchar('description', { length: 128 }).notNull().default(''),
    type: varchar('type', { length: 32 }).notNull().default('User'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('roles_name_unique').on(t.tenantId, t.name),
    index('roles_created_at').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const usersRoles = pgTable(
  'users_roles',
  {
    tenantId: tenantId(),
    userId: varchar('user_id', { length: 12 }).notNull(),
    roleId: varchar('role_id', { length: 21 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.roleId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.roleId], foreignColumns: [roles.tenantId, roles.id] }).onDelete('cascade'),
    index('users_roles_role').on(t.tenantId, t.roleId),
  ],
);

/** The audit log: sign-in events and every admin write, with before/after for writes. */
export const logs = pgTable(
  'logs',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    key: varchar('key', { length: 128 }).notNull(),
    userId: varchar('user_id', { length: 21 }),
    applicationId: varchar('application_id', { length: 21 }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('logs_created_at').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    index('logs_user').on(t.tenantId, t.userId, t.createdAt.desc()),
    index('logs_application').on(t.tenantId, t.applicationId, t.createdAt.desc()),
    index('logs_key').on(t.tenantId, t.key, t.createdAt.desc()),
  ],
);

/** Domain events written in the same transaction as the change; the webhook worker drains it. */
export const outbox = pgTable(
  'outbox',
  {
    tenantId: tenantId(),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    event: varchar('event', { length: 64 }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('outbox_pending').on(t.id).where(sql`${t.processedAt} is null`),
  ],
);

export const schema = { tenants, signingKeys, users, roles, usersRoles, logs, outbox };
