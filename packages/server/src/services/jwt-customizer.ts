import {
  DomainError,
  defaultIdTokenConfig,
  extendedIdTokenClaims,
  type IdTokenConfig,
  isOrganizationUrn,
  type JwtCustomizer,
  type JwtCustomizerPatch,
  type JwtCustomizerResponse,
  type JwtCustomizerTest,
  type JwtCustomizerTestResult,
  type JwtCustomizerTokenType,
  jwtCustomizerConfigKeys,
  jwtCustomizerTokenTypes,
  MASKED_SECRET,
  organizationIdFromUrn,
  reservedJwtClaims,
} from '@gatehouse/schemas';
import { eq, inArray } from 'drizzle-orm';
import { announceChange } from '../db/change-notices.ts';
import { seal, unseal } from '../db/secret-box.ts';
import { tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { ScriptSandbox } from './jwt-customizer/sandbox.ts';
import { assertFeature, type QuotaDeps } from './quota.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * Custom JWT settings (reference `/configs/jwt-customizer`, `/configs/id-token`), one `tenant_configs` row each. The
 * environment variables are stored sealed (db/secret-box.ts) and answered masked, in the API and in the audit
 * log; a masked value sent back means "keep the stored one".
 */

/** A script as stored: the variables are one sealed JSON object. */
type StoredCustomizer = {
  script: string;
  environmentVariables?: string | undefined;
  contextSample?: Record<string, unknown> | undefined;
  tokenSample?: Record<string, unknown> | undefined;
  blockIssuanceOnError: boolean;
};

/** A script as the token hook and the Test use it: the variables in the clear. */
export type Customizer = Omit<StoredCustomizer, 'environmentVariables'> & {
  environmentVariables: Record<string, string>;
};

export const ID_TOKEN_CONFIG_KEY = 'idToken';

const reserved: ReadonlySet<string> = new Set(reservedJwtClaims);

function toCustomizer(value: unknown): Customizer | undefined {
  const stored = value as Partial<StoredCustomizer> | undefined;
  if (!stored || typeof stored.script !== 'string') return undefined;
  const variables = stored.environmentVariables
    ? (JSON.parse(unseal(stored.environmentVariables)) as Record<string, string>)
    : {};
  return {
    script: stored.script,
    environmentVariables: variables,
    contextSample: stored.contextSample,
    tokenSample: stored.tokenSample,
    blockIssuanceOnError: stored.blockIssuanceOnError !== false,
  };
}

const masked = (variables: Record<string, string>) =>
  Object.fromEntries(Object.keys(variables).map((name) => [name, MASKED_SECRET]));

/** The answer (and the audit log's before/after): variables masked. */
function toResponse(customizer: Customizer): JwtCustomizerResponse {
  return {
    script: customizer.script,
    environmentVariables: masked(customizer.environmentVariables),
    ...(customizer.contextSample ? { contextSample: customizer.contextSample } : {}),
    ...(customizer.tokenSample ? { tokenSample: customizer.tokenSample } : {}),
    blockIssuanceOnError: customizer.blockIssuanceOnError,
  };
}

function toStored(customizer: Customizer): StoredCustomizer {
  const hasVariables = Object.keys(customizer.environmentVariables).length > 0;
  return {
    script: customizer.script,
    environmentVariables: hasVariables ? seal(JSON.stringify(customizer.environmentVariables)) : undefined,
    contextSample: customizer.contextSample,
    tokenSample: customizer.tokenSample,
    blockIssuanceOnError: customizer.blockIssuanceOnError,
  };
}

/**
 * Variables sent by a client: a masked value keeps the stored one of that name; a masked value with nothing stored
 * under its name is refused (400), since the client cannot mean any value.
 */
function unmask(given: Record<string, string>, stored: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(given).map(([name, value]) => {
      if (value !== MASKED_SECRET) return [name, value];
      const kept = stored[name];
      if (kept === undefined)
        throw new DomainError('invalid', 'guard.invalid_input', {
          environmentVariables: { [name]: 'no stored value to keep' },
        });
      return [name, kept];
    }),
  );
}

export async function readCustomizer(
  tenant: TenantDb,
  tokenType: JwtCustomizerTokenType,
): Promise<Customizer | undefined> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, jwtCustomizerConfigKeys[tokenType]));
  return toCustomizer(row?.value);
}

export async function listCustomizers(tenant: TenantDb) {
  const keys = jwtCustomizerTokenTypes.map((type) => jwtCustomizerConfigKeys[type]);
  const rows = await tenant.findMany(tenantConfigs, { where: inArray(tenantConfigs.key, keys) });
  return jwtCustomizerTokenTypes.flatMap((type) => {
    const key = jwtCustomizerConfigKeys[type];
    const customizer = toCustomizer(rows.find((row) => row.key === key)?.value);
    return customizer ? [{ key, value: toResponse(customizer) }] : [];
  });
}

