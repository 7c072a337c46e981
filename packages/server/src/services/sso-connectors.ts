import {
  DomainError,
  generateId,
  invalidFields,
  type Language,
  MASKED_SECRET,
  notFound,
  type SsoConnector,
  type SsoConnectorCreate,
  type SsoConnectorPatch,
  type SsoConnectorProvider,
  type SsoConnectorWithProviderConfig,
  type SsoProviderConfig,
  type SsoProviderName,
  ssoConfigSchemaOf,
  ssoProviderNames,
  ssoProviderTypeOf,
  ssoSecretBinding,
  type UserSsoIdentity,
} from '@gatehouse/schemas';
import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { ssoConnectors, tenantConfigs, userSsoIdentities } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ConnectorError } from './connectors/types.ts';
import { type ListQuery, tableList } from './list-query.ts';
import { secretsSentElsewhere } from './masked-secrets.ts';
import { excerpt, type OutboundPolicy, outboundFetch } from './outbound.ts';
import { assertQuota, type QuotaDeps } from './quota.ts';
import { assertAllFound } from './relations.ts';
import {
  describeIdp,
  type Idp,
  type IdpContext,
  resolveIdp,
  serviceProviderOf,
  ssoConfidentialKeys,
  ssoProvider,
  ssoProviderCatalogue,
} from './sso/idp.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * Enterprise SSO connectors (spec §3 "SSO connector", reference `/sso-connectors`; docs/areas/enterprise-sso.md): a
 * tenant's connection to a company's identity provider. The config is sealed at rest and its confidential values are
 * masked in every answer and audit entry. A config may be saved incomplete (a draft the console fills in steps); once it
 * is complete, saving reads the IdP (OIDC discovery, SAML metadata) and refuses one that cannot be read, as the
 * reference validates on save. The reads the sign-in pages need are at the end of this module.
 */

export type SsoConnectorRow = typeof ssoConnectors.$inferSelect;

/** What the connector answers need besides the tenant: the edition (quota), the outbound policy and our public URL. */
export type SsoConnectorDeps = QuotaDeps & { outbound: OutboundPolicy; publicUrl: string; language: Language };

/** How long one read of an IdP's discovery document or metadata may take. */
const IDP_TIMEOUT_MS = 5_000;

/**
 * Public email domains (webmail and consumer providers): anyone can have an address there, so routing them to one
 * company's IdP would hand that company other people's sign-ins (422 `single_sign_on.forbidden_domains`).
 */
export const publicEmailDomains: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'rocketmail.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'qq.com',
  'foxmail.com',
  '163.com',
  '126.com',
  'yeah.net',
  'sina.com',
  'sohu.com',
  'aliyun.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'tutanota.com',
  'tuta.io',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'mail.com',
  'mail.ru',
  'yandex.com',
  'yandex.ru',
  'zoho.com',
  'fastmail.com',
  'hey.com',
  'naver.com',
  'daum.net',
  'hanmail.net',
]);

const isProviderName = (name: string): name is SsoProviderName =>
  (ssoProviderNames as readonly string[]).includes(name);

function providerNameOf(row: SsoConnectorRow): SsoProviderName {
  // Rows are written through this module only, so the name is always one of the provider names.
  if (!isProviderName(row.providerName)) throw new Error(`unknown SSO provider ${row.providerName}`);
  return row.providerName;
}

/** Confidential values stand as {@link MASKED_SECRET}; an empty one stays empty (not set). */
function maskedConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [
      key,
      ssoConfidentialKeys.includes(key) && value ? MASKED_SECRET : value,
    ]),
  );
}

/** The API shape without what the IdP says (lists of relations, audit images). */
export function toSsoConnector(row: SsoConnectorRow): SsoConnector {
  return {
    id: row.id,
    tenantId: row.tenantId,
    providerName: providerNameOf(row),
    connectorName: row.connectorName,
    config: maskedConfig(row.config),
    domains: row.domains,
    branding: row.branding,
    syncProfile: row.syncProfile,
    enableTokenStorage: row.enableTokenStorage,
    createdAt: row.createdAt.getTime(),
  };
}

