import {
  CHECKOUT_SESSION_TTL_MS,
  type CheckoutSession,
  type CheckoutSessionCreate,
  type CheckoutSessionStatus,
  DomainError,
  generateId,
  notFound,
  type Sku,
} from '@gatehouse/schemas';
import { and, eq, lte } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { checkoutSessions } from '../db/tables.ts';
import { availableSkus, readSubscription } from '../services/subscriptions.ts';
import { adminTenant, requireTenantAccess } from '../services/tenants.ts';
import { performWrite, type WriteContext } from '../services/write-path.ts';
import { providerActor } from './payments.ts';
import type { CheckoutSessionRow, PaymentProvider } from './provider.ts';

/** Checkout sessions (spec §3, §4 checkout, §7): opened by a console account, completed through the provider. */

/** A URL is acceptable as a console callback only on the console's own origin (no open redirect via the provider). */
export function isConsoleOrigin(url: string, publicUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(publicUrl).origin;
  } catch {
    return false;
  }
}

export function assertConsoleCallback(url: string, publicUrl: string): void {
  if (!isConsoleOrigin(url, publicUrl)) throw new DomainError('invalid', 'checkout.invalid_callback_url');
}

export const toCheckoutSession = (row: CheckoutSessionRow): CheckoutSession => ({
  id: row.id,
  status: row.status as CheckoutSessionStatus,
  tenantId: row.tenantId,
  skuId: row.skuId,
  createdAt: row.createdAt.getTime(),
});

/** An open session past its expiry reads (and is stored) as expired. */
export const isExpired = (row: CheckoutSessionRow, now = new Date()) => row.status === 'open' && row.expiresAt <= now;

/** Marks an open session expired when its time is over; answers the session as stored afterwards. */
export async function expireIfDue(
  db: Database,
  row: CheckoutSessionRow,
  now = new Date(),
): Promise<CheckoutSessionRow> {
  if (!isExpired(row, now)) return row;
  const [updated] = await db
    .update(checkoutSessions)
    .set({ status: 'expired' })
    .where(
      and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.status, 'open'), lte(checkoutSessions.expiresAt, now)),
    )
    .returning();
  return updated ?? (await findCheckoutSession(db, row.id)) ?? row;
}

export async function findCheckoutSession(db: Database, id: string): Promise<CheckoutSessionRow | undefined> {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  return row;
}

/** The caller's own session (others' and unknown ids are 404 alike), expired on read when due. */
export async function readOwnCheckoutSession(db: Database, id: string, userId: string): Promise<CheckoutSession> {
  const row = await findCheckoutSession(db, id);
  if (!row || row.userId !== userId) throw notFound();
  return toCheckoutSession(await expireIfDue(db, row));
}

const unavailable = () => new DomainError('unprocessable', 'subscription.sku_not_available');

/**
 * Opens a checkout session. Refused: a callback off the console's origin (400), a tenant the caller may not manage
 * (404/403), a plan that is not offered to the tenant, Free (a direct create or a cancellation, never a payment), the
 * plan the tenant already has, or a new tenant that is not a production tenant (422 `subscription.sku_not_available`).
 */
export async function openCheckoutSession(
  db: Database,
  ctx: WriteContext,
  deps: { provider: PaymentProvider; publicUrl: string; canCreateTenant: boolean },
  input: CheckoutSessionCreate,
): Promise<{ redirectUri: string; sessionId: string }> {
  assertConsoleCallback(input.successCallbackUrl, deps.publicUrl);
  const userId = ctx.actor.id;
  let offered: Sku[];
  let currentPlanId: string | undefined;
  if (input.tenantId !== undefined) {
    const { tenant } = await requireTenantAccess(db, input.tenantId, userId, 'manage:tenant');
    offered = await availableSkus(db, tenant, 'Basic');
    currentPlanId = (await readSubscription(db, tenant)).planId;
  } else {
    if (!deps.canCreateTenant) throw new DomainError('forbidden', 'auth.forbidden');
    offered =
      (input.tenantTag ?? 'production') === 'production' ? await availableSkus(db, { tag: 'production' }, 'Basic') : [];
  }
  // `availableSkus` is the offer (spec §9 offeredPlanIds); of it, only paid plans other than the current one.
  const sku = offered.find((candidate) => candidate.id === input.skuId);
  if (!sku || sku.id === 'Free' || sku.unitPrice === 0 || sku.id === currentPlanId) throw unavailable();

  const now = new Date();
  const row = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    return performWrite(
      { ...ctx, tenant: adminTenant(tx) },
      { key: 'Admin.CheckoutSession.Created', schema: z.object({ skuId: z.string() }), input: { skuId: sku.id } },
      async () => {
        const [inserted] = await tx
          .insert(checkoutSessions)
          .values({
            id: generateId(),
            userId,
            tenantId: input.tenantId ?? null,
            skuId: sku.id,
            status: 'open',
            successCallbackUrl: input.successCallbackUrl,
            tenantName: input.tenantId === undefined ? (input.tenantName ?? null) : null,
            tenantTag: input.tenantId === undefined ? 'production' : null,
            tenantRegion: input.tenantId === undefined ? (input.tenantRegionName ?? null) : null,
            amount: sku.unitPrice,
            provider: deps.provider.id,
            createdAt: now,
            expiresAt: new Date(now.getTime() + CHECKOUT_SESSION_TTL_MS),
          })
          .returning();
        if (!inserted) throw new Error('insert returned no row');
        const image = { ...toCheckoutSession(inserted), amount: inserted.amount, provider: inserted.provider };
        return { result: inserted, entity: { type: 'CheckoutSession', id: inserted.id }, before: null, after: image };
      },
    );
  });
  try {
    const { redirectUri, providerSessionId } = await deps.provider.createCheckout(row, sku);
    await db.update(checkoutSessions).set({ providerSessionId }).where(eq(checkoutSessions.id, row.id));
    return { redirectUri, sessionId: row.id };
  } catch (error) {
    // The provider could not open its page: the session can never be paid.
    await db.update(checkoutSessions).set({ status: 'canceled' }).where(eq(checkoutSessions.id, row.id));
    throw error;
  }
}

/**
 * The person cancelled on the provider's page: an open session becomes canceled, audited with the provider as actor
 * (the page's visitor holds the session id, not an account). False when it was not open.
 */
export async function cancelCheckoutSession(
  db: Database,
  id: string,
  options: { providerId: string; requestId?: string | undefined },
): Promise<boolean> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx
      .update(checkoutSessions)
      .set({ status: 'canceled' })
      .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')))
      .returning();
    if (!row) return false;
    return performWrite(
      { actor: providerActor(options.providerId), requestId: options.requestId, tenant: adminTenant(tx) },
      'Admin.CheckoutSession.Updated',
      async () => ({
        result: true,
        entity: { type: 'CheckoutSession', id },
        before: { ...toCheckoutSession(row), status: 'open' },
        after: toCheckoutSession(row),
      }),
    );
  });
}
