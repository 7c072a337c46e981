import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
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

/** Applications (OIDC clients) of a tenant. `secret` is the client secret used by the token endpoint. */
export const applications = pgTable(
  'applications',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    name: varchar('name', { length: 256 }).notNull(),
    secret: varchar('secret', { length: 64 }).notNull(),
    description: text('description'),
    type: varchar('type', { length: 32 }).notNull(),
    oidcClientMetadata: jsonb('oidc_client_metadata').$type<Record<string, unknown>>().notNull().default({}),
    customClientMetadata: jsonb('custom_client_metadata').$type<Record<string, unknown>>().notNull().default({}),
    customData: jsonb('custom_data').$type<Record<string, unknown>>().notNull().default({}),
    isThirdParty: boolean('is_third_party').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('applications_created_at').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
  ],
);

/** API resources; `indicator` is the RFC 8707 resource indicator (the token audience). */
export const resources = pgTable(
  'resources',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    name: text('name').notNull(),
    indicator: text('indicator').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    accessTokenTtl: bigint('access_token_ttl', { mode: 'number' }).notNull().default(3600),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('resources_indicator_unique').on(t.tenantId, t.indicator),
    // At most one default resource per tenant; the is-default route unsets the previous one first.
    uniqueIndex('resources_default_unique').on(t.tenantId).where(sql`${t.isDefault}`),
    index('resources_created_at').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const scopes = pgTable(
  'scopes',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    resourceId: varchar('resource_id', { length: 21 }).notNull(),
    name: varchar('name', { length: 256 }).notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.resourceId], foreignColumns: [resources.tenantId, resources.id] }).onDelete(
      'cascade',
    ),
    uniqueIndex('scopes_name_unique').on(t.tenantId, t.resourceId, t.name),
    index('scopes_resource_created_at').on(t.tenantId, t.resourceId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const rolesScopes = pgTable(
  'roles_scopes',
  {
    tenantId: tenantId(),
    roleId: varchar('role_id', { length: 21 }).notNull(),
    scopeId: varchar('scope_id', { length: 21 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.roleId, t.scopeId] }),
    foreignKey({ columns: [t.tenantId, t.roleId], foreignColumns: [roles.tenantId, roles.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.scopeId], foreignColumns: [scopes.tenantId, scopes.id] }).onDelete('cascade'),
    index('roles_scopes_scope').on(t.tenantId, t.scopeId),
  ],
);

export const applicationsRoles = pgTable(
  'applications_roles',
  {
    tenantId: tenantId(),
    applicationId: varchar('application_id', { length: 21 }).notNull(),
    roleId: varchar('role_id', { length: 21 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.applicationId, t.roleId] }),
    foreignKey({
      columns: [t.tenantId, t.applicationId],
      foreignColumns: [applications.tenantId, applications.id],
    }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.roleId], foreignColumns: [roles.tenantId, roles.id] }).onDelete('cascade'),
    index('applications_roles_role').on(t.tenantId, t.roleId),
  ],
);

/**
 * Named client secrets of an application (spec §3). The token endpoint accepts any of them that
 * has not expired: they stand in for the internal `applications.secret` the provider compares.
 */
export const applicationSecrets = pgTable(
  'application_secrets',
  {
    tenantId: tenantId(),
    applicationId: varchar('application_id', { length: 21 }).notNull(),
    name: varchar('name', { length: 256 }).notNull(),
    value: varchar('value', { length: 64 }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ name: 'application_secrets_name_unique', columns: [t.tenantId, t.applicationId, t.name] }),
    foreignKey({
      columns: [t.tenantId, t.applicationId],
      foreignColumns: [applications.tenantId, applications.id],
    }).onDelete('cascade'),
  ],
);

/** The SAML service-provider settings of an application of type SAML (spec §3 SAML config). */
export const samlApplicationConfigs = pgTable(
  'saml_application_configs',
  {
    tenantId: tenantId(),
    applicationId: varchar('application_id', { length: 21 }).notNull(),
    entityId: varchar('entity_id', { length: 1024 }),
    acsUrl: jsonb('acs_url').$type<{ binding: string; url: string }>(),
    attributeMapping: jsonb('attribute_mapping').$type<Record<string, string>>().notNull().default({}),
    nameIdFormat: varchar('name_id_format', { length: 128 })
      .notNull()
      .default('urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'),
    encryption: jsonb('encryption').$type<Record<string, unknown>>(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.applicationId] }),
    foreignKey({
      columns: [t.tenantId, t.applicationId],
      foreignColumns: [applications.tenantId, applications.id],
    }).onDelete('cascade'),
    // A SAML request names its service provider by entity ID, so it must be unambiguous in a tenant.
    uniqueIndex('saml_application_configs_entity_id_unique').on(t.tenantId, t.entityId),
  ],
);

/** oidc-provider's storage (sessions, grants, codes, tokens…), shared by every server process. */
export const oidcModelInstances = pgTable(
  'oidc_model_instances',
  {
    tenantId: tenantId(),
    modelName: varchar('model_name', { length: 64 }).notNull(),
    id: varchar('id', { length: 128 }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.modelName, t.id] }),
    index('oidc_model_instances_grant').on(t.tenantId, sql`(${t.payload}->>'grantId')`),
    index('oidc_model_instances_uid').on(t.tenantId, t.modelName, sql`(${t.payload}->>'uid')`),
    index('oidc_model_instances_user_code').on(t.tenantId, t.modelName, sql`(${t.payload}->>'userCode')`),
    index('oidc_model_instances_expires_at').on(t.expiresAt),
  ],
);

/** Per-tenant settings stored as JSON by key (OIDC cookie keys, session TTL, …). */
export const tenantConfigs = pgTable(
  'tenant_configs',
  {
    tenantId: tenantId(),
    key: varchar('key', { length: 128 }).notNull(),
    value: jsonb('value').$type<unknown>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] })],
);

export const schema = {
  tenants,
  signingKeys,
  users,
  roles,
  usersRoles,
  logs,
  outbox,
  applications,
  resources,
  scopes,
  rolesScopes,
  applicationsRoles,
  applicationSecrets,
  samlApplicationConfigs,
  oidcModelInstances,
  tenantConfigs,
};
