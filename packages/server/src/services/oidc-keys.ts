import { createHash, randomBytes } from 'node:crypto';
import {
  DomainError,
  generateId,
  OIDC_KEYS_KEPT,
  type OidcKey,
  type OidcKeyType,
  oidcKeyRotateSchema,
  type SigningKeyAlgorithm,
} from '@gatehouse/schemas';
import { desc, eq, inArray } from 'drizzle-orm';
import { generateSigningKey, KEY_SET_VERSION, keyAlgorithmOf } from '../auth/signing-keys.ts';
import { announceChange } from '../db/change-notices.ts';
import { COOKIE_KEYS, openConfigValue, type SealedConfigValue, sealConfigValue } from '../db/sealed-configs.ts';
import { signingKeys, tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/** The reference's answer to an unknown key id: 404 `oidc.key_not_found`. */
const keyNotFound = () => new DomainError('not_found', 'oidc.key_not_found');

/** The `tenant_configs` key of the cookie keys (defined in the data layer, whose start-up pass seals them). */
export { COOKIE_KEYS };

/**
 * A cookie-signing secret, newest first (the first one signs). The list is stored in `tenant_configs` sealed as a
 * whole ({@link serializeCookieKeys}; docs/areas/security.md "Secrets at rest").
 */
type StoredCookieKey = { id: string; value: string; createdAt: number | null };

export function newCookieKey(): StoredCookieKey {
  return { id: generateId(), value: randomBytes(32).toString('base64url'), createdAt: Date.now() };
}

/** The stored value of a list of cookie keys: sealed (what {@link parseCookieKeys} reads back). */
export const serializeCookieKeys = (keys: StoredCookieKey[]): SealedConfigValue => sealConfigValue(keys);

/**
 * Reads the stored cookie keys, in the clear: sealed, or plain JSON as older versions stored them (until the
 * start-up pass seals it). Tenants created before keys had ids stored bare strings: those get an id derived from
 * the secret (stable across reads, processes and re-sealing) and no creation date.
 */
export function parseCookieKeys(stored: unknown): StoredCookieKey[] {
  const value = openConfigValue(stored);
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): StoredCookieKey[] => {
    if (typeof entry === 'string') {
      return [{ id: createHash('sha256').update(entry).digest('hex').slice(0, 21), value: entry, createdAt: null }];
    }
    if (entry && typeof entry === 'object' && typeof entry.id === 'string' && typeof entry.value === 'string') {
      return [
        { id: entry.id, value: entry.value, createdAt: typeof entry.createdAt === 'number' ? entry.createdAt : null },
      ];
    }
    return [];
  });
}

const statusOf = (index: number): OidcKey['status'] => (index === 0 ? 'Current' : 'Previous');

async function listPrivateKeys(tenant: TenantDb): Promise<OidcKey[]> {
  const rows = await tenant.findMany(signingKeys, { orderBy: [desc(signingKeys.createdAt), desc(signingKeys.id)] });
  return rows.map((row, index) => ({
    id: row.id,
    createdAt: row.createdAt.getTime(),
    status: statusOf(index),
    signingKeyAlgorithm: keyAlgorithmOf(row.privateJwk),
  }));
}

async function storedCookieKeys(tenant: TenantDb): Promise<StoredCookieKey[]> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, COOKIE_KEYS));
  return parseCookieKeys(row?.value);
}

/**
 * The tenant's cookie keys, created here when the tenant's provider has not run yet (the provider
 * creates them on first use too; whichever writes first wins, as both insert only when absent).
 */
export async function ensureCookieKeys(tenant: TenantDb): Promise<StoredCookieKey[]> {
  const stored = await storedCookieKeys(tenant);
  if (stored.length) return stored;
  try {
    await tenant.insert(tenantConfigs, { key: COOKIE_KEYS, value: serializeCookieKeys([newCookieKey()]) });
  } catch {
    // Another request created them first.
  }
  return storedCookieKeys(tenant);
}

const toCookieKeys = (stored: StoredCookieKey[]): OidcKey[] =>
  stored.map((key, index) => ({ id: key.id, createdAt: key.createdAt, status: statusOf(index) }));

export async function listOidcKeys(tenant: TenantDb, keyType: OidcKeyType): Promise<OidcKey[]> {
  return keyType === 'private-keys' ? listPrivateKeys(tenant) : toCookieKeys(await ensureCookieKeys(tenant));
}

/**
 * Creates the key-set version row before a key transaction needs it, outside that transaction (a failed
 * insert would abort it): two first writes racing on an insert would otherwise fail one of them.
 */
export async function ensureKeySetVersion(tenant: TenantDb): Promise<void> {
  if (await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, KEY_SET_VERSION))) return;
  try {
    await tenant.insert(tenantConfigs, { key: KEY_SET_VERSION, value: '' });
  } catch {
    // Another request created it first.
  }
}

/**
 * Marks the tenant's key set as changed. Written first in a key transaction: the row lock it takes
 * serialises concurrent rotations and deletions of one tenant, so each sees the other's result.
 */