/** GET /sso-connector-providers: what the tenant can connect, described in the caller's language. */
export function listSsoProviders(language: Language): SsoConnectorProvider[] {
  return ssoProviderCatalogue(language);
}

const idpContext = (outbound: OutboundPolicy): IdpContext => ({
  fetch: outboundFetch(outbound),
  timeoutMs: IDP_TIMEOUT_MS,
});

/** What the IdP says, for an answer: `providerConfig` (with our service-provider side for SAML). */
function providerConfigOf(row: SsoConnectorRow, idp: Idp, publicUrl: string): SsoProviderConfig {
  const described = describeIdp(idp);
  if (idp.type !== 'SAML') return described;
  return { ...described, serviceProvider: serviceProviderOf(publicUrl, row.tenantId, row.id) };
}

/**
 * The connector as GET answers it. `idp` is what a save has just read; otherwise the IdP is read now, and a config
 * that is incomplete or an IdP that cannot be read leaves `providerConfig` out (the reference's behaviour).
 */
async function withProviderConfig(
  row: SsoConnectorRow,
  deps: SsoConnectorDeps,
  idp?: Idp,
): Promise<SsoConnectorWithProviderConfig> {
  const providerName = providerNameOf(row);
  const provider = ssoProvider(providerName, deps.language);
  let providerConfig: SsoProviderConfig | undefined;
  try {
    const read = idp ?? (await resolveIdp(providerName, row.config, idpContext(deps.outbound)));
    providerConfig = providerConfigOf(row, read, deps.publicUrl);
  } catch {
    providerConfig = undefined;
  }
  return {
    ...toSsoConnector(row),
    providerType: ssoProviderTypeOf[providerName],
    providerLogo: provider.logo,
    providerLogoDark: provider.logoDark,
    ...(providerConfig ? { providerConfig } : {}),
  };
}

/**
 * The stored config after a request: the request's keys over the stored ones; `''` or `null` removes a key, and a
 * confidential value sent back masked keeps the stored one (the console never sees the secret).
 */
function mergedConfig(stored: Record<string, unknown>, incoming: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(incoming)) {
    if (value === null || value === '') delete merged[key];
    else if (value === MASKED_SECRET && ssoConfidentialKeys.includes(key)) continue;
    else merged[key] = value;
  }
  return merged;
}

/**
 * The config checked against its provider's schema, partially: a draft may lack required fields, but an unknown key
 * or a value of the wrong type is 400 `guard.invalid_input` (paths under `config.`).
 */
function checkedConfig(providerName: SsoProviderName, config: Record<string, unknown>): Record<string, unknown> {
  const parsed = ssoConfigSchemaOf(providerName).partial().safeParse(config);
  if (!parsed.success) {
    throw new DomainError(
      'invalid',
      'guard.invalid_input',
      invalidFields(parsed.error).map((field) => ({ ...field, path: field.path ? `config.${field.path}` : 'config' })),
    );
  }
  return parsed.data as Record<string, unknown>;
}

/** Domains are lower-cased and deduplicated by the schema; public email domains are refused. */
function checkedDomains(domains: readonly string[]): string[] {
  const forbidden = domains.filter((domain) => publicEmailDomains.has(domain));
  if (forbidden.length)
    throw new DomainError('unprocessable', 'single_sign_on.forbidden_domains', { domains: forbidden });
  return [...domains];
}

/**
 * Reads the IdP of a config about to be saved: `undefined` for a draft (incomplete config, 'connector_not_ready');
 * an IdP that cannot be read is the 400 connector error `resolveIdp` throws.
 */
async function readIdpForSave(
  providerName: SsoProviderName,
  config: Record<string, unknown>,
  outbound: OutboundPolicy,
): Promise<Idp | undefined> {
  try {
    return await resolveIdp(providerName, config, idpContext(outbound));
  } catch (error) {
    if (error instanceof DomainError) {
      if (error.code === 'single_sign_on.connector_not_ready') return undefined;
      throw error;
    }
    // A failure outside the IdP module's own errors (a parser's exception on what the IdP sent) is still the IdP's.
    throw new ConnectorError(
      'connector.invalid_response',
      excerpt(error instanceof Error ? error.message : String(error)),
    );
  }
}

