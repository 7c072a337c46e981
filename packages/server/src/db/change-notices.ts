import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TenantDb } from './tenant-db.ts';

/**
 * Change notices: how every server process on one database hears at once that data it caches changed, so a
 * deleted tenant, a removed signing key or new session settings take effect everywhere in the time of a
 * notification rather than of a cache's lifetime. PostgreSQL's LISTEN/NOTIFY on one channel (PGlite has it too):
 * a notice written in a transaction is delivered when it commits, and not at all when it rolls back.
 *
 * Each process holds one listening connection (db/client.ts `listen`). A notice lost while that connection was
 * down is covered by `reset`: after reconnecting, every subscriber drops everything it cached.
 */
export const CHANGES_CHANNEL = 'gatehouse_changes';

const changeNotice = z.object({
  /**
   * `tenant`: deleted (forget everything of it); `signing-keys`: rotated or removed; `oidc-session`: settings;
   * `token-settings`: custom JWT scripts or the ID token's claims (what a provider reads for each token); `clients`: an
   * application, its secrets or its roles (the write path announces every write audited as an `Application`);
   * `grants`: a role, an API resource or its scopes (every write audited as a `Role`, `Resource` or `Scope`).
   */
  kind: z.enum(['tenant', 'signing-keys', 'oidc-session', 'token-settings', 'clients', 'grants']),
  tenantId: z.string().min(1).max(64),
});
export type ChangeNotice = z.infer<typeof changeNotice>;

/** What a listening connection reports: a notice's payload, or that notices may have been missed. */
export type NoticeListener = { notice: (payload: string) => void; reset: () => void };

/** Tells every process (this one too) of a change; in a transaction, at its commit. */
export function announceChange(tenant: TenantDb, kind: ChangeNotice['kind']): Promise<unknown> {
  const notice: ChangeNotice = { kind, tenantId: tenant.tenantId };
  return tenant.asTenant((db) => db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${JSON.stringify(notice)})`));
}

/** The subscribers of one process: caches that drop an entry on a notice, and everything on a reset. */
export class ChangeNotices implements NoticeListener {
  readonly #subscribers = new Set<(change: ChangeNotice | 'reset') => void>();

  subscribe(subscriber: (change: ChangeNotice | 'reset') => void): () => void {
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  notice(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const change = changeNotice.safeParse(parsed);
    // Anyone who may run NOTIFY on the database can send to the channel: an unknown notice is ignored, and the
    // worst a forged one does is drop a cache entry that is read again.
    if (change.success) this.#publish(change.data);
  }

  reset(): void {
    this.#publish('reset');
  }

  /**
   * A change this process just committed, told to its own caches at once: its next request must see it, and the
   * notice through the database arrives a moment later (and drops the entries again, harmlessly).
   */
  changedHere(change: ChangeNotice): void {
    this.#publish(change);
  }

  #publish(change: ChangeNotice | 'reset'): void {
    for (const subscriber of this.#subscribers) subscriber(change);
  }
}

/**
 * Values read from one tenant's rows and kept until a notice drops them: a notice of one of `kinds` or of the
 * tenant's deletion drops the tenant's entries, a reset drops all, and an entry lives `ttlMs` at most besides. Without
 * notices (an app built alone, as tests do) nothing is kept and every `get` reads. A miss is never kept (an id created
 * a moment later must be found, and unknown ids must not fill the cache), nor a value whose read raced a drop.
 */
export class NoticedCache<V> {
  readonly #entries = new Map<string, Map<string, { value: V; until: number }>>();
  readonly #kinds: ReadonlySet<ChangeNotice['kind']>;
  readonly #noticed: boolean;
  readonly #ttlMs: number;
  readonly #max: number;
  #size = 0;
  /** Counts drops: a read that began before one is not kept. */
  #drops = 0;

  constructor(
    notices: ChangeNotices | undefined,
    kinds: readonly ChangeNotice['kind'][],
    { ttlMs = 60_000, max = 10_000 }: { ttlMs?: number; max?: number } = {},
  ) {
    this.#kinds = new Set<ChangeNotice['kind']>(['tenant', ...kinds]);
    this.#noticed = notices !== undefined;
    this.#ttlMs = ttlMs;
    this.#max = max;
    notices?.subscribe((change) => {
      if (change === 'reset') this.#drop();
      else if (this.#kinds.has(change.kind)) this.#drop(change.tenantId);
    });
  }

  async get(tenantId: string, key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    if (!this.#noticed) return read();
    const now = Date.now();
    const entry = this.#entries.get(tenantId)?.get(key);
    if (entry && entry.until > now) return entry.value;
    const drops = this.#drops;
    const value = await read();
    if (value === undefined || drops !== this.#drops) return value;
    if (this.#size >= this.#max) this.#drop();
    let ofTenant = this.#entries.get(tenantId);
    if (!ofTenant) {
      ofTenant = new Map();
      this.#entries.set(tenantId, ofTenant);
    }
    if (!ofTenant.has(key)) this.#size++;
    ofTenant.set(key, { value, until: now + this.#ttlMs });
    return value;
  }

  #drop(tenantId?: string): void {
    this.#drops++;
    if (tenantId === undefined) {
      this.#entries.clear();
      this.#size = 0;
      return;
    }
    this.#size -= this.#entries.get(tenantId)?.size ?? 0;
    this.#entries.delete(tenantId);
  }
}