export async function getCustomizer(
  tenant: TenantDb,
  tokenType: JwtCustomizerTokenType,
): Promise<JwtCustomizerResponse> {
  const customizer = await readCustomizer(tenant, tokenType);
  if (!customizer) throw new DomainError('not_found', 'entity.not_exists_with_id');
  return toResponse(customizer);
}

/** PUT: creates or replaces the script of a token type; `created` tells the route 201 from 200. */
export async function putCustomizer(
  ctx: WriteContext,
  tokenType: JwtCustomizerTokenType,
  body: JwtCustomizer,
  deps: QuotaDeps,
): Promise<{ created: boolean; value: JwtCustomizerResponse }> {
  await assertFeature(ctx.tenant, 'customJwtEnabled', deps);
  const existing = await readCustomizer(ctx.tenant, tokenType);
  const key = jwtCustomizerConfigKeys[tokenType];
  return performWrite(ctx, existing ? 'Admin.JwtCustomizer.Updated' : 'Admin.JwtCustomizer.Created', async (tx) => {
    const before = await readCustomizer(tx, tokenType);
    const next: Customizer = {
      script: body.script,
      environmentVariables: unmask(body.environmentVariables ?? {}, before?.environmentVariables ?? {}),
      contextSample: body.contextSample,
      tokenSample: body.tokenSample,
      blockIssuanceOnError: body.blockIssuanceOnError ?? true,
    };
    const value = toStored(next);
    await tx.insertIfAbsent(tenantConfigs, { key, value });
    await tx.update(tenantConfigs, eq(tenantConfigs.key, key), { value });
    await announceChange(tx, 'token-settings');
    const after = toResponse(next);
    return {
      result: { created: !before, value: after },
      entity: { type: 'JwtCustomizer', id: tokenType },
      before: before ? toResponse(before) : null,
      after,
    };
  });
}

export async function patchCustomizer(
  ctx: WriteContext,
  tokenType: JwtCustomizerTokenType,
  patch: JwtCustomizerPatch,
  deps: QuotaDeps,
): Promise<JwtCustomizerResponse> {
  await assertFeature(ctx.tenant, 'customJwtEnabled', deps);
  const key = jwtCustomizerConfigKeys[tokenType];
  return performWrite(ctx, 'Admin.JwtCustomizer.Updated', async (tx) => {
    const before = await readCustomizer(tx, tokenType);
    if (!before) throw new DomainError('not_found', 'entity.not_exists_with_id');
    const next: Customizer = {
      script: patch.script ?? before.script,
      environmentVariables: patch.environmentVariables
        ? unmask(patch.environmentVariables, before.environmentVariables)
        : before.environmentVariables,
      contextSample: patch.contextSample ?? before.contextSample,
      tokenSample: patch.tokenSample ?? before.tokenSample,
      blockIssuanceOnError: patch.blockIssuanceOnError ?? before.blockIssuanceOnError,
    };
    await tx.update(tenantConfigs, eq(tenantConfigs.key, key), { value: toStored(next) });
    await announceChange(tx, 'token-settings');
    const after = toResponse(next);
    return { result: after, entity: { type: 'JwtCustomizer', id: tokenType }, before: toResponse(before), after };
  });
}

export async function deleteCustomizer(ctx: WriteContext, tokenType: JwtCustomizerTokenType): Promise<void> {
  const key = jwtCustomizerConfigKeys[tokenType];
  await performWrite(ctx, 'Admin.JwtCustomizer.Deleted', async (tx) => {
    const before = await readCustomizer(tx, tokenType);
    // The reference answers a delete that found nothing with `entity.not_found` (GET and PATCH: `not_exists_with_id`).
    if (!before) throw new DomainError('not_found', 'entity.not_found');
    await tx.delete(tenantConfigs, eq(tenantConfigs.key, key));
    await announceChange(tx, 'token-settings');
    return {
      result: undefined,
      entity: { type: 'JwtCustomizer', id: tokenType },
      before: toResponse(before),
      after: null,
    };
  });
}

/** The script's claims without the reserved ones, and the names of those it tried to set. */
export function mergeableClaims(claims: Record<string, unknown>): {
  claims: Record<string, unknown>;
  dropped: string[];
} {
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(claims)) {
    if (reserved.has(name)) dropped.push(name);
    else kept[name] = value;
  }
  return { claims: kept, dropped };
}

