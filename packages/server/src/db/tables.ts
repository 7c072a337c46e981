import type {
  LogKey,
  OneTimeTokenContext,
  OneTimeTokenStatus,
  ScimDeprovisionMode,
  ScimGroupMapping,
  StoredUserLogtoConfig,
} from '@gatehouse/schemas';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { sealedJson, sealedText } from './sealed-columns.ts';

/**
 * Tables. Every tenant-scoped table has `tenant_id` first in its primary key, and relations
 * between tenant-scoped rows use composite foreign keys, so a row can never point into another tenant.
 *
 * Newest-first indexes are `DESC NULLS FIRST`: lists order by `created_at DESC, id DESC`, which puts
 * nulls first, and PostgreSQL reads an index in ORDER BY order only when the nulls order matches too
 * (even for NOT NULL columns). drizzle's `.desc()` alone writes `DESC NULLS LAST`.
 *
 * Over 600 lines on purpose (docs/conventions.md): every table is declared here once, beside the helpers that give all
 * of them the same tenant key, dates and sealed columns; drizzle-kit generates the migrations from this one file, and
 * splitting it by area would split those shared helpers or make each area import the others' tables for its keys.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

const tenantId = () =>
  varchar('tenant_id', { length: 21 })
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

/**
 * Trigram GIN indexes write through (no pending list): with `fastupdate` on, rows inserted since the last vacuum
 * sit in an unsorted list that every search reads in full — 10,000 new users made a one-user search at 1M users
 * 25 ms instead of 2. Inserts pay a little more; sign-ups are bound by Argon2id anyway.
 */
