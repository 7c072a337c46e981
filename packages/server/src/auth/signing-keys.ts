import { generateId, type SigningKeyAlgorithm } from '@gatehouse/schemas';
import { desc, eq } from 'drizzle-orm';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, type JWTPayload, errors as joseErrors } from 'jose';
import { signingKeys, tenantConfigs } from '../db/tables.ts';
import type { TenantDb, TenantDbs } from '../db/tenant-db.ts';

/** The algorithm of a tenant's first key, and of tokens signed by an RSA key. */
export const SIGNING_ALGORITHM = 'RS256';

/** JWS algorithm per key family: RSA keys sign RS256, EC keys are P-384 and sign ES384. */
export const jwsAlgorithms = { RSA: 'RS256', EC: 'ES384' } as const satisfies Record<SigningKeyAlgorithm, string>;
export type JwsAlgorithm = (typeof jwsAlgorithms)[SigningKeyAlgorithm];
/** Every algorithm a tenant key may sign with: what token verification accepts. */
export const VERIFICATION_ALGORITHMS: JwsAlgorithm[] = Object.values(jwsAlgorithms);

/** The key family of a stored private JWK, read from the JWK itself. */
export function keyAlgorithmOf(jwk: Record<string, unknown>): SigningKeyAlgorithm {
  return jwk.kty === 'EC' ? 'EC' : 'RSA';
}

/** The JWS algorithm a stored private JWK signs with. */
export function jwsAlgorithmOf(jwk: Record<string, unknown>): JwsAlgorithm {
  return jwsAlgorithms[keyAlgorithmOf(jwk)];
}

/** A new private signing key as a JWK whose `kid` is its id. */
export async function generateSigningKey(
  algorithm: SigningKeyAlgorithm = 'RSA',
): Promise<{ id: string; privateJwk: Record<string, unknown> }> {
  const alg = jwsAlgorithms[algorithm];
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const id = generateId();
  return { id, privateJwk: { ...(await exportJWK(privateKey)), kid: id, alg, use: 'sig' } };
}

/** Creates a tenant's first signing key when it has none. Idempotent. */
export async function ensureSigningKey(tenant: TenantDb): Promise<void> {
  if ((await tenant.count(signingKeys)) > 0) return;
  const { id, privateJwk } = await generateSigningKey('RSA');
  await tenant.insertIfAbsent(signingKeys, { id, privateJwk });
}

/**
 * A tenant's OIDC key set (signing keys and cookie keys) changes only through the key routes, which
 * write a new random version in the same transaction. Providers and verification caches compare it
 * to decide whether what they hold is stale: one primary-key read instead of reloading the keys.
 */
export const KEY_SET_VERSION = 'oidc.keySetVersion';

/** The tenant's key-set version; '' before the first rotation or deletion. */
export async function readKeySetVersion(tenant: TenantDb): Promise<string> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, KEY_SET_VERSION));
  return typeof row?.value === 'string' ? row.value : '';
}

const publicMembers = ['kty', 'kid', 'alg', 'use', 'n', 'e', 'crv', 'x', 'y'] as const;

export function toPublicJwk(privateJwk: Record<string, unknown>): JWK {
  return Object.fromEntries(publicMembers.filter((k) => k in privateJwk).map((k) => [k, privateJwk[k]])) as JWK;
}

type KeySet = { jwks: ReturnType<typeof createLocalJWKSet>; loadedAt: number; version: string };
export type VerificationKeys = (
  ...args: Parameters<ReturnType<typeof createLocalJWKSet>>
) => ReturnType<ReturnType<typeof createLocalJWKSet>>;

/**
 * Verification keys per tenant, read from the database and kept for a short while (`ttlMs`) so most
 * requests need no database read. A token whose key is not in the cache (signed after a rotation,
 * possibly by another server process) makes the store compare the key-set version and reload when
 * it changed, so a rotation never turns new tokens away. A removed key stops verifying in every process as
 * soon as the change notice arrives (`forget`, db/change-notices.ts), and within `ttlMs` should notices fail.
 */
export class SigningKeyStore {
  readonly #tenants: TenantDbs;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, Promise<KeySet>>();
  readonly #verified = new VerifiedTokens();

  constructor(tenants: TenantDbs, ttlMs = 60_000) {
    this.#tenants = tenants;
    this.#ttlMs = ttlMs;
  }

  /** The tenant's private JWKs, newest first: the first one signs. */
  async privateKeys(tenantId: string): Promise<Record<string, unknown>[]> {
    const rows = await this.#tenants
      .of(tenantId)
      .findMany(signingKeys, { orderBy: [desc(signingKeys.createdAt), desc(signingKeys.id)] });
    return rows.map((row) => row.privateJwk);
  }

