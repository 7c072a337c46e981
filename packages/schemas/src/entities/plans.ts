import { z } from 'zod';
import { type QuotaKey, quotaKeys } from './quota-keys.ts';

/**
 * Plans (SKUs), quotas and the rules on them (spec §3 plan and quota fields, §4 plan order, §9 plans and quota
 * check). The server seeds and enforces these; the console draws them. One source of truth for both.
 */

/** Spec §3: plan ids. `Pro` is the legacy paid plan; new subscriptions get `Pro202411`. */
export const planIds = ['Free', 'Pro', 'Pro202411', 'Development', 'Admin'] as const;
export type PlanId = (typeof planIds)[number];

export const skuTypes = ['Basic', 'AddOn'] as const;
export type SkuType = (typeof skuTypes)[number];

/** A quota value: a number (a limit), null or true (unlimited), false or 0 (disabled). */
export const quotaValueSchema = z.union([z.number().int().nonnegative(), z.boolean(), z.null()]);
export type QuotaValue = z.infer<typeof quotaValueSchema>;

export { type QuotaKey, quotaKeys } from './quota-keys.ts';

export const quotaSchema = z.object(
  Object.fromEntries(quotaKeys.map((key) => [key, quotaValueSchema])) as Record<QuotaKey, typeof quotaValueSchema>,
);
export type Quota = Record<QuotaKey, QuotaValue>;

/** Spec §3: a plan (SKU). Prices are in cents. */
export const skuSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(skuTypes),
  unitPrice: z.number().int().nonnegative(),
  quota: quotaSchema,
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Sku = z.infer<typeof skuSchema>;

/** Spec §9: the Free plan's baseline quota. */
export const freePlanQuota: Quota = {
  mauLimit: 50_000,
  tokenLimit: 500_000,
  applicationsLimit: 3,
  machineToMachineLimit: 1,
  thirdPartyApplicationsLimit: 0,
  resourcesLimit: 1,
  scopesPerResourceLimit: 1,
  socialConnectorsLimit: 3,
  userRolesLimit: 1,
  machineToMachineRolesLimit: 1,
  scopesPerRoleLimit: 1,
  hooksLimit: 1,
  auditLogsRetentionDays: 3,
  mfaEnabled: false,
  organizationsLimit: 0,
  enterpriseSsoLimit: 0,
  tenantMembersLimit: 1,
  customJwtEnabled: false,
  subjectTokenEnabled: false,
  bringYourUiEnabled: false,
  idpInitiatedSsoEnabled: false,
  samlApplicationsLimit: 0,
  ticketSupportResponseTime: 0,
};

/**
 * Pro: everything of Free without its caps (usage above the included MAU is billed, not refused), the gated features
 * on, 14 days of audit logs and a 48-hour ticket response (spec §9 'other plan constants': 14 and 48).
 */
export const proPlanQuota: Quota = {
  ...freePlanQuota,
  mauLimit: null,
  tokenLimit: null,
  applicationsLimit: null,
  machineToMachineLimit: null,
  thirdPartyApplicationsLimit: null,
  resourcesLimit: null,
  scopesPerResourceLimit: null,
  socialConnectorsLimit: null,
  userRolesLimit: null,
  machineToMachineRolesLimit: null,
  scopesPerRoleLimit: null,
  hooksLimit: null,
  auditLogsRetentionDays: 14,
  mfaEnabled: true,
  organizationsLimit: null,
  enterpriseSsoLimit: null,
  tenantMembersLimit: null,
  customJwtEnabled: true,
  subjectTokenEnabled: true,
  bringYourUiEnabled: true,
  idpInitiatedSsoEnabled: true,
  samlApplicationsLimit: null,
  ticketSupportResponseTime: 48,
};

/** Spec §9: the Development plan (for development tenants): 100 MAU, 14 days of logs, 20 members, no IdP-initiated SSO. */
export const developmentPlanQuota: Quota = {
  ...proPlanQuota,
  mauLimit: 100,
  auditLogsRetentionDays: 14,
  tenantMembersLimit: 20,
  idpInitiatedSsoEnabled: false,
  ticketSupportResponseTime: 0,
};

/** The admin tenant's plan: no limits. */
export const adminPlanQuota: Quota = {
  ...proPlanQuota,
  auditLogsRetentionDays: null,
};