async function bumpKeySetVersion(tx: TenantDb): Promise<void> {
  const version = generateId();
  const updated = await tx.update(tenantConfigs, eq(tenantConfigs.key, KEY_SET_VERSION), { value: version });
  if (!updated.length) await tx.insert(tenantConfigs, { key: KEY_SET_VERSION, value: version });
  // Every process drops the tenant's cached keys and provider when this commits.
  await announceChange(tx, 'signing-keys');
}

async function writeCookieKeys(tx: TenantDb, keys: StoredCookieKey[]): Promise<void> {
  const value = serializeCookieKeys(keys);
  const updated = await tx.update(tenantConfigs, eq(tenantConfigs.key, COOKIE_KEYS), { value });
  if (!updated.length) await tx.insert(tenantConfigs, { key: COOKIE_KEYS, value });
}

/**
 * A new current key; the key that was current stays as the previous one (still published in the
 * JWKS, still verifying cookies), and older ones are removed: `OIDC_KEYS_KEPT` keys at most.
 * A private key's family is the one asked for, else that of the key it replaces.
 */
export async function rotateOidcKeys(
  tx: TenantDb,
  keyType: OidcKeyType,
  algorithm: SigningKeyAlgorithm | undefined,
): Promise<{ before: OidcKey[]; after: OidcKey[] }> {
  await bumpKeySetVersion(tx);
  if (keyType === 'cookie-keys') {
    const stored = await storedCookieKeys(tx);
    const next = [newCookieKey(), ...stored].slice(0, OIDC_KEYS_KEPT);
    await writeCookieKeys(tx, next);
    return { before: toCookieKeys(stored), after: toCookieKeys(next) };
  }
  const before = await listPrivateKeys(tx);
  const { id, privateJwk } = await generateSigningKey(algorithm ?? before[0]?.signingKeyAlgorithm ?? 'RSA');
  // Stamped after every existing key so that "newest signs" cannot tie with a key made this millisecond.
  const newest = before[0]?.createdAt ?? 0;
  await tx.insert(signingKeys, { id, privateJwk, createdAt: new Date(Math.max(Date.now(), newest + 1)) });
  const dropped = before.slice(OIDC_KEYS_KEPT - 1).map((key) => key.id);
  if (dropped.length) await tx.delete(signingKeys, inArray(signingKeys.id, dropped));
  return { before, after: await listPrivateKeys(tx) };
}

/** Removes a previous key. The current key signs, so it cannot be removed (rotate first). */
export async function deleteOidcKey(
  tx: TenantDb,
  keyType: OidcKeyType,
  keyId: string,
): Promise<{ before: OidcKey[]; after: OidcKey[] }> {
  await bumpKeySetVersion(tx);
  if (keyType === 'cookie-keys') {
    const stored = await storedCookieKeys(tx);
    const index = stored.findIndex((key) => key.id === keyId);
    if (index < 0) throw keyNotFound();
    if (index === 0) throw new DomainError('unprocessable', 'oidc.key_required');
    const next = stored.filter((key) => key.id !== keyId);
    await writeCookieKeys(tx, next);
    return { before: toCookieKeys(stored), after: toCookieKeys(next) };
  }
  const before = await listPrivateKeys(tx);
  const index = before.findIndex((key) => key.id === keyId);
  if (index < 0) throw keyNotFound();
  if (index === 0) throw new DomainError('unprocessable', 'oidc.key_required');
  await tx.delete(signingKeys, eq(signingKeys.id, keyId));
  return { before, after: await listPrivateKeys(tx) };
}

// The admin API's operations on a tenant's OIDC keys: rotate, delete a previous key (both audited).

/** Audit-log entity per key type; the entries name keys by id and algorithm, never their material. */
const auditEntity = { 'private-keys': 'OidcPrivateKeys', 'cookie-keys': 'OidcCookieKeys' } as const satisfies Record<
  OidcKeyType,
  string
>;

/**
 * Rotates the keys of a type. The body is optional (no body: the default algorithm), so it is validated here,
 * where its defaults are applied.
 */
export async function rotateKeys(ctx: WriteContext, keyType: OidcKeyType, body: unknown) {
  await ensureKeySetVersion(ctx.tenant);
  return performWrite(
    ctx,
    { key: `Admin.${auditEntity[keyType]}.Rotated`, schema: oidcKeyRotateSchema, input: body ?? {} },
    async (tx, { signingKeyAlgorithm }) => {
      const { before, after } = await rotateOidcKeys(tx, keyType, signingKeyAlgorithm);
      return {
        result: after,
        entity: { type: auditEntity[keyType], id: keyType },
        before: { keys: before },
        after: { keys: after },
      };
    },
  );
}

/** Deletes a previous key (the current one signs: 422 `oidc.key_required`). */
export async function removeKey(ctx: WriteContext, keyType: OidcKeyType, keyId: string): Promise<void> {
  await ensureKeySetVersion(ctx.tenant);
  await performWrite(ctx, `Admin.${auditEntity[keyType]}.Deleted`, async (tx) => {
    const { before, after } = await deleteOidcKey(tx, keyType, keyId);
    return {
      result: undefined,
      entity: { type: auditEntity[keyType], id: keyType },
      before: { keys: before },
      after: { keys: after },
    };
  });
}