/**
 * A sample organization token (audience `urn:gatehouse:organization:<id>`) gets its `organization_id`, as issued ones
 * do; an invalid organization URN is the script-facing TypeError of spec §8 (422).
 */
function withOrganization(token: Record<string, unknown>): Record<string, unknown> {
  const audience = token.aud;
  if (typeof audience !== 'string' || !isOrganizationUrn(audience)) return token;
  try {
    return { ...token, organization_id: organizationIdFromUrn(audience) };
  } catch (error) {
    throw new DomainError('unprocessable', 'jwt_customizer.general', {
      name: 'TypeError',
      message: (error as Error).message,
    });
  }
}

/**
 * The console's Test: runs the given script in the same sandbox against the samples. Masked variables are the
 * stored ones. A failing script answers 422 with the script's own error in `data`.
 */
export async function testCustomizer(
  tenant: TenantDb,
  body: JwtCustomizerTest,
  deps: { sandbox: ScriptSandbox },
): Promise<JwtCustomizerTestResult> {
  const token = withOrganization(body.token);
  const stored = await readCustomizer(tenant, body.tokenType);
  const environmentVariables = unmask(body.environmentVariables ?? {}, stored?.environmentVariables ?? {});
  const outcome = await deps.sandbox.run(
    body.script,
    { token, context: body.context ?? {}, environmentVariables },
    tenant.tenantId,
  );
  if (!outcome.ok) {
    const code = outcome.error.name === 'AccessDenied' ? 'jwt_customizer.access_denied' : 'jwt_customizer.general';
    throw new DomainError('unprocessable', code, { name: outcome.error.name, message: outcome.error.message });
  }
  const { claims, dropped } = mergeableClaims(outcome.claims);
  return { payload: { ...claims, ...token }, claims, droppedClaims: dropped };
}

export async function readIdTokenConfig(tenant: TenantDb): Promise<IdTokenConfig> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, ID_TOKEN_CONFIG_KEY));
  return toIdTokenConfig(row?.value);
}

function toIdTokenConfig(value: unknown): IdTokenConfig {
  const claims = (value as Partial<IdTokenConfig> | undefined)?.enabledExtendedClaims;
  if (!Array.isArray(claims)) return defaultIdTokenConfig;
  return { enabledExtendedClaims: extendedIdTokenClaims.filter((claim) => claims.includes(claim)) };
}

/** What a tenant's provider reads for each token: its custom JWT scripts and the ID token's claims. */
export type TokenSettings = {
  customizers: Partial<Record<JwtCustomizerTokenType, Customizer>>;
  idToken: IdTokenConfig;
};

/** The config keys behind {@link TokenSettings}: a change to any of them changes what tokens carry. */
export const tokenSettingsKeys: readonly string[] = [
  ...jwtCustomizerTokenTypes.map((type) => jwtCustomizerConfigKeys[type]),
  ID_TOKEN_CONFIG_KEY,
];

/** {@link TokenSettings} in one read (a provider keeps them until a `token-settings` change notice). */
export async function readTokenSettings(tenant: TenantDb): Promise<TokenSettings> {
  const rows = await tenant.findMany(tenantConfigs, { where: inArray(tenantConfigs.key, [...tokenSettingsKeys]) });
  const stored = (key: string) => rows.find((row) => row.key === key)?.value;
  const customizers: TokenSettings['customizers'] = {};
  for (const type of jwtCustomizerTokenTypes) {
    const customizer = toCustomizer(stored(jwtCustomizerConfigKeys[type]));
    // A blank script (stored as the reference does) customizes nothing: tokens are issued as without one.
    if (customizer?.script.trim()) customizers[type] = customizer;
  }
  return { customizers, idToken: toIdTokenConfig(stored(ID_TOKEN_CONFIG_KEY)) };
}

export function putIdTokenConfig(ctx: WriteContext, body: IdTokenConfig): Promise<IdTokenConfig> {
  return performWrite(ctx, 'Admin.IdTokenConfig.Updated', async (tx) => {
    const before = await readIdTokenConfig(tx);
    const after = {
      enabledExtendedClaims: extendedIdTokenClaims.filter((claim) => body.enabledExtendedClaims.includes(claim)),
    };
    await tx.insertIfAbsent(tenantConfigs, { key: ID_TOKEN_CONFIG_KEY, value: after });
    await tx.update(tenantConfigs, eq(tenantConfigs.key, ID_TOKEN_CONFIG_KEY), { value: after });
    await announceChange(tx, 'token-settings');
    return { result: after, entity: { type: 'IdTokenConfig', id: 'id-token' }, before, after };
  });
}
