import { and, eq, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { oidcModelInstances } from '../../db/tables.ts';

/**
 * oidc-provider storage in PostgreSQL (sessions, interactions, grants, codes, tokens…), scoped to
 * one tenant, so every server process sees the same state.
 */
export class OidcModelAdapter implements Adapter {
  readonly #db: Database;
  readonly #tenantId: string;
  readonly #modelName: string;

  constructor(db: Database, tenantId: string, modelName: string) {
    this.#db = db;
    this.#tenantId = tenantId;
    this.#modelName = modelName;
  }

  #where(id: string) {
    return and(
      eq(oidcModelInstances.tenantId, this.#tenantId),
      eq(oidcModelInstances.modelName, this.#modelName),
      eq(oidcModelInstances.id, id),
    );
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    await this.#db
      .insert(oidcModelInstances)
      .values({ tenantId: this.#tenantId, modelName: this.#modelName, id, payload: { ...payload }, expiresAt })
      .onConflictDoUpdate({
        target: [oidcModelInstances.tenantId, oidcModelInstances.modelName, oidcModelInstances.id],
        set: { payload: { ...payload }, expiresAt },
      });
  }

  async #findBy(condition: ReturnType<typeof and>): Promise<AdapterPayload | undefined> {
    const [row] = await this.#db
      .select()
      .from(oidcModelInstances)
      .where(and(condition, sql`(${oidcModelInstances.expiresAt} is null or ${oidcModelInstances.expiresAt} > now())`))
      .limit(1);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  find(id: string) {
    return this.#findBy(this.#where(id));
  }

  findByUid(uid: string) {
    return this.#findBy(
      and(
        eq(oidcModelInstances.tenantId, this.#tenantId),
        eq(oidcModelInstances.modelName, this.#modelName),
        sql`${oidcModelInstances.payload}->>'uid' = ${uid}`,
      ),
    );
  }

  findByUserCode(userCode: string) {
    return this.#findBy(
      and(
        eq(oidcModelInstances.tenantId, this.#tenantId),
        eq(oidcModelInstances.modelName, this.#modelName),
        sql`${oidcModelInstances.payload}->>'userCode' = ${userCode}`,
      ),
    );
  }

  async consume(id: string): Promise<void> {
    await this.#db.update(oidcModelInstances).set({ consumedAt: new Date() }).where(this.#where(id));
  }

  async destroy(id: string): Promise<void> {
    await this.#db.delete(oidcModelInstances).where(this.#where(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db
      .delete(oidcModelInstances)
      .where(
        and(
          eq(oidcModelInstances.tenantId, this.#tenantId),
          sql`${oidcModelInstances.payload}->>'grantId' = ${grantId}`,
        ),
      );
  }
}