/** The condition and order of GET /sso-connectors: newest first. */
export function ssoConnectorListQuery(): ListQuery {
  return { orderBy: [desc(ssoConnectors.createdAt), desc(ssoConnectors.id)] };
}

/** GET /sso-connectors: the tenant's connectors, newest first. */
export function ssoConnectorList(tenant: TenantDb) {
  return tableList(tenant, ssoConnectors, ssoConnectorListQuery());
}

/** A page (or all) of the tenant's connectors, each with what its IdP says. */
export function withProviderConfigs(
  rows: SsoConnectorRow[],
  deps: SsoConnectorDeps,
): Promise<SsoConnectorWithProviderConfig[]> {
  return Promise.all(rows.map((row) => withProviderConfig(row, deps)));
}

export async function getSsoConnector(
  tenant: TenantDb,
  deps: SsoConnectorDeps,
  id: string,
): Promise<SsoConnectorWithProviderConfig> {
  return withProviderConfig(await findSsoConnector(tenant, id), deps);
}

export async function createSsoConnector(
  ctx: WriteContext,
  deps: SsoConnectorDeps,
  input: SsoConnectorCreate,
): Promise<SsoConnectorWithProviderConfig> {
  const config = checkedConfig(input.providerName, mergedConfig({}, input.config ?? {}));
  const domains = checkedDomains(input.domains ?? []);
  const idp = await readIdpForSave(input.providerName, config, deps.outbound);
  const row = await performWrite(ctx, 'Admin.SsoConnector.Created', async (tx) => {
    // Spec §9: the plan limits enterprise SSO connectors (cloud).
    await assertQuota(tx, 'enterpriseSsoLimit', deps);
    const created = await tx.insert(ssoConnectors, {
      id: generateId(),
      providerName: input.providerName,
      connectorName: input.connectorName,
      config,
      domains,
      branding: input.branding ?? {},
      syncProfile: input.syncProfile ?? false,
      enableTokenStorage: input.enableTokenStorage ?? false,
    });
    return {
      result: created,
      entity: { type: 'SsoConnector', id: created.id },
      before: null,
      after: toSsoConnector(created),
    };
  });
  return withProviderConfig(row, deps, idp);
}

export async function updateSsoConnector(
  ctx: WriteContext,
  deps: SsoConnectorDeps,
  id: string,
  patch: SsoConnectorPatch,
): Promise<SsoConnectorWithProviderConfig> {
  const existing = await findSsoConnector(ctx.tenant, id);
  const providerName = providerNameOf(existing);
  const config = patch.config && checkedConfig(providerName, mergedConfig(existing.config, patch.config));
  if (patch.config && config) {
    // A client secret kept by its mask is not sent to another issuer (services/masked-secrets.ts).
    const refused = secretsSentElsewhere(
      ssoSecretBinding,
      existing.config,
      config,
      patch.config,
      (key) => `config.${key}`,
    );
    if (refused.length > 0) throw new DomainError('invalid', 'guard.invalid_input', refused);
  }
  const domains = patch.domains && checkedDomains(patch.domains);
  const idp = config && (await readIdpForSave(providerName, config, deps.outbound));
  const row = await performWrite(ctx, 'Admin.SsoConnector.Updated', async (tx) => {
    const before = await findSsoConnector(tx, id);
    const [updated = before] = await tx.update(ssoConnectors, eq(ssoConnectors.id, id), {
      connectorName: patch.connectorName,
      config,
      domains,
      branding: patch.branding,
      syncProfile: patch.syncProfile,
      enableTokenStorage: patch.enableTokenStorage,
      updatedAt: new Date(),
    });
    return {
      result: updated,
      entity: { type: 'SsoConnector', id },
      before: toSsoConnector(before),
      after: toSsoConnector(updated),
    };
  });
  // A config just read is answered as read; otherwise the IdP is read as a GET would.
  return withProviderConfig(row, deps, idp || undefined);
}

