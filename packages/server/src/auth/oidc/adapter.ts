import { eq, type SQL, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { allOf } from '../../db/conditions.ts';
import { oidcModelInstances } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';

/** A key PostgreSQL text cannot hold (a NUL character): no row has it. */
export const unstorable = (key: string) => key.includes('\u0000');

/**
 * oidc-provider storage in PostgreSQL (sessions, interactions, grants, codes, tokens…), scoped to
 * one tenant, so every server process sees the same state.
 */
export class OidcModelAdapter implements Adapter {
  readonly #tenant: TenantDb;
  readonly #tenantId: string;
  readonly #modelName: string;

  constructor(tenant: TenantDb, modelName: string) {
    this.#tenant = tenant;
    this.#tenantId = tenant.tenantId;
    this.#modelName = modelName;
  }

  #where(id: string) {
    return allOf(eq(oidcModelInstances.modelName, this.#modelName), eq(oidcModelInstances.id, id));
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    await this.#tenant.asTenant((db) =>
      db
        .insert(oidcModelInstances)
        .values({ tenantId: this.#tenantId, modelName: this.#modelName, id, payload: { ...payload }, expiresAt })
        .onConflictDoUpdate({
          target: [oidcModelInstances.tenantId, oidcModelInstances.modelName, oidcModelInstances.id],
          set: { payload: { ...payload }, expiresAt },
        }),
    );
  }

  async #findBy(condition: SQL, key: string): Promise<AdapterPayload | undefined> {
    // What a client sent (a code, a token, a form field) names nothing when PostgreSQL could not even store it.
    if (unstorable(key)) return undefined;
    const row = await this.#tenant.findOne(
      oidcModelInstances,
      allOf(condition, sql`(${oidcModelInstances.expiresAt} is null or ${oidcModelInstances.expiresAt} > now())`),
    );
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  find(id: string) {
    return this.#findBy(this.#where(id), id);
  }

  findByUid(uid: string) {
    return this.#findBy(
      allOf(eq(oidcModelInstances.modelName, this.#modelName), sql`${oidcModelInstances.payload}->>'uid' = ${uid}`),
      uid,
    );
  }

  findByUserCode(userCode: string) {
    return this.#findBy(
      allOf(
        eq(oidcModelInstances.modelName, this.#modelName),
        sql`${oidcModelInstances.payload}->>'userCode' = ${userCode}`,
      ),
      userCode,
    );
  }

  async consume(id: string): Promise<void> {
    if (unstorable(id)) return;
    await this.#tenant.update(oidcModelInstances, this.#where(id), { consumedAt: new Date() });
  }

  async destroy(id: string): Promise<void> {
    if (unstorable(id)) return;
    await this.#tenant.delete(oidcModelInstances, this.#where(id));
  }

  /**
   * The provider calls this on each token model (access and refresh tokens, codes) with the grant it revokes: only this
   * model's rows go. An interaction names the grant it started under too, and one still open (a sign-in as another
   * account, whose sign-out revokes the first account's grant) must outlive it.
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    if (unstorable(grantId)) return;
    await this.#tenant.delete(
      oidcModelInstances,
      allOf(
        eq(oidcModelInstances.modelName, this.#modelName),
        sql`${oidcModelInstances.payload}->>'grantId' = ${grantId}`,
      ),
    );
  }
}