/** Spec §9: the plans seeded as SKUs, with monthly unit prices in cents (Pro is $16 a month). */
export const basicPlans: ReadonlyArray<{ id: PlanId; unitPrice: number; quota: Quota }> = [
  { id: 'Free', unitPrice: 0, quota: freePlanQuota },
  { id: 'Pro202411', unitPrice: 1600, quota: proPlanQuota },
  { id: 'Pro', unitPrice: 1600, quota: proPlanQuota },
  { id: 'Development', unitPrice: 0, quota: developmentPlanQuota },
  { id: 'Admin', unitPrice: 0, quota: adminPlanQuota },
];

/** Spec §9: the plans a new Production tenant is offered, in order; the default is Pro202411. */
export const offeredPlanIds: readonly PlanId[] = ['Free', 'Pro202411'];
export const DEFAULT_PAID_PLAN_ID: PlanId = 'Pro202411';

/** Spec §9: how many Free tenants one user may own (the exempt tenant does not count). */
export const MAX_FREE_TENANTS = 10;

/** Spec §4 plan order: Free and Development lowest, Pro and Pro202411 next; anything else (enterprise) highest. */
export function planRank(planId: string): number {
  if (planId === 'Free' || planId === 'Development') return 0;
  if (planId === 'Pro' || planId === 'Pro202411') return 1;
  return 2;
}

/** Spec §4: an upgrade moves to a strictly higher rank. */
export function isUpgrade(fromPlanId: string, toPlanId: string): boolean {
  return planRank(toPlanId) > planRank(fromPlanId);
}

/** Spec §4: same tier means equal rank with a different id. */
export function isSameTier(fromPlanId: string, toPlanId: string): boolean {
  return fromPlanId !== toPlanId && planRank(fromPlanId) === planRank(toPlanId);
}

/** Plans whose token usage is billed rather than capped: the token quota modal never opens for them (spec §4). */
export function isPaidModelPlan(planId: string): boolean {
  return planRank(planId) >= 1;
}

/**
 * Spec §9 quota check: null means unlimited, a boolean is used as is, a number is compared with the usage
 * (`usage <= limit`, or `usage < limit` in the strict form used before adding one more).
 */
export function isWithinQuota(limit: QuotaValue, usage: number, strict = false): boolean {
  if (limit === null || limit === true) return true;
  if (limit === false) return false;
  return strict ? usage < limit : usage <= limit;
}

export const subscriptionStatuses = ['active', 'canceled', 'past_due'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Spec §3: a tenant's subscription; the period bounds are ms since the epoch. */
export const subscriptionSchema = z.object({
  status: z.enum(subscriptionStatuses),
  planId: z.string(),
  currentPeriodStart: z.number().int(),
  currentPeriodEnd: z.number().int(),
  isEnterprisePlan: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const invoiceStatuses = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/** Spec §3: an invoice; amounts in cents, times in ms since the epoch. */
export const invoiceSchema = z.object({
  id: z.string(),
  status: z.enum(invoiceStatuses),
  planId: z.string(),
  amountDue: z.number().int().nonnegative(),
  amountPaid: z.number().int().nonnegative(),
  periodStart: z.number().int(),
  periodEnd: z.number().int(),
  createdAt: z.number().int(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** Usage per quota key: a count, or whether a feature is in use. */
export const quotaUsageSchema = z.object(
  Object.fromEntries(quotaKeys.map((key) => [key, z.union([z.number().int().nonnegative(), z.boolean()])])) as Record<
    QuotaKey,
    z.ZodUnion<[z.ZodNumber, z.ZodBoolean]>
  >,
);
export type QuotaUsage = z.infer<typeof quotaUsageSchema>;

/**
 * Spec §3, §7: the subscription usage response. `quota` is the plan's quota with add-ons, `basicQuota` the plan's
 * own; `resources` and `roles` count scopes per resource id and per role id.
 */
export const subscriptionUsageSchema = z.object({
  quota: quotaSchema,
  basicQuota: quotaSchema,
  usage: quotaUsageSchema,
  resources: z.record(z.string(), z.number().int().nonnegative()),
  roles: z.record(z.string(), z.number().int().nonnegative()),
});
export type SubscriptionUsage = z.infer<typeof subscriptionUsageSchema>;

/** The `data` of a `subscription.quota_exceeded` error: the refused quota key with its limit and current usage. */
export const quotaExceededDataSchema = z.object({
  quota: z.record(z.string(), z.object({ limit: quotaValueSchema, usage: z.number().int().nonnegative() })),
});
export type QuotaExceededData = z.infer<typeof quotaExceededDataSchema>;