/** The `tenant_configs` key of a connector's IdP-initiated sign-in settings (services/sso-idp-initiated.ts). */
export const ssoIdpInitiatedConfigKey = (connectorId: string) => `sso_idp_initiated_auth:${connectorId}`;

export function deleteSsoConnector(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.SsoConnector.Deleted', async (tx) => {
    const [row] = await tx.delete(ssoConnectors, eq(ssoConnectors.id, id));
    if (!row) throw notFound();
    // Its IdP-initiated sign-in settings go with it (a tenant_configs row, no foreign key).
    await tx.delete(tenantConfigs, eq(tenantConfigs.key, ssoIdpInitiatedConfigKey(id)));
    return { result: undefined, entity: { type: 'SsoConnector', id }, before: toSsoConnector(row), after: null };
  });
}

/** Relation bodies (organization JIT): every id must be a connector of this tenant (422 with `data.ids`). */
export async function findSsoConnectorIds(tx: TenantDb, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  const rows = await tx.findMany(ssoConnectors, { where: inArray(ssoConnectors.id, [...new Set(ids)]) });
  assertAllFound(
    ids,
    rows.map((row) => row.id),
    'foreign_key',
  );
}

// A user's enterprise SSO identities (management API: GET /users/{id}?includeSsoIdentities, all-identities).

export function toUserSsoIdentity(row: typeof userSsoIdentities.$inferSelect): UserSsoIdentity {
  return {
    id: row.id,
    tenantId: row.tenantId,
    userId: row.userId,
    ssoConnectorId: row.ssoConnectorId,
    issuer: row.issuer,
    identityId: row.identityId,
    detail: row.detail,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

/** The user's SSO identities, oldest first (the caller has checked that the user exists). */
export async function userSsoIdentitiesOf(tenant: TenantDb, userId: string): Promise<UserSsoIdentity[]> {
  const rows = await tenant.findMany(userSsoIdentities, {
    where: eq(userSsoIdentities.userId, userId),
    orderBy: [asc(userSsoIdentities.createdAt), asc(userSsoIdentities.id)],
  });
  return rows.map(toUserSsoIdentity);
}

// What the sign-in pages read (full, unmasked config: never answer these rows to a client).

/** The connector with its full config (unsealed, secrets in clear), or 404 `entity.not_exists_with_id`. */
export async function findSsoConnector(tx: TenantDb, id: string): Promise<SsoConnectorRow> {
  const row = await findSsoConnectorRow(tx, id);
  if (!row) throw notFound();
  return row;
}

/** A connector by id with its config unsealed, or undefined (the sign-in pages answer their own page for it). */
export function findSsoConnectorRow(tx: TenantDb, id: string): Promise<SsoConnectorRow | undefined> {
  return tx.findOne(ssoConnectors, eq(ssoConnectors.id, id));
}

/** The connectors whose `domains` hold this email domain (any case; jsonb containment), oldest first. */
export function ssoConnectorsForEmailDomain(tx: TenantDb, domain: string): Promise<SsoConnectorRow[]> {
  const wanted = JSON.stringify([domain.trim().toLowerCase()]);
  return tx.findMany(ssoConnectors, {
    where: sql`${ssoConnectors.domains} @> ${wanted}::jsonb`,
    orderBy: [asc(ssoConnectors.createdAt), asc(ssoConnectors.id)],
  });
}

/** The connectors a sign-in page can reach by email: those with at least one email domain, oldest first. */
export function listSsoConnectorsForSignIn(tx: TenantDb): Promise<SsoConnectorRow[]> {
  return tx.findMany(ssoConnectors, {
    where: sql`jsonb_array_length(${ssoConnectors.domains}) > 0`,
    orderBy: [asc(ssoConnectors.createdAt), asc(ssoConnectors.id)],
  });
}
