import { generateId } from '@gatehouse/schemas';
import { desc, eq } from 'drizzle-orm';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../db/client.ts';
import { signingKeys } from '../db/tables.ts';

export const SIGNING_ALGORITHM = 'RS256';

/** Creates a tenant's first signing key when it has none. Idempotent. */
export async function ensureSigningKey(db: Database, tenantId: string): Promise<void> {
  const existing = await db
    .select({ id: signingKeys.id })
    .from(signingKeys)
    .where(eq(signingKeys.tenantId, tenantId))
    .limit(1);
  if (existing.length > 0) return;
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const id = generateId();
  const privateJwk = { ...(await exportJWK(privateKey)), kid: id, alg: SIGNING_ALGORITHM, use: 'sig' };
  await db.insert(signingKeys).values({ tenantId, id, privateJwk }).onConflictDoNothing();
}

const publicMembers = ['kty', 'kid', 'alg', 'use', 'n', 'e', 'crv', 'x', 'y'] as const;

function toPublicJwk(privateJwk: Record<string, unknown>): JWK {
  return Object.fromEntries(publicMembers.filter((k) => k in privateJwk).map((k) => [k, privateJwk[k]])) as JWK;
}

type KeySet = { jwks: ReturnType<typeof createLocalJWKSet>; loadedAt: number };

/**
 * Verification keys per tenant, read from the database and kept for a short while so a key rotated
 * by another server process is picked up within `ttlMs` without a database read per request.
 */
export class SigningKeyStore {
  readonly #db: Database;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, KeySet>();

  constructor(db: Database, ttlMs = 60_000) {
    this.#db = db;
    this.#ttlMs = ttlMs;
  }

  async privateKeys(tenantId: string): Promise<Record<string, unknown>[]> {
    const rows = await this.#db
      .select({ privateJwk: signingKeys.privateJwk })
      .from(signingKeys)
      .where(eq(signingKeys.tenantId, tenantId))
      .orderBy(desc(signingKeys.createdAt));
    return rows.map((row) => row.privateJwk);
  }

  async verificationKeys(tenantId: string): Promise<KeySet['jwks']> {
    const cached = this.#cache.get(tenantId);
    if (cached && Date.now() - cached.loadedAt < this.#ttlMs) return cached.jwks;
    const keys = (await this.privateKeys(tenantId)).map(toPublicJwk);
    const jwks = createLocalJWKSet({ keys });
    this.#cache.set(tenantId, { jwks, loadedAt: Date.now() });
    return jwks;
  }
}
