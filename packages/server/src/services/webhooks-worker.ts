import { generateId, internalOutboxEvents } from '@gatehouse/schemas';
import { and, asc, eq, inArray, isNull, lt, lte, not, notInArray, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { allOf, anyOf } from '../db/conditions.ts';
import { hookDeliveries, hookLogs, hooks, outbox } from '../db/tables.ts';
import { allowAllOutbound, type OutboundPolicy } from './outbound.ts';
import { DELIVERY_TIMEOUT_MS, deliveryBody, sendOnce } from './webhooks.ts';

export type WebhookWorkerOptions = {
  db: Database;
  /** Where tenants' endpoints may be (config.outbound): private addresses are refused in the cloud edition. */
  outbound?: OutboundPolicy;
  log?: Logger | undefined;
  /** Pause between polls when there was nothing to do. */
  intervalMs?: number;
  timeoutMs?: number;
  /** Delay before retry n (1-based). Default 1 s, 4 s, 16 s. */
  backoffMs?: (retry: number) => number;
  batchSize?: number;
  /** How long a claimed delivery stays reserved to one process; then another may take it over. */
  leaseMs?: number;
  /** Attempts and finished deliveries older than this are deleted (the console shows 24 hours). */
  retentionMs?: number;
};

const HOUR_MS = 60 * 60 * 1000;
export const HOOK_LOG_RETENTION_MS = 7 * 24 * HOUR_MS;

type DeliveryRow = typeof hookDeliveries.$inferSelect;

const defaultBackoff = (retry: number) => 1000 * 4 ** (retry - 1);

/**
 * Delivers the outbox's webhook events. Each run (1) fans new outbox rows out into one delivery per
 * enabled hook subscribed to the event and marks the rows processed, in one transaction, and
 * (2) claims due deliveries with `FOR UPDATE SKIP LOCKED` plus a lease, sends them, records every
 * attempt and schedules retries with backoff. Any number of processes can run it against one
 * database: a delivery is claimed by one of them at a time, and a delivered one is never sent again.
 * Internal outbox events (e.g. invitation emails) are left to their own consumer.
 */
export class WebhookWorker {
  readonly #db: Database;
  readonly #log: Logger | undefined;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #outbound: OutboundPolicy;
  readonly #backoffMs: (retry: number) => number;
  readonly #batchSize: number;
  readonly #leaseMs: number;
  readonly #retentionMs: number;
  #lastPurge = 0;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = true;

  constructor(options: WebhookWorkerOptions) {
    this.#db = options.db;
    this.#log = options.log;
    this.#intervalMs = options.intervalMs ?? 1000;
    this.#timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.#outbound = options.outbound ?? allowAllOutbound;
    this.#backoffMs = options.backoffMs ?? defaultBackoff;
    this.#batchSize = options.batchSize ?? 20;
    this.#leaseMs = options.leaseMs ?? Math.max(60_000, this.#timeoutMs * 3);
    this.#retentionMs = options.retentionMs ?? HOOK_LOG_RETENTION_MS;
  }

  /** Polls until {@link stop}. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops polling and waits for the run in progress (its requests end within the timeout). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => {});
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      const run = this.runOnce().then(
        (work) => this.#schedule(work.fannedOut + work.attempted > 0 ? 0 : this.#intervalMs),
        (error: unknown) => {
          this.#log?.error({ err: error }, 'webhook worker run failed');
          this.#schedule(this.#intervalMs);
        },
      );
      this.#running = run;
    }, delay);
    this.#timer.unref();
  }

  /** One fan-out and one batch of due deliveries. */
  async runOnce(): Promise<{ fannedOut: number; attempted: number }> {
    if (Date.now() - this.#lastPurge > HOUR_MS) {
      this.#lastPurge = Date.now();
      await this.purge();
    }
    const fannedOut = await this.fanOut();
    const attempted = await this.deliverDue();
    return { fannedOut, attempted };
  }

  /** Runs until nothing is left to do now (tests; retries must be due at once, i.e. zero backoff). */
  async drain(maxRuns = 100): Promise<void> {
    for (let run = 0; run < maxRuns; run++) {
      const work = await this.runOnce();
      if (work.fannedOut + work.attempted === 0) return;
    }
  }

  /** Deletes attempts and finished deliveries past the retention (every process does it hourly; idempotent). */
  async purge(): Promise<void> {
    const cutoff = sql`now() - ${this.#retentionMs} * interval '1 millisecond'`;
    await this.#db.delete(hookLogs).where(lt(hookLogs.createdAt, cutoff));
    await this.#db
      .delete(hookDeliveries)
      .where(and(not(eq(hookDeliveries.status, 'pending')), lt(hookDeliveries.createdAt, cutoff)));
  }

  /** Outbox rows → deliveries. Returns how many outbox rows it processed. */
  async fanOut(): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const rows = await tx
        .select({ tenantId: outbox.tenantId, id: outbox.id, event: outbox.event, payload: outbox.payload })
        .from(outbox)
        .where(and(isNull(outbox.processedAt), notInArray(outbox.event, [...internalOutboxEvents])))
        .orderBy(asc(outbox.id))
        .limit(this.#batchSize * 5)
        .for('update', { skipLocked: true });
      if (!rows.length) return 0;
      const tenantIds = [...new Set(rows.map((row) => row.tenantId))];
      const enabled = await tx
        .select({ tenantId: hooks.tenantId, id: hooks.id, events: hooks.events })
        .from(hooks)
        .where(and(inArray(hooks.tenantId, tenantIds), eq(hooks.enabled, true)));
      const deliveries = rows.flatMap((row) =>
        enabled
          .filter((hook) => hook.tenantId === row.tenantId && hook.events.includes(row.event))
          .map((hook) => ({
            tenantId: row.tenantId,
            id: generateId(),
            hookId: hook.id,
            outboxId: row.id,
            event: row.event,
            payload: row.payload,
          })),
      );
      if (deliveries.length) await tx.insert(hookDeliveries).values(deliveries).onConflictDoNothing();
      // Outbox ids come from one identity sequence, so they are unique across tenants.
      await tx
        .update(outbox)
        .set({ processedAt: sql`now()` })
        .where(
          inArray(
            outbox.id,
            rows.map((row) => row.id),
          ),
        );
      return rows.length;
    });
  }

  /** Claims and sends one batch of due deliveries. Returns how many attempts it made. */
  async deliverDue(): Promise<number> {
    const claimed = await this.#db.transaction(async (tx) => {
      const due = await tx
        .select({ tenantId: hookDeliveries.tenantId, id: hookDeliveries.id })
        .from(hookDeliveries)
        .where(
          and(
            eq(hookDeliveries.status, 'pending'),
            lte(hookDeliveries.nextAttemptAt, sql`now()`),
            or(isNull(hookDeliveries.lockedUntil), lt(hookDeliveries.lockedUntil, sql`now()`)),
          ),
        )
        .orderBy(asc(hookDeliveries.nextAttemptAt))
        .limit(this.#batchSize)
        .for('update', { skipLocked: true });
      if (!due.length) return [];
      return tx
        .update(hookDeliveries)
        .set({
          lockedUntil: sql`now() + ${this.#leaseMs} * interval '1 millisecond'`,
          attempts: sql`${hookDeliveries.attempts} + 1`,
        })
        .where(anyOf(...due.map((row) => keyOf(row))))
        .returning();
    });
    await Promise.all(claimed.map((delivery) => this.#attempt(delivery)));
    return claimed.length;
  }

  async #attempt(delivery: DeliveryRow): Promise<void> {
    const [hook] = await this.#db
      .select()
      .from(hooks)
      .where(and(eq(hooks.tenantId, delivery.tenantId), eq(hooks.id, delivery.hookId)));
    if (!hook?.enabled) {
      // Disabled since the event: nothing is sent.
      await this.#db.update(hookDeliveries).set({ status: 'cancelled', lockedUntil: null }).where(keyOf(delivery));
      return;
    }
    const body = deliveryBody(hook.id, delivery.id, delivery.event, delivery.payload);
    const result = await sendOnce(hook, body, { timeoutMs: this.#timeoutMs, outbound: this.#outbound });
    const retries = hook.config.retries;
    const retry = !result.success && delivery.attempts <= retries;
    await this.#db.transaction(async (tx) => {
      await tx.insert(hookLogs).values({
        tenantId: delivery.tenantId,
        id: generateId(),
        hookId: hook.id,
        deliveryId: delivery.id,
        event: delivery.event,
        attempt: delivery.attempts,
        request: result.request,
        responseStatus: result.responseStatus,
        responseBody: result.responseBody,
        durationMs: result.durationMs,
        error: result.error,
      });
      await tx
        .update(hookDeliveries)
        .set(
          retry
            ? {
                lockedUntil: null,
                nextAttemptAt: sql`now() + ${this.#backoffMs(delivery.attempts)} * interval '1 millisecond'`,
              }
            : { status: result.success ? 'succeeded' : 'failed', lockedUntil: null },
        )
        .where(keyOf(delivery));
    });
    if (!result.success) {
      this.#log?.warn(
        { hookId: hook.id, event: delivery.event, attempt: delivery.attempts, error: result.error },
        retry ? 'webhook delivery failed; will retry' : 'webhook delivery failed',
      );
    }
  }
}

const keyOf = (row: { tenantId: string; id: string }) =>
  allOf(eq(hookDeliveries.tenantId, row.tenantId), eq(hookDeliveries.id, row.id));