  /** Drops the cached keys of a tenant (its key set changed: db/change-notices.ts). */
  forget(tenantId: string): void {
    this.#cache.delete(tenantId);
    this.#verified.forgetTenant(tenantId);
  }

  /** Drops every tenant's cached keys (change notices may have been missed). */
  forgetAll(): void {
    this.#cache.clear();
    this.#verified.forgetAll();
  }

  /**
   * The claims of a token these keys verified before, for the same check (`check`: issuer and audience expected), while
   * it is still within its lifetime and the key set it was verified with is still the one in use; else undefined.
   */
  verifiedBefore(check: string, token: string, nowSeconds: number): VerifiedToken | undefined {
    return this.#verified.get(check, token, nowSeconds);
  }

  /** Remembers a token the keys of `issuerTenantId` just verified (see {@link VerifiedTokens}). */
  rememberVerified(check: string, token: string, verified: VerifiedToken, expiresAtSeconds: number): void {
    this.#verified.set(check, token, verified, Math.min(expiresAtSeconds, (Date.now() + this.#ttlMs) / 1000));
  }

  async #load(tenantId: string): Promise<KeySet> {
    const version = await readKeySetVersion(this.#tenants.of(tenantId));
    const keys = (await this.privateKeys(tenantId)).map(toPublicJwk);
    return { jwks: createLocalJWKSet({ keys }), loadedAt: Date.now(), version };
  }

  async #current(tenantId: string): Promise<KeySet> {
    const cached = this.#cache.get(tenantId);
    if (cached) {
      const set = await cached.catch(() => undefined);
      if (set && Date.now() - set.loadedAt < this.#ttlMs) return set;
    }
    const loading = this.#load(tenantId);
    this.#cache.set(tenantId, loading);
    loading.catch(() => this.#cache.delete(tenantId));
    return loading;
  }

  async verificationKeys(tenantId: string): Promise<VerificationKeys> {
    const set = await this.#current(tenantId);
    return async (header, token) => {
      try {
        return await set.jwks(header, token);
      } catch (error) {
        if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
        // An unknown kid: reload only when the key set changed since it was read.
        if ((await readKeySetVersion(this.#tenants.of(tenantId))) === set.version) throw error;
        this.forget(tenantId);
        return (await this.#current(tenantId)).jwks(header, token);
      }
    };
  }
}

/** What a verification established: the claims, and the tenant whose keys verified the signature. */
export type VerifiedToken = { payload: JWTPayload; issuerTenantId: string };

type VerifiedEntry = VerifiedToken & { check: string; untilSeconds: number; generation: number };

/**
 * Tokens verified in the last minute, so a client sending the same access token again (as every API client does for
 * the token's whole life) is not verified with an RSA or ECDSA signature check on each request: that check cost as
 * much as the rest of a cached read (docs/areas/performance.md). Safe because the result of a signature check of the
 * same bytes with the same keys cannot change:
 * - the entry matches the whole token string and the check (expected issuers and audience), so a token differing in
 *   any byte is verified from scratch;
 * - only tokens that passed every check enter, and an entry ends at the token's `exp` (the only claim whose result
 *   moves with time: `nbf` and `iat` checks once passed stay passed) or after the key store's reload interval, whichever
 *   comes first, so a key removed without a change notice stops verifying when it would without this cache;
 * - a change of the issuing tenant's key set (rotation, deletion: `forget`) ends every entry of that tenant at once.
 * Bounded (oldest out), so memory stays small whoever sends tokens.
 */
class VerifiedTokens {
  static readonly MAX = 5_000;
  readonly #entries = new Map<string, VerifiedEntry>();
  readonly #tenantGeneration = new Map<string, number>();
  #generation = 0;

  #generationOf(tenantId: string): number {
    return this.#generation + (this.#tenantGeneration.get(tenantId) ?? 0);
  }

  get(check: string, token: string, nowSeconds: number): VerifiedToken | undefined {
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    if (
      entry.check !== check ||
      entry.untilSeconds <= nowSeconds ||
      entry.generation !== this.#generationOf(entry.issuerTenantId)
    ) {
      if (entry.check === check) this.#entries.delete(token);
      return undefined;
    }
    return { payload: entry.payload, issuerTenantId: entry.issuerTenantId };
  }

  set(check: string, token: string, verified: VerifiedToken, untilSeconds: number): void {
    if (this.#entries.size >= VerifiedTokens.MAX) this.#entries.delete(this.#entries.keys().next().value ?? '');
    this.#entries.delete(token);
    this.#entries.set(token, {
      ...verified,
      check,
      untilSeconds,
      generation: this.#generationOf(verified.issuerTenantId),
    });
  }

  forgetTenant(tenantId: string): void {
    this.#tenantGeneration.set(tenantId, (this.#tenantGeneration.get(tenantId) ?? 0) + 1);
  }

  forgetAll(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}
