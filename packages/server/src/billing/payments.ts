import {
  type Actor,
  ADMIN_TENANT_ID,
  DomainError,
  type DowngradeBlockedData,
  generateId,
  type Invoice,
  isWithinQuota,
  MAX_FREE_TENANTS,
  type Quota,
  type QuotaKey,
  type QuotaUsage,
  quotaKeys,
  type TenantCreate,
  tenantIdOfOrganization,
} from '@gatehouse/schemas';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { tenantRoleId } from '../db/seed.ts';
import { checkoutSessions, invoices, organizationUserRoles, skus, tenantSubscriptions, tenants } from '../db/tables.ts';
import { planQuota } from '../services/quota.ts';
import { calendarMonth, readSubscription, subscriptionUsage, toInvoice } from '../services/subscriptions.ts';
import { adminTenant, createTenant, findTenantRow, type TenantAccess } from '../services/tenants.ts';
import { performWrite, type WriteContext } from '../services/write-path.ts';
import type { PaymentEvent, PaymentProvider } from './provider.ts';

/**
 * What payments change (issue 9): the one place payment events are applied, the cancellation back to Free with
 * its fit check, invoices, and the Free-tenant allowance of spec §5. Every change is audited in the admin tenant.
 */

/** Who applies a provider's event in the audit log: the provider, not a person. */
export const providerActor = (providerId: string): Actor => ({ type: 'system', id: `payment:${providerId}` });

type Ctx = Omit<WriteContext, 'tenant'>;
type SubscriptionRow = typeof tenantSubscriptions.$inferSelect;

/** One paid period: from `start` to the same day of the next month (UTC). */
export function paidPeriod(start: Date): { start: Date; end: Date } {
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + 1);
  // 31 January + 1 month rolls into March; clamp to the last day of the next month instead.
  if (end.getUTCDate() !== start.getUTCDate()) end.setUTCDate(0);
  return { start, end };
}

const subscriptionImage = (
  row: Pick<SubscriptionRow, 'planId' | 'status' | 'currentPeriodStart' | 'currentPeriodEnd'>,
) => ({
  planId: row.planId,
  status: row.status,
  currentPeriodStart: row.currentPeriodStart.toISOString(),
  currentPeriodEnd: row.currentPeriodEnd.toISOString(),
});

async function subscriptionRow(db: Database, tenantId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(tenantSubscriptions).where(eq(tenantSubscriptions.tenantId, tenantId));
  return row;
}

/** Writes the tenant's subscription row (insert or update), audited as `Admin.Subscription.Updated`. */
async function writeSubscription(
  db: Database,
  ctx: Ctx,
  tenantId: string,
  next: Pick<SubscriptionRow, 'planId' | 'status' | 'currentPeriodStart' | 'currentPeriodEnd'>,
  reason: string,
): Promise<void> {
  const before = await subscriptionRow(db, tenantId);
  await performWrite(
    { ...ctx, tenant: adminTenant(db) },
    { key: 'Admin.Subscription.Updated', schema: z.object({ reason: z.string() }), input: { reason } },
    async () => {
      const values = { ...next, updatedAt: new Date() };
      await db
        .insert(tenantSubscriptions)
        .values({ tenantId, ...values })
        .onConflictDoUpdate({ target: tenantSubscriptions.tenantId, set: values });
      return {
        result: undefined,
        entity: { type: 'Subscription', id: tenantId },
        before: before ? subscriptionImage(before) : null,
        after: { ...subscriptionImage(next), reason },
      };
    },
  );
}

const invoiceImage = (row: typeof invoices.$inferSelect) => {
  const invoice = toInvoice(row);
  return { ...invoice, tenantId: row.tenantId };
};

/** Inserts an invoice, audited as `Admin.Invoice.Created`. */
async function insertInvoice(db: Database, ctx: Ctx, values: typeof invoices.$inferInsert): Promise<void> {
  await performWrite({ ...ctx, tenant: adminTenant(db) }, 'Admin.Invoice.Created', async () => {
    const [row] = await db.insert(invoices).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return { result: undefined, entity: { type: 'Invoice', id: row.id }, before: null, after: invoiceImage(row) };
  });
}

/** Sets an invoice's status (and what was paid), audited as `Admin.Invoice.Updated`. */
async function updateInvoice(
  db: Database,
  ctx: Ctx,
  row: typeof invoices.$inferSelect,
  set: Partial<Pick<typeof invoices.$inferSelect, 'status' | 'amountPaid'>>,
): Promise<void> {
  await performWrite({ ...ctx, tenant: adminTenant(db) }, 'Admin.Invoice.Updated', async () => {
    const [after] = await db
      .update(invoices)
      .set(set)
      .where(and(eq(invoices.tenantId, row.tenantId), eq(invoices.id, row.id)))
      .returning();
    if (!after) throw new Error('update returned no row');
    return {
      result: undefined,
      entity: { type: 'Invoice', id: row.id },
      before: invoiceImage(row),
      after: invoiceImage(after),
    };
  });
}

