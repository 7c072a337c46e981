import {
  ADMIN_TENANT_ID,
  type Invoice,
  type InvoiceStatus,
  offeredPlanIds,
  type PlanId,
  planRank,
  type QuotaUsage,
  quotaKeys,
  type Sku,
  type SkuType,
  type Subscription,
  type SubscriptionStatus,
  type SubscriptionUsage,
  skuSchema,
  type Tenant,
} from '@gatehouse/schemas';
import { and, count, countDistinct, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import {
  dailyActiveUsers,
  invoices,
  rolesScopes,
  scopes,
  skus,
  tenantSubscriptions,
  tokenUsage,
} from '../db/tables.ts';
import { TenantDb, type TenantDbs } from '../db/tenant-db.ts';
import { type CountedQuotaKey, countTenantMembers, countUsage, implicitPlanId, planQuota } from './quota.ts';

/**
 * Subscriptions (spec §3, §9). A tenant's subscription is its `tenant_subscriptions` row; a tenant without one
 * (created before billing, or the built-in ones) is on its implicit plan, active, for the calendar month in UTC.
 * A stored period that is over (no payment provider renewed it) also reads as the current calendar month, so
 * Free and Development tenants roll over monthly without a job.
 */

/** The calendar month in UTC that contains `at`. */
export function calendarMonth(at: Date = new Date()): { start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

export type TenantSubscriptionRow = typeof tenantSubscriptions.$inferSelect;

/** Writes a new tenant's subscription row (inside the tenant-creation transaction). */
export async function insertSubscription(db: Database, tenantId: string, tag: string): Promise<void> {
  const { start, end } = calendarMonth();
  await db.insert(tenantSubscriptions).values({
    tenantId,
    planId: implicitPlanId(tenantId, tag),
    status: 'active',
    currentPeriodStart: start,
    currentPeriodEnd: end,
  });
}

/** A subscription row read as the subscription in effect at `now` (spec §3). */
function effectiveSubscription(
  row: TenantSubscriptionRow | undefined,
  tenant: { id: string; tag: string },
  now: Date,
): Subscription {
  const inPeriod = row && row.currentPeriodStart <= now && now < row.currentPeriodEnd;
  const period = inPeriod ? { start: row.currentPeriodStart, end: row.currentPeriodEnd } : calendarMonth(now);
  const planId = row?.planId ?? implicitPlanId(tenant.id, tenant.tag);
  return {
    status: (row?.status as SubscriptionStatus | undefined) ?? 'active',
    planId,
    currentPeriodStart: period.start.getTime(),
    currentPeriodEnd: period.end.getTime(),
    // Anything ranked above the Pro plans is an enterprise plan (spec §4 plan order).
    isEnterprisePlan: planRank(planId) >= 2 && planId !== 'Admin',
  };
}

/** The tenant's effective subscription now. */
export async function readSubscription(
  db: Database,
  tenant: { id: string; tag: string },
  now: Date = new Date(),
): Promise<Subscription> {
  const [row] = await db.select().from(tenantSubscriptions).where(eq(tenantSubscriptions.tenantId, tenant.id));
  return effectiveSubscription(row, tenant, now);
}

export const toInvoice = (row: typeof invoices.$inferSelect): Invoice => ({
  id: row.id,
  status: row.status as InvoiceStatus,
  planId: row.planId,
  amountDue: row.amountDue,
  amountPaid: row.amountPaid,
  periodStart: row.periodStart.getTime(),
  periodEnd: row.periodEnd.getTime(),
  createdAt: row.createdAt.getTime(),
});

/** What the tenant list shows of a tenant's billing (spec §3 tenant): plan, subscription, MAU and tokens, open invoices. */
export type TenantBilling = Pick<Tenant, 'planId' | 'subscription' | 'usage' | 'quota' | 'openInvoices'>;

/**
 * Billing of tenants by id, for the tenant list: four statements whatever the number of tenants (subscriptions,
 * open invoices, token counts, and distinct active users of each tenant within its own period).
 */
export async function billingOf(
  db: Database,
  tenantRows: ReadonlyArray<{ id: string; tag: string }>,
  now: Date = new Date(),
): Promise<Map<string, TenantBilling>> {
  const ids = tenantRows.map((row) => row.id);
  if (!ids.length) return new Map();
  const [subscriptionRows, openInvoiceRows, tokenRows] = await Promise.all([
    db.select().from(tenantSubscriptions).where(inArray(tenantSubscriptions.tenantId, ids)),
    db
      .select()
      .from(invoices)
      .where(and(inArray(invoices.tenantId, ids), eq(invoices.status, 'open')))
      .orderBy(desc(invoices.createdAt)),
    db.select().from(tokenUsage).where(inArray(tokenUsage.tenantId, ids)),
  ]);
  const stored = new Map(subscriptionRows.map((row) => [row.tenantId, row]));
  const subscriptions = new Map(
    tenantRows.map((row) => [row.id, effectiveSubscription(stored.get(row.id), row, now)] as const),
  );
  const periods = tenantRows.map((row) => {
    const subscription = subscriptions.get(row.id) as Subscription;
    return sql`(${row.id}, ${periodKey(subscription.currentPeriodStart)}, ${periodKey(subscription.currentPeriodEnd)})`;
  });
  const activeRows = await db
    .select({ tenantId: dailyActiveUsers.tenantId, value: countDistinct(dailyActiveUsers.userId) })
    .from(dailyActiveUsers)
    .innerJoin(
      sql`(values ${sql.join(periods, sql`, `)}) as period(tenant_id, first_day, end_day)`,
      sql`period.tenant_id = ${dailyActiveUsers.tenantId} and ${dailyActiveUsers.day} >= period.first_day and ${dailyActiveUsers.day} < period.end_day`,
    )
    .groupBy(dailyActiveUsers.tenantId);
  const active = new Map(activeRows.map((row) => [row.tenantId, Number(row.value)]));
  return new Map(
    tenantRows.map((row) => {
      const subscription = subscriptions.get(row.id) as Subscription;
      const quota = planQuota(subscription.planId);
      const tokens = tokenRows.find(
        (usage) => usage.tenantId === row.id && usage.period === periodKey(subscription.currentPeriodStart),
      );
      const billing: TenantBilling = {
        planId: subscription.planId,
        subscription,
        usage: { activeUsers: active.get(row.id) ?? 0, tokenUsage: tokens?.count ?? 0 },
        quota: { mauLimit: quota.mauLimit, tokenLimit: quota.tokenLimit },
        openInvoices: openInvoiceRows.filter((invoice) => invoice.tenantId === row.id).map(toInvoice),
      };
      return [row.id, billing] as const;
    }),
  );
}

/** The `token_usage` period key of a period start: its UTC date. */
export const periodKey = (start: Date | number) => new Date(start).toISOString().slice(0, 10);

/**
 * Counts `issued` access tokens for the tenant in its current period: one upsert, whose period key is the stored
 * subscription's start while inside it, else the UTC month start (as {@link readSubscription}).
 */
export async function countTokenIssued(tenant: TenantDb, issued = 1): Promise<void> {
  const { tenantId } = tenant;
  const monthStart = periodKey(calendarMonth().start);
  await tenant.asTenant((db) =>
    db
      .insert(tokenUsage)
      .values({
        tenantId,
        period: sql`coalesce((select to_char(${tenantSubscriptions.currentPeriodStart} at time zone 'UTC', 'YYYY-MM-DD') from ${tenantSubscriptions} where ${tenantSubscriptions.tenantId} = ${tenantId} and ${tenantSubscriptions.currentPeriodStart} <= now() and now() < ${tenantSubscriptions.currentPeriodEnd}), ${monthStart})`,
        count: issued,
      })
      .onConflictDoUpdate({
        target: [tokenUsage.tenantId, tokenUsage.period],
        set: { count: sql`${tokenUsage.count} + ${issued}` },
      }),
  );
}

/** How long issued tokens are counted in memory before they are written. */
export const TOKEN_USAGE_FLUSH_MS = 250;

/**
 * Issued tokens counted in memory and written every {@link TOKEN_USAGE_FLUSH_MS}, one upsert per tenant. One upsert
 * per token made every grant of a tenant wait on the same row lock, holding a connection of the tenant pool while it
 * waited (the token bench on PostgreSQL: 8 statements a token, this one contended). A process that dies loses at most
 * the last quarter second of counts: usage is a statistic of the flow, never part of it.
 */
export class TokenUsageCounter {
  readonly #tenants: TenantDbs;
  readonly #log: Pick<Logger, 'warn'> | undefined;
  readonly #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(tenants: TenantDbs, log?: Pick<Logger, 'warn'> | undefined) {
    this.#tenants = tenants;
    this.#log = log;
  }

  count(tenantId: string): void {
    this.#pending.set(tenantId, (this.#pending.get(tenantId) ?? 0) + 1);
    if (this.#timer) return;
    this.#timer = setTimeout(() => void this.flush(), TOKEN_USAGE_FLUSH_MS);
    this.#timer.unref();
  }

  /** Writes what was counted so far. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const counted = [...this.#pending];
    this.#pending.clear();
    await Promise.all(
      counted.map(([tenantId, issued]) =>
        countTokenIssued(this.#tenants.of(tenantId), issued).catch((error: unknown) =>
          this.#log?.warn({ err: error, tenantId, issued }, 'could not count the issued tokens'),
        ),
      ),
    );
  }
}

/**
 * Every successful grant at a tenant's token endpoint issues one access token: count it. Billing is a statistic
 * of the flow, never part of it: a failure is logged and swallowed.
 */
export function countTokensOnGrants(provider: Provider, tenantId: string, counter: TokenUsageCounter): void {
  provider.on('grant.success', () => counter.count(tenantId));
}

const toSku = (row: typeof skus.$inferSelect): Sku =>
  skuSchema.parse({
    id: row.id,
    name: row.name,
    type: row.type,
    unitPrice: row.unitPrice,
    quota: row.quota,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  });

/** SKUs of a type (all when not given), in plan order then id. */
export async function listSkus(db: Database, type?: SkuType, ids?: readonly string[]): Promise<Sku[]> {
  const conditions: SQL[] = [];
  if (type) conditions.push(eq(skus.type, type));
  if (ids) conditions.push(inArray(skus.id, [...ids]));
  const rows = await db
    .select()
    .from(skus)
    .where(conditions.length ? and(...conditions) : undefined);
  return rows.map(toSku).sort((a, b) => planRank(a.id) - planRank(b.id) || a.id.localeCompare(b.id));
}

/** Spec §9: a production tenant is offered Free and Pro202411, in that order; a development tenant nothing. */
export async function availableSkus(db: Database, tenant: { tag: string }, type?: SkuType): Promise<Sku[]> {
  if (tenant.tag === 'development') return [];
  const offered = await listSkus(db, type, offeredPlanIds);
  return offeredPlanIds.flatMap((id) => offered.filter((sku) => sku.id === id));
}

const countedKeys: readonly CountedQuotaKey[] = [
  'applicationsLimit',
  'machineToMachineLimit',
  'thirdPartyApplicationsLimit',
  'samlApplicationsLimit',
  'resourcesLimit',
  'userRolesLimit',
  'machineToMachineRolesLimit',
  'hooksLimit',
  'organizationsLimit',
  'enterpriseSsoLimit',
];

/**
 * Spec §3, §7: the tenant's quota and usage. Usage is counted from the data; per-parent limits
 * (scopes per resource, per role) report their largest count, with the per-parent counts in `resources` and
 * `roles`. Feature flags (MFA, custom JWT, …) read false: none of those features is measurable here yet.
 */
export async function subscriptionUsage(db: Database, tenant: { id: string; tag: string }): Promise<SubscriptionUsage> {
  const tenantDb = new TenantDb(db, tenant.id);
  const admin = new TenantDb(db, ADMIN_TENANT_ID);
  const subscription = await readSubscription(db, tenant);
  const basicQuota = planQuota(subscription.planId as PlanId);
  const usage = Object.fromEntries(
    quotaKeys.map((key) => [key, typeof basicQuota[key] === 'boolean' ? false : 0]),
  ) as QuotaUsage;
  const counts = await Promise.all(countedKeys.map((key) => countUsage(tenantDb, key)));
  countedKeys.forEach((key, index) => {
    usage[key] = counts[index] ?? 0;
  });
  const [perResource, perRole, members, mau, tokens] = await Promise.all([
    tenantDb.aggregate({ id: scopes.resourceId, value: count() }, scopes, undefined, [scopes.resourceId]),
    tenantDb.aggregate({ id: rolesScopes.roleId, value: count() }, rolesScopes, undefined, [rolesScopes.roleId]),
    countTenantMembers(admin, tenant.id),
    tenantDb.aggregate(
      { value: countDistinct(dailyActiveUsers.userId) },
      dailyActiveUsers,
      and(
        gte(dailyActiveUsers.day, periodKey(subscription.currentPeriodStart)),
        lt(dailyActiveUsers.day, periodKey(subscription.currentPeriodEnd)),
      ),
    ),
    tenantDb.findOne(tokenUsage, eq(tokenUsage.period, periodKey(subscription.currentPeriodStart))),
  ]);
  const resources = Object.fromEntries(perResource.map((row) => [String(row.id), Number(row.value)]));
  const roles = Object.fromEntries(perRole.map((row) => [String(row.id), Number(row.value)]));
  usage.scopesPerResourceLimit = Math.max(0, ...Object.values(resources));
  usage.scopesPerRoleLimit = Math.max(0, ...Object.values(roles));
  usage.tenantMembersLimit = members;
  usage.mauLimit = Number(mau[0]?.value ?? 0);
  usage.tokenLimit = tokens?.count ?? 0;
  return { quota: basicQuota, basicQuota, usage, resources, roles };
}