const trigramIndexOptions = { fastupdate: false } as const;

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
    privateJwk: sealedJson<Record<string, unknown>>('private_jwk').notNull(),
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
    /**
     * Whether the primary email was proven (an emailed code) or set by an admin (the API and imports: the admin's
     * word). Self-registration with a typed address leaves it false; ID tokens say `email_verified` from it.
     */
    primaryEmailVerified: boolean('primary_email_verified').notNull().default(false),
    primaryPhone: varchar('primary_phone', { length: 128 }),
    /** Like `primary_email_verified`: proven by a texted code, or set by an admin. */
    primaryPhoneVerified: boolean('primary_phone_verified').notNull().default(false),
    passwordEncrypted: varchar('password_encrypted', { length: 256 }),
    passwordEncryptionMethod: varchar('password_encryption_method', { length: 32 }),
    name: varchar('name', { length: 128 }),
    avatar: varchar('avatar', { length: 2048 }),
    profile: jsonb('profile').$type<Record<string, unknown>>().notNull().default({}),
    customData: jsonb('custom_data').$type<Record<string, unknown>>().notNull().default({}),
    identities: jsonb('identities').$type<Record<string, unknown>>().notNull().default({}),
    isSuspended: boolean('is_suspended').notNull().default(false),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
    /** When the user chose "Skip for now" at an MFA prompt: the prompting policies do not ask them again. */
    mfaSkippedAt: timestamp('mfa_skipped_at', { withTimezone: true, mode: 'date' }),
    /**
     * The reference's `logtoConfig` flags Gatehouse has no column of its own for (`mfa.enabled`,
     * `mfa.skipMfaOnSignIn`, `passkeySignIn.skipped`), as `PATCH /users/{userId}/logto-configs` gave them.
     */
    logtoConfig: jsonb('logto_config').$type<StoredUserLogtoConfig>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('users_username_unique').on(t.tenantId, sql`lower(${t.username})`),
    uniqueIndex('users_primary_email_unique').on(t.tenantId, sql`lower(${t.primaryEmail})`),
    uniqueIndex('users_primary_phone_unique').on(t.tenantId, t.primaryPhone),
    index('users_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Substring search (`ILIKE '%x%'`, any case: pg_trgm lowercases trigrams) over each searchable field.
    index('users_id_trgm').using('gin', t.id.op('gin_trgm_ops')).with(trigramIndexOptions),
    index('users_username_trgm').using('gin', t.username.op('gin_trgm_ops')).with(trigramIndexOptions),
    index('users_primary_email_trgm').using('gin', t.primaryEmail.op('gin_trgm_ops')).with(trigramIndexOptions),
    index('users_primary_phone_trgm').using('gin', t.primaryPhone.op('gin_trgm_ops')).with(trigramIndexOptions),
    index('users_name_trgm').using('gin', t.name.op('gin_trgm_ops')).with(trigramIndexOptions),
    // Suspended users are few: this makes the suspended filter and its count cheap.
    index('users_suspended')
      .on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.isSuspended}`),
  ],
);

/**
 * Each tenant's number of users, kept by statement triggers on `users` (see the users_search
 * migration), so the unfiltered user list's total is exact without counting a million rows. The
 * count is spread over slots (a random one per statement) so concurrent sign-ups in one tenant do
 * not queue on one row lock; the total is the sum of the tenant's slots. No foreign key: deleting a
 * tenant deletes its users, and their trigger still writes here while the tenant row goes away.
 */
export const userCounts = pgTable(
  'user_counts',
  {
    tenantId: varchar('tenant_id', { length: 21 }).notNull(),
    slot: smallint('slot').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.slot] })],
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
    index('roles_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
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

/**
 * What a user's MFA verification keeps: the TOTP secret (base32) and the last time step a code was accepted for (no
 * code is accepted twice), or SHA-256 hashes of the backup codes.
 */
export type UserMfaVerificationData =
  | { secret: string; lastStep?: number }
  | { codes: { hash: string; used: boolean }[] }
  | WebAuthnCredentialData;

/**
 * A passkey (services/passkeys.ts): its COSE public key (base64url), the signature counter last seen (a counter going
 * back means a cloned authenticator), the relying-party ID it was made for, and what the browser said of it.
 */
export type WebAuthnCredentialData = {
  publicKey: string;
  counter: number;
  rpId: string;
  transports?: string[];
  backedUp: boolean;
  deviceType: 'singleDevice' | 'multiDevice';
  aaguid?: string;
  name?: string;
  agent?: string;
};

/**
 * A user's MFA factors (spec §3 `mfaVerifications`). At most one TOTP and one set of backup codes per user
 * (partial unique index); WebAuthn may have several (one per authenticator).
 */
export const userMfaVerifications = pgTable(
  'user_mfa_verifications',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    userId: varchar('user_id', { length: 12 }).notNull(),
    type: varchar('type', { length: 32 }).notNull(),
    data: sealedJson<UserMfaVerificationData>('data').notNull(),
    /** WebAuthn only: the credential's ID (base64url), found by it when a passkey signs in without a username. */
    credentialId: varchar('credential_id', { length: 1366 }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
    index('user_mfa_verifications_user').on(t.tenantId, t.userId),
    uniqueIndex('user_mfa_verifications_credential')
      .on(t.tenantId, t.credentialId)
      .where(sql`${t.credentialId} is not null`),
    uniqueIndex('user_mfa_verifications_one_per_type')
      .on(t.tenantId, t.userId, t.type)
      .where(sql`${t.type} in ('Totp', 'BackupCode')`),
  ],
);

/**
 * Personal access tokens of a user (issue 24; reference `/users/{userId}/personal-access-tokens`): a named,
 * optionally expiring secret the user's applications exchange for an access token. Only the SHA-256 hash of the value
 * is kept (the value is 165 random bits, so a slow hash adds nothing): the creation's answer is the only place the
 * value exists. Names are unique per user (the primary key, named for its 422).
 */
export const personalAccessTokens = pgTable(
  'personal_access_tokens',
  {
    tenantId: tenantId(),
    userId: varchar('user_id', { length: 12 }).notNull(),
    name: varchar('name', { length: 256 }).notNull(),
    valueHash: varchar('value_hash', { length: 64 }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ name: 'personal_access_tokens_name_unique', columns: [t.tenantId, t.userId, t.name] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
    uniqueIndex('personal_access_tokens_value_hash').on(t.tenantId, t.valueHash),
  ],
);

/**
 * Forgot-password codes (issue 6): a 6-digit code emailed to the user, stored as an Argon2id hash, valid until
 * `expires_at`, refused after `attempts` reaches the limit, and spent by `consumed_at`. One live code per user:
 * a new request replaces the previous one.
 */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    userId: varchar('user_id', { length: 12 }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
    index('password_reset_codes_user').on(t.tenantId, t.userId),
  ],
);

/**
 * One-time codes emailed during a sign-in interaction (issue 20): to prove an address at sign-up, or to sign in
 * without a password. Bound to the interaction (`interaction_id`, oidc-provider's uid), so a code works only in the
 * browser session that asked for it; stored as an Argon2id hash, refused after `attempts` reaches the limit, spent by
 * `consumed_at`. `pending` holds what the account will be made of once the address is proven (the password already
 * hashed), never a plain password.
 */
export const interactionCodes = pgTable(
  'interaction_codes',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    interactionId: varchar('interaction_id', { length: 64 }).notNull(),
    purpose: varchar('purpose', { length: 16 }).$type<'Register' | 'SignIn' | 'VerifyEmail'>().notNull(),
    email: varchar('email', { length: 128 }).notNull(),
    codeHash: text('code_hash').notNull(),
    pending: jsonb('pending').$type<Record<string, unknown>>().notNull().default({}),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('interaction_codes_interaction').on(t.tenantId, t.interactionId, t.purpose),
    index('interaction_codes_expires_at').on(t.expiresAt),
  ],
);

/**
 * Connectors (issue 21): a tenant's email and SMS senders and social identity providers. `connector_id` names the
 * factory (the code that knows the provider); `config` holds its settings, secrets included (masked in every answer
 * and in the audit log). One email and one SMS connector per tenant (a partial unique index; creating one replaces
 * the other in the same transaction).
 */
export const connectors = pgTable(
  'connectors',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 128 }).notNull(),
    connectorId: varchar('connector_id', { length: 128 }).notNull(),
    type: varchar('type', { length: 16 }).$type<'Email' | 'Sms' | 'Social'>().notNull(),
    config: sealedJson<Record<string, unknown>>('config').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    syncProfile: boolean('sync_profile').notNull().default(false),
    enableTokenStorage: boolean('enable_token_storage').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('connectors_one_sender_per_type').on(t.tenantId, t.type).where(sql`${t.type} in ('Email', 'Sms')`),
  ],
);

/**
 * Enterprise SSO connectors (spec §3 "SSO connector"; docs/areas/enterprise-sso.md): a tenant's connection to a
 * company IdP over OIDC or SAML. The config holds the client secret, so it is sealed like a connector's. Names are
 * unique per tenant (the index is named for its 422).
 */
export const ssoConnectors = pgTable(
  'sso_connectors',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    providerName: varchar('provider_name', { length: 32 }).notNull(),
    connectorName: varchar('connector_name', { length: 128 }).notNull(),
    config: sealedJson<Record<string, unknown>>('config').notNull(),
    domains: jsonb('domains').$type<string[]>().notNull().default([]),
    branding: jsonb('branding').$type<Record<string, unknown>>().notNull().default({}),
    syncProfile: boolean('sync_profile').notNull().default(false),
    enableTokenStorage: boolean('enable_token_storage').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('sso_connectors_connector_name_unique').on(t.tenantId, t.connectorName),
  ],
);

/**
 * A user's account at an enterprise IdP: the IdP's issuer (OIDC issuer or SAML entity id) and its id for the
 * user. One account links one user (unique per issuer and id); a user has at most one identity per connector.
 */
export const userSsoIdentities = pgTable(
  'user_sso_identities',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    userId: varchar('user_id', { length: 12 }).notNull(),
    ssoConnectorId: varchar('sso_connector_id', { length: 21 }).notNull(),
    issuer: varchar('issuer', { length: 1024 }).notNull(),
    identityId: varchar('identity_id', { length: 512 }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
    foreignKey({
      name: 'user_sso_identities_sso_connectors_fk',
      columns: [t.tenantId, t.ssoConnectorId],
      foreignColumns: [ssoConnectors.tenantId, ssoConnectors.id],
    }).onDelete('cascade'),
    uniqueIndex('user_sso_identities_issuer_identity').on(t.tenantId, t.issuer, t.identityId),
    uniqueIndex('user_sso_identities_user_connector').on(t.tenantId, t.userId, t.ssoConnectorId),
    index('user_sso_identities_connector').on(t.tenantId, t.ssoConnectorId),
  ],
);

/** The audit log: sign-in events and every admin write, with before/after for writes. */
export const logs = pgTable(
  'logs',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    key: varchar('key', { length: 128 }).$type<LogKey>().notNull(),
    userId: varchar('user_id', { length: 21 }),
    applicationId: varchar('application_id', { length: 21 }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('logs_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('logs_user').on(t.tenantId, t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('logs_application').on(
      t.tenantId,
      t.applicationId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('logs_key').on(t.tenantId, t.key, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
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
    secret: sealedText('secret').notNull(),
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
    index('applications_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
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
    index('resources_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
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
    index('scopes_resource_created_at').on(
      t.tenantId,
      t.resourceId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
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
    value: sealedText('value').notNull(),
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

/** A SAML application's signing certificates (self-signed X.509); the active one signs assertions and is in the metadata. */
export const samlApplicationCertificates = pgTable(
  'saml_application_certificates',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    applicationId: varchar('application_id', { length: 21 }).notNull(),
    privateKey: sealedText('private_key').notNull(),
    certificate: text('certificate').notNull(),
    fingerprintSha256: varchar('fingerprint_sha256', { length: 128 }).notNull(),
    isActive: boolean('is_active').notNull().default(false),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      columns: [t.tenantId, t.applicationId],
      foreignColumns: [applications.tenantId, applications.id],
    }).onDelete('cascade'),
    index('saml_application_certificates_application').on(t.tenantId, t.applicationId),
    // At most one active certificate per application.
    uniqueIndex('saml_application_certificates_one_active').on(t.tenantId, t.applicationId).where(sql`${t.isActive}`),
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
    // Ending a user's sessions, grants and tokens (suspension, deletion) finds them by account.
    index('oidc_model_instances_account').on(t.tenantId, sql`(${t.payload}->>'accountId')`),
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

/**
 * Organizations (spec §3): a tenant's customers or teams. Ids are up to 32 characters so the cloud
 * edition's admin-tenant organizations can be `t-<tenant id>` (spec §6) for any tenant id.
 */
export const organizations = pgTable(
  'organizations',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 32 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    description: varchar('description', { length: 256 }),
    customData: jsonb('custom_data').$type<Record<string, unknown>>().notNull().default({}),
    isMfaRequired: boolean('is_mfa_required').notNull().default(false),
    color: jsonb('color').$type<Record<string, unknown>>().notNull().default({}),
    branding: jsonb('branding').$type<Record<string, unknown>>().notNull().default({}),
    customCss: text('custom_css'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'organizations_pk', columns: [t.tenantId, t.id] }),
    index('organizations_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // `q` matches a substring of the id or the name, any case.
    index('organizations_id_trgm').using('gin', t.id.op('gin_trgm_ops')).with(trigramIndexOptions),
    index('organizations_name_trgm').using('gin', t.name.op('gin_trgm_ops')).with(trigramIndexOptions),
  ],
);

/** The organization template's permissions (organization scopes). */
export const organizationScopes = pgTable(
  'organization_scopes',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    description: varchar('description', { length: 256 }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'organization_scopes_pk', columns: [t.tenantId, t.id] }),
    uniqueIndex('organization_scopes_name_unique').on(t.tenantId, t.name),
  ],
);

/** The organization template's roles; `type` says who may hold them (User or MachineToMachine). */
export const organizationRoles = pgTable(
  'organization_roles',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    description: varchar('description', { length: 256 }),
    type: varchar('type', { length: 32 }).notNull().default('User'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'organization_roles_pk', columns: [t.tenantId, t.id] }),
    uniqueIndex('organization_roles_name_unique').on(t.tenantId, t.name),
  ],
);

/** Organization scopes granted by an organization role. */
export const organizationRoleScopes = pgTable(
  'organization_role_scopes',
  {
    tenantId: tenantId(),
    organizationRoleId: varchar('organization_role_id', { length: 21 }).notNull(),
    organizationScopeId: varchar('organization_scope_id', { length: 21 }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organization_role_scopes_pk',
      columns: [t.tenantId, t.organizationRoleId, t.organizationScopeId],
    }),
    foreignKey({
      name: 'organization_role_scopes_organization_roles_fk',
      columns: [t.tenantId, t.organizationRoleId],
      foreignColumns: [organizationRoles.tenantId, organizationRoles.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_role_scopes_organization_scopes_fk',
      columns: [t.tenantId, t.organizationScopeId],
      foreignColumns: [organizationScopes.tenantId, organizationScopes.id],
    }).onDelete('cascade'),
    index('organization_role_scopes_scope').on(t.tenantId, t.organizationScopeId),
  ],
);

/** API resource scopes granted by an organization role (in organization tokens for that resource). */
export const organizationRoleResourceScopes = pgTable(
  'organization_role_resource_scopes',
  {
    tenantId: tenantId(),
    organizationRoleId: varchar('organization_role_id', { length: 21 }).notNull(),
    scopeId: varchar('scope_id', { length: 21 }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organization_role_resource_scopes_pk',
      columns: [t.tenantId, t.organizationRoleId, t.scopeId],
    }),
    foreignKey({
      name: 'organization_role_resource_scopes_organization_roles_fk',
      columns: [t.tenantId, t.organizationRoleId],
      foreignColumns: [organizationRoles.tenantId, organizationRoles.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_role_resource_scopes_scopes_fk',
      columns: [t.tenantId, t.scopeId],
      foreignColumns: [scopes.tenantId, scopes.id],
    }).onDelete('cascade'),
    index('organization_role_resource_scopes_scope').on(t.tenantId, t.scopeId),
  ],
);

/** Members of an organization. */
export const organizationUsers = pgTable(
  'organization_users',
  {
    tenantId: tenantId(),
    organizationId: varchar('organization_id', { length: 32 }).notNull(),
    userId: varchar('user_id', { length: 12 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'organization_users_pk', columns: [t.tenantId, t.organizationId, t.userId] }),
    foreignKey({
      name: 'organization_users_organizations_fk',
      columns: [t.tenantId, t.organizationId],
      foreignColumns: [organizations.tenantId, organizations.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_users_users_fk',
      columns: [t.tenantId, t.userId],
      foreignColumns: [users.tenantId, users.id],
    }).onDelete('cascade'),
    index('organization_users_user').on(t.tenantId, t.userId),
  ],
);

/** A member's organization roles; leaving the organization (or its deletion) removes them. */
export const organizationUserRoles = pgTable(
  'organization_user_roles',
  {
    tenantId: tenantId(),
    organizationId: varchar('organization_id', { length: 32 }).notNull(),
    userId: varchar('user_id', { length: 12 }).notNull(),
    organizationRoleId: varchar('organization_role_id', { length: 21 }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organization_user_roles_pk',
      columns: [t.tenantId, t.organizationId, t.userId, t.organizationRoleId],
    }),
    foreignKey({
      name: 'organization_user_roles_organization_users_fk',
      columns: [t.tenantId, t.organizationId, t.userId],
      foreignColumns: [organizationUsers.tenantId, organizationUsers.organizationId, organizationUsers.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_user_roles_organization_roles_fk',
      columns: [t.tenantId, t.organizationRoleId],
      foreignColumns: [organizationRoles.tenantId, organizationRoles.id],
    }).onDelete('cascade'),
    index('organization_user_roles_role').on(t.tenantId, t.organizationRoleId),
  ],
);

/** Machine-to-machine applications of an organization. */
export const organizationApplications = pgTable(
  'organization_applications',
  {
    tenantId: tenantId(),
    organizationId: varchar('organization_id', { length: 32 }).notNull(),
    applicationId: varchar('application_id', { length: 21 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'organization_applications_pk', columns: [t.tenantId, t.organizationId, t.applicationId] }),
    foreignKey({
      name: 'organization_applications_organizations_fk',
      columns: [t.tenantId, t.organizationId],
      foreignColumns: [organizations.tenantId, organizations.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_applications_applications_fk',
      columns: [t.tenantId, t.applicationId],
      foreignColumns: [applications.tenantId, applications.id],
    }).onDelete('cascade'),
    index('organization_applications_application').on(t.tenantId, t.applicationId),
  ],
);

/** An organization application's organization roles. */
export const organizationApplicationRoles = pgTable(
  'organization_application_roles',
  {
    tenantId: tenantId(),
    organizationId: varchar('organization_id', { length: 32 }).notNull(),
    applicationId: varchar('application_id', { length: 21 }).notNull(),
    organizationRoleId: varchar('organization_role_id', { length: 21 }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organization_application_roles_pk',
      columns: [t.tenantId, t.organizationId, t.applicationId, t.organizationRoleId],
    }),
    foreignKey({
      name: 'organization_application_roles_organization_applications_fk',
      columns: [t.tenantId, t.organizationId, t.applicationId],
      foreignColumns: [
        organizationApplications.tenantId,
        organizationApplications.organizationId,
        organizationApplications.applicationId,
      ],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_application_roles_organization_roles_fk',
      columns: [t.tenantId, t.organizationRoleId],
      foreignColumns: [organizationRoles.tenantId, organizationRoles.id],
    }).onDelete('cascade'),
    index('organization_application_roles_role').on(t.tenantId, t.organizationRoleId),
  ],
);

/** Just-in-time provisioning: new users whose email has one of these domains join the organization. */
export const organizationJitEmailDomains = pgTable(
  'organization_jit_email_domains',
  {
    tenantId: tenantId(),
    organizationId: varchar('organization_id', { length: 32 }).notNull(),
    emailDomain: varchar('email_domain', { length: 256 }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'organization_jit_email_domains_pk', columns: [t.tenantId, t.organizationId, t.emailDomain] }),
    foreignKey({
      name: 'organization_jit_email_domains_organizations_fk',
      columns: [t.tenantId, t.organizationId],
      foreignColumns: [organizations.tenantId, organizations.id],
    }).onDelete('cascade'),
    // Sign-up looks organizations up by the new user's email domain.
    index('organization_jit_email_domains_domain').on(t.tenantId, t.emailDomain),
  ],
);

/** Just-in-time provisioning: users who sign in through these enterprise SSO connectors join the organization. */
export const organizationJitSsoConnectors = pgTable(
  'organization_jit_sso_connectors',
  {
    tenantId: tenantId(),
    organizationId: varchar('organization_id', { length: 32 }).notNull(),
    ssoConnectorId: varchar('sso_connector_id', { length: 21 }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organization_jit_sso_connectors_pk',
      columns: [t.tenantId, t.organizationId, t.ssoConnectorId],
    }),
    foreignKey({
      name: 'organization_jit_sso_connectors_organizations_fk',
      columns: [t.tenantId, t.organizationId],
      foreignColumns: [organizations.tenantId, organizations.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_jit_sso_connectors_sso_connectors_fk',
      columns: [t.tenantId, t.ssoConnectorId],
      foreignColumns: [ssoConnectors.tenantId, ssoConnectors.id],
    }).onDelete('cascade'),
    // Sign-in through a connector looks its organizations up.
    index('organization_jit_sso_connectors_connector').on(t.tenantId, t.ssoConnectorId),
  ],
);

/** Just-in-time provisioning: the organization roles a provisioned member starts with. */
export const organizationJitRoles = pgTable(
  'organization_jit_roles',
  {
    tenantId: tenantId(),
    organizationId: varchar('organization_id', { length: 32 }).notNull(),
    organizationRoleId: varchar('organization_role_id', { length: 21 }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'organization_jit_roles_pk', columns: [t.tenantId, t.organizationId, t.organizationRoleId] }),
    foreignKey({
      name: 'organization_jit_roles_organizations_fk',
      columns: [t.tenantId, t.organizationId],
      foreignColumns: [organizations.tenantId, organizations.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_jit_roles_organization_roles_fk',
      columns: [t.tenantId, t.organizationRoleId],
      foreignColumns: [organizationRoles.tenantId, organizationRoles.id],
    }).onDelete('cascade'),
    index('organization_jit_roles_role').on(t.tenantId, t.organizationRoleId),
  ],
);

/**
 * Invitations to join an organization (spec §3, §4). `status` is stored as Pending, Accepted,
 * Revoked or Expired; a Pending row past `expires_at` reads as Expired. `inviter_id` and
 * `accepted_user_id` are history (like the audit log's user ids): no foreign key, so deleting a
 * user does not delete or rewrite the invitations they sent or accepted.
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    inviterId: varchar('inviter_id', { length: 12 }),
    invitee: varchar('invitee', { length: 128 }).notNull(),
    acceptedUserId: varchar('accepted_user_id', { length: 12 }),
    organizationId: varchar('organization_id', { length: 32 }).notNull(),
    status: varchar('status', { length: 32 }).notNull().default('Pending'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'organization_invitations_pk', columns: [t.tenantId, t.id] }),
    foreignKey({
      name: 'organization_invitations_organizations_fk',
      columns: [t.tenantId, t.organizationId],
      foreignColumns: [organizations.tenantId, organizations.id],
    }).onDelete('cascade'),
    // One open invitation per person and organization.
    uniqueIndex('organization_invitations_pending_unique')
      .on(t.tenantId, t.organizationId, sql`lower(${t.invitee})`)
      .where(sql`${t.status} = 'Pending'`),
    // The invitations of one person (list filter `invitee`, an invitee's own pending invitations).
    index('organization_invitations_invitee').on(t.tenantId, sql`lower(${t.invitee})`),
    index('organization_invitations_created_at').on(
      t.tenantId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('organization_invitations_organization').on(
      t.tenantId,
      t.organizationId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/** The organization roles an invitation gives when it is accepted. */
export const organizationInvitationRoles = pgTable(
  'organization_invitation_roles',
  {
    tenantId: tenantId(),
    invitationId: varchar('invitation_id', { length: 21 }).notNull(),
    organizationRoleId: varchar('organization_role_id', { length: 21 }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'organization_invitation_roles_pk',
      columns: [t.tenantId, t.invitationId, t.organizationRoleId],
    }),
    foreignKey({
      name: 'organization_invitation_roles_organization_invitations_fk',
      columns: [t.tenantId, t.invitationId],
      foreignColumns: [organizationInvitations.tenantId, organizationInvitations.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'organization_invitation_roles_organization_roles_fk',
      columns: [t.tenantId, t.organizationRoleId],
      foreignColumns: [organizationRoles.tenantId, organizationRoles.id],
    }).onDelete('cascade'),
    index('organization_invitation_roles_role').on(t.tenantId, t.organizationRoleId),
  ],
);

/**
 * Webhooks of a tenant: the events they subscribe to, where and how to deliver, and the HMAC key. The custom headers
 * (`config.headers` in the API) have their own sealed column: they often hold tokens for the receiver.
 */
export const hooks = pgTable(
  'hooks',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    name: varchar('name', { length: 256 }).notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    config: jsonb('config').$type<{ url: string; retries: number }>().notNull(),
    headers: sealedJson<Record<string, string>>('headers').notNull(),
    signingKey: sealedText('signing_key').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('hooks_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/**
 * One event to deliver to one hook (fanned out from the outbox, or a replay). Workers claim due rows
 * with `FOR UPDATE SKIP LOCKED` and lease them with `locked_until`, so two processes never send one
 * delivery at the same time; `status` leaves `pending` once it succeeded or ran out of attempts.
 */
export const hookDeliveries = pgTable(
  'hook_deliveries',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    hookId: varchar('hook_id', { length: 21 }).notNull(),
    outboxId: bigint('outbox_id', { mode: 'number' }),
    event: varchar('event', { length: 64 }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.hookId], foreignColumns: [hooks.tenantId, hooks.id] }).onDelete('cascade'),
    // An outbox event is fanned out to a hook at most once.
    uniqueIndex('hook_deliveries_outbox').on(t.tenantId, t.hookId, t.outboxId),
    index('hook_deliveries_due').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** Every delivery attempt (the hook's recent requests): request, response, duration, error. */
export const hookLogs = pgTable(
  'hook_logs',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    hookId: varchar('hook_id', { length: 21 }).notNull(),
    deliveryId: varchar('delivery_id', { length: 21 }),
    event: varchar('event', { length: 64 }).notNull(),
    attempt: smallint('attempt').notNull(),
    /** The attempts the delivery was allowed when this one was made (1 + the hook's retries then); null before 0022. */
    maxAttempts: smallint('max_attempts'),
    /** What kind of failure an attempt without an answer met (`HookAttemptErrorKind`); null with an answer. */
    errorKind: varchar('error_kind', { length: 16 }),
    request: jsonb('request').$type<{ url: string; headers: Record<string, string>; body: string }>().notNull(),
    responseStatus: smallint('response_status'),
    responseBody: text('response_body'),
    durationMs: bigint('duration_ms', { mode: 'number' }).notNull(),
    error: text('error'),
    replayOf: varchar('replay_of', { length: 21 }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.hookId], foreignColumns: [hooks.tenantId, hooks.id] }).onDelete('cascade'),
    index('hook_logs_hook_created_at').on(
      t.tenantId,
      t.hookId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * Daily active users (spec §3): one row per user per UTC day on which they signed in or were issued a
 * token, written by the sign-in and token paths (`insert … on conflict do nothing`), so the dashboard
 * counts a day, a week or a month by primary-key range instead of scanning the log.
 */
export const dailyActiveUsers = pgTable(
  'daily_active_users',
  {
    tenantId: tenantId(),
    day: varchar('day', { length: 10 }).notNull(),
    userId: varchar('user_id', { length: 21 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.userId] })],
);

/**
 * Bulk user imports run as server-side jobs: the uploaded file and its column mapping are kept with the
 * job so any server process can claim it (`FOR UPDATE SKIP LOCKED`, leased with `locked_until`); the
 * counters and per-row errors are the progress the console polls.
 */
export const userImportJobs = pgTable(
  'user_import_jobs',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    format: varchar('format', { length: 8 }).notNull(),
    dryRun: boolean('dry_run').notNull().default(false),
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull().default({}),
    source: text('source').notNull(),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    processed: bigint('processed', { mode: 'number' }).notNull().default(0),
    created: bigint('created', { mode: 'number' }).notNull().default(0),
    updated: bigint('updated', { mode: 'number' }).notNull().default(0),
    failed: bigint('failed', { mode: 'number' }).notNull().default(0),
    errors: jsonb('errors').$type<Array<Record<string, unknown>>>().notNull().default([]),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    createdBy: varchar('created_by', { length: 21 }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('user_import_jobs_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('user_import_jobs_pending').on(t.createdAt).where(sql`${t.status} in ('pending', 'running')`),
  ],
);

/**
 * A tenant's custom domains (spec §4 statuses). `verification_token` is the value of the ownership TXT record;
 * `checked_at` is when the last DNS and TLS check ran.
 */
export const domains = pgTable(
  'domains',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    domain: varchar('domain', { length: 253 }).notNull(),
    status: varchar('status', { length: 32 }).notNull().default('PendingVerification'),
    errorMessage: text('error_message'),
    verificationToken: varchar('verification_token', { length: 64 }).notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('domains_domain_unique').on(t.domain)],
);

/**
 * Plans (SKUs, spec §3), seeded from `basicPlans`: global, not tenant-scoped. `quota` is the plan's quota object
 * (spec §3 quota fields); `unit_price` is in cents.
 */
export const skus = pgTable('skus', {
  id: varchar('id', { length: 32 }).primaryKey(),
  name: varchar('name', { length: 128 }).notNull(),
  type: varchar('type', { length: 16 }).notNull(),
  unitPrice: integer('unit_price').notNull().default(0),
  quota: jsonb('quota').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A tenant's subscription (spec §3). A tenant without a row is on its implicit plan (Development for development
 * tenants, Free otherwise) for the current calendar month in UTC; tenant creation writes the row.
 */
export const tenantSubscriptions = pgTable('tenant_subscriptions', {
  tenantId: tenantId().primaryKey(),
  planId: varchar('plan_id', { length: 32 })
    .notNull()
    .references(() => skus.id),
  status: varchar('status', { length: 16 }).notNull().default('active'),
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true, mode: 'date' }).notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** A tenant's invoices (spec §3); amounts in cents. Written by the payment provider integration. */
export const invoices = pgTable(
  'invoices',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 64 }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    planId: varchar('plan_id', { length: 32 }).notNull(),
    amountDue: integer('amount_due').notNull().default(0),
    amountPaid: integer('amount_paid').notNull().default(0),
    periodStart: timestamp('period_start', { withTimezone: true, mode: 'date' }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('invoices_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/**
 * Checkout sessions (spec §3 checkout session): a console account's request to move a tenant (or a tenant to be
 * created, `tenant_id` null until the payment creates it) to a paid plan. Not tenant-scoped: the session belongs to
 * the account that created it. `amount` is the SKU's unit price in cents when the session was opened.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: varchar('id', { length: 21 }).primaryKey(),
    userId: varchar('user_id', { length: 21 }).notNull(),
    tenantId: varchar('tenant_id', { length: 21 }).references(() => tenants.id, { onDelete: 'set null' }),
    skuId: varchar('sku_id', { length: 32 })
      .notNull()
      .references(() => skus.id),
    status: varchar('status', { length: 16 }).notNull().default('open'),
    successCallbackUrl: varchar('success_callback_url', { length: 2048 }).notNull(),
    tenantName: varchar('tenant_name', { length: 128 }),
    tenantTag: varchar('tenant_tag', { length: 32 }),
    tenantRegion: varchar('tenant_region', { length: 8 }),
    amount: integer('amount').notNull(),
    provider: varchar('provider', { length: 32 }).notNull(),
    providerSessionId: varchar('provider_session_id', { length: 255 }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('checkout_sessions_user_id').on(t.userId, t.createdAt),
    index('checkout_sessions_provider_session').on(t.provider, t.providerSessionId),
  ],
);

/**
 * Access tokens issued per tenant and billing period (`period` is the period start as an ISO date, `YYYY-MM-DD`):
 * counting one token is one `insert … on conflict do update set count = count + 1`.
 */
export const tokenUsage = pgTable(
  'token_usage',
  {
    tenantId: tenantId(),
    period: varchar('period', { length: 10 }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.period] })],
);

/**
 * Failure counters shared by every server process on one database (services/failure-throttle.ts): wrong client
 * secrets at the token endpoint, wrong passwords per address at sign-in. Global, not tenant-scoped: a key names its
 * tenant where it has one, and the tenant role has no rights on the table (migration 0027). UNLOGGED: a crash may
 * forget a window, which only lets a throttled address try again sooner.
 */
export const failureWindows = pgTable('failure_windows', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * One-time tokens (reference `/one-time-tokens`): issued for an email address, spent once. Only the SHA-256 hash of
 * the value is kept (services/one-time-tokens.ts). `status` is what was last written; an `active` row past
 * `expires_at` answers `expired` without being rewritten.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    email: varchar('email', { length: 128 }).notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    context: jsonb('context').$type<OneTimeTokenContext>().notNull().default({}),
    status: varchar('status', { length: 16 }).$type<OneTimeTokenStatus>().notNull().default('active'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('one_time_tokens_token_hash').on(t.tenantId, t.tokenHash),
    index('one_time_tokens_email_status').on(t.tenantId, t.email, t.status),
    index('one_time_tokens_created_at').on(t.tenantId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/**
 * When an admin last unlocked a sign-in account (`POST /sentinel-activities/delete`): the lockout counts only the
 * failures after it (services/account-lockout.ts). `account` is the lockout's own key: `user:<id>`, `mfa:<id>` or
 * `identifier:<typed identifier>`. The audit log's failed attempts stay as they were.
 */
export const signInLockoutResets = pgTable(
  'sign_in_lockout_resets',
  {
    tenantId: tenantId(),
    account: text('account').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.account] })],
);

/**
 * SCIM 2.0 provisioning connections (issue 45; docs/areas/scim.md): one per enterprise SSO connector, whose users the
 * company's directory creates, changes and removes. Only the SHA-256 hash of the bearer token is kept (null once
 * revoked); `group_mapping` says what the directory's groups grant, `deprovision` what SCIM DELETE does to a user.
 */
export const scimConnections = pgTable(
  'scim_connections',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    ssoConnectorId: varchar('sso_connector_id', { length: 21 }).notNull(),
    groupMapping: jsonb('group_mapping').$type<ScimGroupMapping>().notNull(),
    deprovision: varchar('deprovision', { length: 16 }).$type<ScimDeprovisionMode>().notNull(),
    tokenHash: varchar('token_hash', { length: 64 }),
    tokenCreatedAt: timestamp('token_created_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      name: 'scim_connections_sso_connectors_fk',
      columns: [t.tenantId, t.ssoConnectorId],
      foreignColumns: [ssoConnectors.tenantId, ssoConnectors.id],
    }).onDelete('cascade'),
    uniqueIndex('scim_connections_sso_connector_unique').on(t.tenantId, t.ssoConnectorId),
    uniqueIndex('scim_connections_token_hash').on(t.tenantId, t.tokenHash),
  ],
);

/**
 * The users a SCIM connection provisioned: the account (`user_id`), the directory's `userName` and `externalId`, and
 * the SCIM resource as last written (canonical attribute names; `active` is the account's suspension). A user
 * belongs to at most one connection. `deleted_at` marks a user the directory deleted while the connection suspends
 * instead of deleting: gone from SCIM's view, revived by a new POST of the same userName or email.
 */
export const scimUsers = pgTable(
  'scim_users',
  {
    tenantId: tenantId(),
    userId: varchar('user_id', { length: 12 }).notNull(),
    connectionId: varchar('connection_id', { length: 21 }).notNull(),
    userName: varchar('user_name', { length: 256 }).notNull(),
    externalId: varchar('external_id', { length: 256 }),
    resource: jsonb('resource').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
    foreignKey({
      name: 'scim_users_scim_connections_fk',
      columns: [t.tenantId, t.connectionId],
      foreignColumns: [scimConnections.tenantId, scimConnections.id],
    }).onDelete('cascade'),
    uniqueIndex('scim_users_user_name_unique').on(t.tenantId, t.connectionId, sql`lower(${t.userName})`),
    index('scim_users_external_id').on(t.tenantId, t.connectionId, t.externalId),
    index('scim_users_created_at').on(t.tenantId, t.connectionId, t.createdAt, t.userId),
  ],
);

/** The groups a SCIM connection provisioned. Display names need not be unique (Entra ID's are not). */
export const scimGroups = pgTable(
  'scim_groups',
  {
    tenantId: tenantId(),
    id: varchar('id', { length: 21 }).notNull(),
    connectionId: varchar('connection_id', { length: 21 }).notNull(),
    displayName: varchar('display_name', { length: 256 }).notNull(),
    externalId: varchar('external_id', { length: 256 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      name: 'scim_groups_scim_connections_fk',
      columns: [t.tenantId, t.connectionId],
      foreignColumns: [scimConnections.tenantId, scimConnections.id],
    }).onDelete('cascade'),
    index('scim_groups_created_at').on(t.tenantId, t.connectionId, t.createdAt, t.id),
    index('scim_groups_display_name').on(t.tenantId, t.connectionId, sql`lower(${t.displayName})`),
  ],
);

/** Members of a SCIM group: users of the same connection (a user the connection lets go leaves its groups). */
export const scimGroupMembers = pgTable(
  'scim_group_members',
  {
    tenantId: tenantId(),
    groupId: varchar('group_id', { length: 21 }).notNull(),
    userId: varchar('user_id', { length: 12 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.groupId, t.userId] }),
    foreignKey({
      name: 'scim_group_members_scim_groups_fk',
      columns: [t.tenantId, t.groupId],
      foreignColumns: [scimGroups.tenantId, scimGroups.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'scim_group_members_scim_users_fk',
      columns: [t.tenantId, t.userId],
      foreignColumns: [scimUsers.tenantId, scimUsers.userId],
    }).onDelete('cascade'),
    index('scim_group_members_user').on(t.tenantId, t.userId),
  ],
);

/** A connection's last SCIM requests (at most SCIM_REQUEST_LOG_SIZE each; older ones are pruned as new ones come). */
export const scimRequests = pgTable(
  'scim_requests',
  {
    tenantId: tenantId(),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    connectionId: varchar('connection_id', { length: 21 }).notNull(),
    method: varchar('method', { length: 8 }).notNull(),
    path: varchar('path', { length: 512 }).notNull(),
    status: smallint('status').notNull(),
    scimType: varchar('scim_type', { length: 32 }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      name: 'scim_requests_scim_connections_fk',
      columns: [t.tenantId, t.connectionId],
      foreignColumns: [scimConnections.tenantId, scimConnections.id],
    }).onDelete('cascade'),
    index('scim_requests_connection').on(t.tenantId, t.connectionId, t.id.desc().nullsFirst()),
  ],
);

export const schema = {
  tenants,
  signingKeys,
  users,
  userCounts,
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
  organizations,
  organizationScopes,
  organizationRoles,
  organizationRoleScopes,
  organizationRoleResourceScopes,
  organizationUsers,
  organizationUserRoles,
  organizationApplications,
  organizationApplicationRoles,
  organizationJitEmailDomains,
  organizationJitRoles,
  organizationInvitations,
  organizationInvitationRoles,
  hooks,
  hookDeliveries,
  hookLogs,
  dailyActiveUsers,
  userImportJobs,
  domains,
  skus,
  tenantSubscriptions,
  invoices,
  tokenUsage,
  checkoutSessions,
  failureWindows,
};