export type ApplyResult = { applied: boolean; tenantId?: string };

/**
 * Applies one verified payment event, in one transaction, idempotently: the checkout session is locked and only an
 * open one completes, so a replayed event (a second webhook delivery, a second form POST) changes nothing.
 * - `checkout.completed`: creates the tenant of a new-tenant session (its creator as admin) or takes the existing
 *   tenant's subscription row to the plan, active, for a month from now; inserts a paid invoice of the SKU's unit
 *   price; marks the session complete. An existing tenant deleted meanwhile cancels the session instead.
 * - `invoice.created`: an open invoice (a renewal); a second delivery of the same invoice id changes nothing.
 * - `invoice.paid`: the invoice is paid and the subscription active again; a paid renewal whose period has begun
 *   moves the subscription's period to the invoice's.
 * - `invoice.payment_failed`: the invoice stays open and the subscription is past due.
 */
export async function applyPaymentEvent(
  db: Database,
  providerId: string,
  event: PaymentEvent,
  options: { requestId?: string | undefined; now?: Date } = {},
): Promise<ApplyResult> {
  const ctx: Ctx = { actor: providerActor(providerId), requestId: options.requestId };
  const now = options.now ?? new Date();
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    switch (event.type) {
      case 'checkout.completed':
        return completeCheckout(tx, ctx, event.sessionId, now);
      case 'invoice.created': {
        if (!(await findTenantRow(tx, event.tenantId))) return { applied: false };
        const [existing] = await tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(eq(invoices.tenantId, event.tenantId), eq(invoices.id, event.invoiceId)));
        if (existing) return { applied: false };
        await insertInvoice(tx, ctx, {
          tenantId: event.tenantId,
          id: event.invoiceId,
          status: 'open',
          planId: event.planId,
          amountDue: event.amountDue,
          amountPaid: 0,
          periodStart: event.periodStart,
          periodEnd: event.periodEnd,
          createdAt: now,
        });
        return { applied: true, tenantId: event.tenantId };
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const [invoice] = await tx
          .select()
          .from(invoices)
          .where(and(eq(invoices.tenantId, event.tenantId), eq(invoices.id, event.invoiceId)))
          .for('update');
        // An unknown invoice, or a failure reported after it was paid (events can arrive out of order): ignored.
        if (!invoice || invoice.status === 'paid') return { applied: false };
        const paid = event.type === 'invoice.paid';
        const status = paid ? 'paid' : 'open';
        if (invoice.status !== status)
          await updateInvoice(tx, ctx, invoice, paid ? { status, amountPaid: invoice.amountDue } : { status });
        const subscription = await subscriptionRow(tx, event.tenantId);
        const subscriptionStatus = paid ? 'active' : 'past_due';
        // A paid renewal whose period has begun: the subscription moves on to it (paid ahead, it waits for its start).
        const renews =
          paid &&
          subscription !== undefined &&
          invoice.periodStart <= now &&
          invoice.periodEnd > subscription.currentPeriodEnd;
        if (subscription && (subscription.status !== subscriptionStatus || renews))
          await writeSubscription(
            tx,
            ctx,
            event.tenantId,
            {
              ...subscription,
              status: subscriptionStatus,
              ...(renews ? { currentPeriodStart: invoice.periodStart, currentPeriodEnd: invoice.periodEnd } : {}),
            },
            event.type,
          );
        return {
          applied: invoice.status !== status || subscription?.status !== subscriptionStatus || renews,
          tenantId: event.tenantId,
        };
      }
    }
  });
}

async function completeCheckout(tx: Database, ctx: Ctx, sessionId: string, now: Date): Promise<ApplyResult> {
  const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).for('update');
  if (session?.status !== 'open') return { applied: false };
  if (session.expiresAt <= now) {
    // Past its time the session cannot be paid (the provider's own session has expired too): nothing is charged.
    await tx.update(checkoutSessions).set({ status: 'expired' }).where(eq(checkoutSessions.id, session.id));
    return { applied: false };
  }
  const [sku] = await tx.select().from(skus).where(eq(skus.id, session.skuId));
  let tenantId = session.tenantId;
  if (session.tenantName !== null) {
    const input: TenantCreate = {
      name: session.tenantName,
      tag: (session.tenantTag ?? 'production') as TenantCreate['tag'],
      regionName: (session.tenantRegion ?? undefined) as TenantCreate['regionName'],
    };
    tenantId = (await createTenant(tx, ctx, session.userId, input)).id;
  } else if (!tenantId || !(await findTenantRow(tx, tenantId))) {
    // The tenant was deleted while its checkout was open: nothing to pay for.
    await tx.update(checkoutSessions).set({ status: 'canceled' }).where(eq(checkoutSessions.id, session.id));
    return { applied: false };
  }
  if (!sku || !tenantId) throw new Error('checkout session without SKU or tenant');
  const period = paidPeriod(now);
  await writeSubscription(
    tx,
    ctx,
    tenantId,
    { planId: sku.id, status: 'active', currentPeriodStart: period.start, currentPeriodEnd: period.end },
    `checkout ${session.id}`,
  );
  await insertInvoice(tx, ctx, {
    tenantId,
    id: generateId(),
    status: 'paid',
    planId: sku.id,
    amountDue: session.amount,
    amountPaid: session.amount,
    periodStart: period.start,
    periodEnd: period.end,
    createdAt: now,
  });
  await tx
    .update(checkoutSessions)
    .set({ status: 'complete', tenantId, completedAt: now })
    .where(eq(checkoutSessions.id, session.id));
  return { applied: true, tenantId };
}

