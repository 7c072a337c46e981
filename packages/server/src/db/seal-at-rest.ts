import { jwtCustomizerConfigKeys } from '@gatehouse/schemas';
import { and, asc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';
import { openConfigValue, sealConfigValue, sealedConfigs } from './sealed-configs.ts';
import { activeSecretBox, seal, unseal } from './secret-box.ts';
import {
  applicationSecrets,
  applications,
  connectors,
  hooks,
  samlApplicationCertificates,
  signingKeys,
  ssoConnectors,
  tenantConfigs,
  userMfaVerifications,
} from './tables.ts';

/**
 * The start-up pass of encryption at rest (docs/areas/security.md "Secrets at rest"): every sealed column's value
 * that is still plain (written before encryption at rest, or by raw SQL such as the scale seed) or sealed with an
 * older master key (a rotation: SECRETS_KEY_PREVIOUS) is rewritten sealed with the current key. Reading opens the
 * old value (the column type, db/sealed-columns.ts), writing seals it. So are the secrets kept in settings rows
 * (custom JWT variables, OIDC cookie keys: db/sealed-configs.ts). Idempotent, safe in several processes at once
 * (each row is rewritten with its own value). One of the few operations across tenants: it touches no tenant's data
 * beyond re-encrypting it.
 */

type Target = {
  name: string;
  table: PgTable;
  column: PgColumn;
  field: string;
  keys: readonly { column: PgColumn; field: string }[];
};

const byTenantAndId = (table: { tenantId: PgColumn; id: PgColumn }) => [
  { column: table.tenantId, field: 'tenantId' },
  { column: table.id, field: 'id' },
];

const targets: readonly Target[] = [
  {
    name: 'signing keys',
    table: signingKeys,
    column: signingKeys.privateJwk,
    field: 'privateJwk',
    keys: byTenantAndId(signingKeys),
  },
  {
    name: 'application secrets (internal)',
    table: applications,
    column: applications.secret,
    field: 'secret',
    keys: byTenantAndId(applications),
  },
  {
    name: 'application secrets',
    table: applicationSecrets,
    column: applicationSecrets.value,
    field: 'value',
    keys: [
      { column: applicationSecrets.tenantId, field: 'tenantId' },
      { column: applicationSecrets.applicationId, field: 'applicationId' },
      { column: applicationSecrets.name, field: 'name' },
    ],
  },
  {
    name: 'webhook signing keys',
    table: hooks,
    column: hooks.signingKey,
    field: 'signingKey',
    keys: byTenantAndId(hooks),
  },
  {
    name: 'webhook headers',
    table: hooks,
    column: hooks.headers,
    field: 'headers',
    keys: byTenantAndId(hooks),
  },
  {
    name: 'SAML signing keys',
    table: samlApplicationCertificates,
    column: samlApplicationCertificates.privateKey,
    field: 'privateKey',
    keys: byTenantAndId(samlApplicationCertificates),
  },
  {
    name: 'connector settings',
    table: connectors,
    column: connectors.config,
    field: 'config',
    keys: byTenantAndId(connectors),
  },
  {
    name: 'enterprise SSO settings',
    table: ssoConnectors,
    column: ssoConnectors.config,
    field: 'config',
    keys: byTenantAndId(ssoConnectors),
  },
  {
    name: 'MFA factors',
    table: userMfaVerifications,
    column: userMfaVerifications.data,
    field: 'data',
    keys: byTenantAndId(userMfaVerifications),
  },
];

/** Seals what is not sealed with the current key; answers how many values were rewritten per kind. */
export async function sealSecretsAtRest(db: Database, batch = 500): Promise<Record<string, number>> {
  const current = `{"v":1,"kid":"${activeSecretBox().keyId}",%`;
  const counts: Record<string, number> = {};
  for (const target of targets) {
    let total = 0;
    let previousFirst: string | undefined;
    for (;;) {
      const pending: SQL = sql`not (${target.column} like ${current})`;
      const rows = (await db.select().from(target.table).where(pending).limit(batch)) as Record<string, unknown>[];
      const first = rows[0] && JSON.stringify(target.keys.map((key) => rows[0]?.[key.field]));
      // A row that is still pending after being rewritten would loop forever: a bug, said loudly.
      if (first !== undefined && first === previousFirst) throw new Error(`sealing ${target.name} did not take`);
      previousFirst = first;
      for (const row of rows) {
        // Only while still pending: a value a running process rewrote meanwhile (sealed with the current key) is kept.
        const where = and(...target.keys.map((key) => eq(key.column, row[key.field])), pending);
        await db
          .update(target.table)
          .set({ [target.field]: row[target.field] })
          .where(where);
      }
      total += rows.length;
      if (rows.length < batch) break;
    }
    if (total > 0) counts[target.name] = total;
  }
  const variables = await sealCustomJwtVariables(db, current);
  if (variables > 0) counts['custom JWT variables'] = variables;
  for (const [key, name] of Object.entries(sealedConfigs)) {
    const sealed = await sealConfigs(db, key, current, batch);
    if (sealed > 0) counts[name] = sealed;
  }
  return counts;
}

/** Custom JWT environment variables are one sealed field inside a settings row (services/jwt-customizer.ts). */
async function sealCustomJwtVariables(db: Database, current: string): Promise<number> {
  const sealed = sql`${tenantConfigs.value}->>'environmentVariables'`;
  const rows = await db
    .select()
    .from(tenantConfigs)
    .where(
      and(
        inArray(tenantConfigs.key, Object.values(jwtCustomizerConfigKeys)),
        sql`${sealed} is not null`,
        sql`not (${sealed} like ${current})`,
      ),
    );
  for (const row of rows) {
    const value = row.value as { environmentVariables: string };
    await db
      .update(tenantConfigs)
      .set({ value: { ...value, environmentVariables: seal(unseal(value.environmentVariables)) } })
      .where(
        and(
          eq(tenantConfigs.tenantId, row.tenantId),
          eq(tenantConfigs.key, row.key),
          // Only while still pending: variables a running process saved meanwhile are sealed already, and kept.
          sql`not (${sealed} like ${current})`,
        ),
      );
  }
  return rows.length;
}

/**
 * Settings rows that are secrets as a whole (db/sealed-configs.ts), one per tenant, are stored `{"sealed": …}`: plain
 * JSON (older versions) or an envelope of another key is rewritten sealed with the current key.
 */
async function sealConfigs(db: Database, key: string, current: string, batch: number): Promise<number> {
  const pending = and(
    eq(tenantConfigs.key, key),
    sql`coalesce(${tenantConfigs.value}->>'sealed', '') not like ${current}`,
  );
  let total = 0;
  // Each row is read once (in tenant order), so a row a running process rewrites meanwhile is not retried.
  let after = '';
  for (;;) {
    const rows = await db
      .select()
      .from(tenantConfigs)
      .where(and(pending, gt(tenantConfigs.tenantId, after)))
      .orderBy(asc(tenantConfigs.tenantId))
      .limit(batch);
    for (const row of rows) {
      // Only if unchanged since read: a rotation written meanwhile by a running process is sealed already, and kept.
      await db
        .update(tenantConfigs)
        .set({ value: sealConfigValue(openConfigValue(row.value)) })
        .where(
          and(
            eq(tenantConfigs.tenantId, row.tenantId),
            eq(tenantConfigs.key, row.key),
            eq(tenantConfigs.value, row.value),
          ),
        );
    }
    total += rows.length;
    after = rows.at(-1)?.tenantId ?? after;
    if (rows.length < batch) return total;
  }
}
