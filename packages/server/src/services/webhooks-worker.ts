import { generateId, internalOutboxEvents } from '@gatehouse/schemas';
import { and, asc, eq, inArray, isNull, lt, lte, not, notInArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { allOf } from '../db/conditions.ts';
import { hookDeliveries, hookLogs, hooks, outbox } from '../db/tables.ts';
import { TenantDbs } from '../db/tenant-db.ts';
import { exponentialBackoff, fromNow, type JobDefinition, JobRunner, notLeased } from './job-runner.ts';
import { allowAllOutbound, type OutboundPolicy } from './outbound.ts';
import { type AttemptResult, DELIVERY_TIMEOUT_MS, deliveryBody, sendOnce, signedRequest } from './webhooks.ts';

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

type HookRow = typeof hooks.$inferSelect;
/** A delivery to a hook disabled since the event is cancelled; any other is an attempt to record. */
type DeliveryResult =
  | { failed: false; cancelled: true }
  | (AttemptResult & { failed: boolean; hook: HookRow; attemptId: string });

/** What an attempt says until its answer is recorded; it stays so when the process died during the request. */
export const INTERRUPTED_ATTEMPT = 'No answer was recorded: the server stopped while this attempt was in flight.';

/**
 * Delivers the outbox's webhook events on the job runner. Each poll (1) fans new outbox rows out into one delivery
 * per enabled hook subscribed to the event and marks the rows processed, in one transaction, then (2) claims due
 * deliveries (`hook_deliveries`: `attempts` counted at the claim, `locked_until` the lease, `next_attempt_at` the
 * backoff), sends them and records every attempt in `hook_logs`; a hook's `retries` say how often a failure is tried
 * again. A delivered event is never sent again. Internal outbox events (e.g. invitation emails) are left to their own
 * consumer.
 */
export class WebhookWorker extends JobRunner<typeof hookDeliveries, DeliveryResult> {
  readonly #db: Database;
  readonly #retentionMs: number;

  constructor(options: WebhookWorkerOptions) {
    const { db, log } = options;
    const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    const batchSize = options.batchSize ?? 20;
    const retentionMs = options.retentionMs ?? HOOK_LOG_RETENTION_MS;
    const send = { timeoutMs, outbound: options.outbound ?? allowAllOutbound };
    super(hookDeliveriesDefinition(db, new TenantDbs(db), log, { send, retentionMs, fanOutLimit: batchSize * 5 }), {
      db,
      log,
      intervalMs: options.intervalMs ?? 1000,
      leaseMs: options.leaseMs ?? Math.max(60_000, timeoutMs * 3),
      claimLimit: batchSize,
      backoffMs: options.backoffMs ?? exponentialBackoff(1000),
    });
    this.#db = db;
    this.#retentionMs = retentionMs;
  }

  /** Deletes attempts and finished deliveries past the retention (every process does it hourly; idempotent). */
  purge(): Promise<void> {
    return purge(this.#db, this.#retentionMs);
  }
}

/**
 * Fan-out and purge work on every tenant's rows (owner's rights, docs/areas/security.md); a claimed delivery is sent
 * and recorded as its tenant.
 */
function hookDeliveriesDefinition(
  db: Database,
  tenants: TenantDbs,
  log: Logger | undefined,
  options: { send: { timeoutMs: number; outbound: OutboundPolicy }; retentionMs: number; fanOutLimit: number },
): JobDefinition<typeof hookDeliveries, DeliveryResult> {
  let lastPurge = 0;
  return {
    name: 'webhook worker',
    prepare: async () => {
      if (Date.now() - lastPurge > HOUR_MS) {
        lastPurge = Date.now();
        await purge(db, options.retentionMs);
      }
      return fanOut(db, options.fanOutLimit);
    },
    table: hookDeliveries,
    claimable: allOf(
      eq(hookDeliveries.status, 'pending'),
      lte(hookDeliveries.nextAttemptAt, sql`now()`),
      notLeased(hookDeliveries.lockedUntil),
    ),
    orderBy: asc(hookDeliveries.nextAttemptAt),
    claim: (leaseMs) => ({ lockedUntil: fromNow(leaseMs), attempts: sql`${hookDeliveries.attempts} + 1` }),
    attempt: (delivery) => delivery.attempts,
    maxAttempts: (_delivery, result) => ('hook' in result ? result.hook.config.retries + 1 : 1),
    run: async (delivery) => {
      const tenant = tenants.of(delivery.tenantId);
      const hook = await tenant.findOne(hooks, eq(hooks.id, delivery.hookId));
      // Disabled since the event: nothing is sent.
      if (!hook?.enabled) return { failed: false, cancelled: true };
      const body = deliveryBody(hook.id, delivery.id, delivery.event, delivery.payload);
      // The attempt is in the log before anything is sent: a process killed while the request is in flight leaves
      // it there as interrupted, and the delivery (same id) is sent again once its lease runs out (at least once).
      const attemptId = generateId();
      await tenant.insert(hookLogs, {
        id: attemptId,
        hookId: hook.id,
        deliveryId: delivery.id,
        event: delivery.event,
        attempt: delivery.attempts,
        maxAttempts: hook.config.retries + 1,
        request: signedRequest(hook, body).request,
        responseStatus: null,
        responseBody: null,
        durationMs: 0,
        error: INTERRUPTED_ATTEMPT,
        errorKind: 'interrupted',
      });
      const result = await sendOnce(hook, body, options.send);
      return { ...result, failed: !result.success, hook, attemptId };
    },
    settle: async (delivery, result, retryInMs) => {
      const tenant = tenants.of(delivery.tenantId);
      const key = eq(hookDeliveries.id, delivery.id);
      if (!('hook' in result)) {
        await tenant.update(hookDeliveries, key, { status: 'cancelled', lockedUntil: null });
        return;
      }
      await tenant.transaction(async (tx) => {
        await tx.update(hookLogs, eq(hookLogs.id, result.attemptId), {
          request: result.request,
          responseStatus: result.responseStatus,
          responseBody: result.responseBody,
          durationMs: result.durationMs,
          error: result.error,
          errorKind: result.errorKind,
        });
        // `nextAttemptAt` is database time (`now() + …`), which the data layer's typed update does not take.
        await tx.asTenant((db) =>
          db
            .update(hookDeliveries)
            .set(
              retryInMs === undefined
                ? { status: result.success ? 'succeeded' : 'failed', lockedUntil: null }
                : { lockedUntil: null, nextAttemptAt: fromNow(retryInMs) },
            )
            .where(tx.scope(hookDeliveries, key)),
        );
      });
      if (!result.success) {
        log?.warn(
          { hookId: result.hook.id, event: delivery.event, attempt: delivery.attempts, error: result.error },
          retryInMs === undefined ? 'webhook delivery failed' : 'webhook delivery failed; will retry',
        );
      }
    },
  };
}

async function purge(db: Database, retentionMs: number): Promise<void> {
  const cutoff = sql`now() - ${retentionMs} * interval '1 millisecond'`;
  await db.delete(hookLogs).where(lt(hookLogs.createdAt, cutoff));
  await db
    .delete(hookDeliveries)
    .where(and(not(eq(hookDeliveries.status, 'pending')), lt(hookDeliveries.createdAt, cutoff)));
}

/** Outbox rows → deliveries, in one transaction. Returns how many outbox rows it processed. */
async function fanOut(db: Database, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ tenantId: outbox.tenantId, id: outbox.id, event: outbox.event, payload: outbox.payload })
      .from(outbox)
      .where(and(isNull(outbox.processedAt), notInArray(outbox.event, [...internalOutboxEvents])))
      .orderBy(asc(outbox.id))
      .limit(limit)
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