/**
 * Counted usage against a target plan's quota: each quota the usage does not fit, with the plan's limit and the
 * usage. MAU and tokens are left out: they are metered per period (a new period starts on the plan), not data the
 * tenant has to remove first. Feature flags block only when the feature is in use.
 */
export function downgradeBlockers(target: Quota, usage: QuotaUsage): DowngradeBlockedData['quota'] {
  const blocked: DowngradeBlockedData['quota'] = {};
  for (const key of quotaKeys) {
    if (key === 'mauLimit' || key === 'tokenLimit') continue;
    const used = usage[key];
    const limit = target[key];
    const count = typeof used === 'boolean' ? Number(used) : used;
    if (count > 0 && !isWithinQuota(limit, count)) blocked[key as QuotaKey] = { limit, usage: count };
  }
  return blocked;
}

/** Serialises quota-checked writes of one tenant (the same lock as services/quota.ts) to the end of the transaction. */
const lockTenantQuota = (tx: Database, tenantId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`quota:${tenantId}`}))`);

/**
 * Spec §4 cancelling: a paid tenant goes back to Free at once, when its usage fits Free's quota (else 422
 * `subscription.downgrade_blocked` naming every blocking quota). The tenant's quota lock is held from the count to
 * the commit, so a create racing the cancellation is checked against Free. The provider stops billing first: if it
 * fails, nothing changed here.
 */
export async function cancelToFree(
  db: Database,
  ctx: Ctx,
  provider: PaymentProvider,
  access: TenantAccess,
): Promise<void> {
  const tenant = access.tenant;
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await lockTenantQuota(tx, tenant.id);
    const subscription = await readSubscription(tx, tenant);
    if (subscription.planId === 'Free' || subscription.planId === 'Development' || subscription.planId === 'Admin')
      throw new DomainError('unprocessable', 'subscription.not_cancelable');
    const { usage } = await subscriptionUsage(tx, tenant);
    const quota = downgradeBlockers(planQuota('Free'), usage);
    if (Object.keys(quota).length) {
      const data: DowngradeBlockedData = { planId: 'Free', quota };
      throw new DomainError('unprocessable', 'subscription.downgrade_blocked', data);
    }
    await provider.cancelSubscription(tenant);
    const { start, end } = calendarMonth();
    await writeSubscription(
      tx,
      ctx,
      tenant.id,
      { planId: 'Free', status: 'active', currentPeriodStart: start, currentPeriodEnd: end },
      'canceled',
    );
  });
}

/** The tenant's invoices, newest first. */
export async function listInvoices(db: Database, tenantId: string): Promise<Invoice[]> {
  const rows = await db
    .select()
    .from(invoices)
    .where(eq(invoices.tenantId, tenantId))
    .orderBy(desc(invoices.createdAt), desc(invoices.id));
  return rows.map(toInvoice);
}

/**
 * Spec §5, §9 Free plan: a user may be admin of at most {@link MAX_FREE_TENANTS} Free production tenants besides
 * the exempt one, their oldest tenant (the one onboarding created). Call inside the tenant-creation transaction: the
 * per-user advisory lock makes two concurrent creates at the limit count one after the other.
 */
export async function assertFreeTenantAllowance(tx: Database, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`free-tenants:${userId}`}))`);
  const held = await adminTenant(tx).findMany(organizationUserRoles, {
    where: and(
      eq(organizationUserRoles.userId, userId),
      eq(organizationUserRoles.organizationRoleId, tenantRoleId('admin')),
    ),
  });
  const ids = held.flatMap((row) => tenantIdOfOrganization(row.organizationId) ?? []);
  if (!ids.length) return;
  const rows = await tx
    .select({ id: tenants.id, tag: tenants.tag, planId: tenantSubscriptions.planId })
    .from(tenants)
    .leftJoin(tenantSubscriptions, eq(tenantSubscriptions.tenantId, tenants.id))
    .where(inArray(tenants.id, ids))
    .orderBy(tenants.createdAt, tenants.id);
  const counted = rows
    .slice(1)
    .filter((row) => row.id !== ADMIN_TENANT_ID && row.tag === 'production' && (row.planId ?? 'Free') === 'Free');
  if (counted.length >= MAX_FREE_TENANTS) throw new DomainError('unprocessable', 'subscription.free_tenant_limit');
}
