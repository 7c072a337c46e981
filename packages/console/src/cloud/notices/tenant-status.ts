import { isPaidModelPlan, type QuotaValue, type Tenant } from '@gatehouse/schemas';
import { formatMoney } from '../billing-format.ts';

/**
 * Spec §4 tenant status tag and the quota and overdue modals: pure rules on one tenant of the tenant list (its
 * usage, quota, plan and open invoices), shared by the switcher's tags and the shell's modals.
 */

export type TenantStatusTag = 'suspended' | 'overdue' | 'mau_exceeded' | 'token_exceeded' | 'none';
export type TenantStatusInput = Pick<Tenant, 'isSuspended' | 'openInvoices' | 'usage' | 'quota' | 'planId'>;

/** Usage at or above a numeric limit; null and true are unlimited, false/0 a disabled feature (reached at once). */
function reaches(usage: number, limit: QuotaValue): boolean {
  if (limit === null || limit === true) return false;
  if (limit === false) return true;
  return usage >= limit;
}

/** Spec §4: MAU exceeded when active users reach a limit that is not null. */
export function isMauExceeded(tenant: Pick<Tenant, 'usage' | 'quota'>): boolean {
  return reaches(tenant.usage.activeUsers, tenant.quota.mauLimit);
}

/** Spec §4: token exceeded when token usage reaches a limit that is not null, unless the plan bills tokens. */
export function isTokenExceeded(tenant: Pick<Tenant, 'usage' | 'quota' | 'planId'>): boolean {
  return !isPaidModelPlan(tenant.planId) && reaches(tenant.usage.tokenUsage, tenant.quota.tokenLimit);
}

/** Spec §4: the first match of suspended, overdue (open invoices), MAU exceeded, token exceeded; else none. */
export function tenantStatusTag(tenant: TenantStatusInput): TenantStatusTag {
  if (tenant.isSuspended) return 'suspended';
  if (tenant.openInvoices.length > 0) return 'overdue';
  if (isMauExceeded(tenant)) return 'mau_exceeded';
  if (isTokenExceeded(tenant)) return 'token_exceeded';
  return 'none';
}

export type TenantNoticeKind = 'overdue' | 'mau_exceeded' | 'token_exceeded';

/**
 * Spec §4 quota and overdue modals: cloud only, non-development tenants only; a suspended tenant has its own page
 * instead. When several apply, the tag's order picks the one shown (overdue first: paying unblocks the rest).
 */
export function tenantNoticeModal(
  tenant: (TenantStatusInput & Pick<Tenant, 'tag'>) | undefined,
  edition: 'oss' | 'cloud',
): TenantNoticeKind | undefined {
  if (edition !== 'cloud' || !tenant || tenant.tag === 'development') return undefined;
  const status = tenantStatusTag(tenant);
  return status === 'none' || status === 'suspended' ? undefined : status;
}

/** Spec §9: money is in cents; the amount due of all open invoices, in dollars with two decimals. */
export function amountDueInDollars(tenant: Pick<Tenant, 'openInvoices'>, locale: string): string {
  return formatMoney(
    tenant.openInvoices.reduce((sum, invoice) => sum + invoice.amountDue, 0),
    locale,
  );
}

/**
 * Once per page view (spec §4): which tenant's notice has been shown since the page loaded. Kept in the module, not
 * in React state, so remounting the shell (a route change, a language switch) does not show it again; a reload does.
 */
const shownNotices = new Set<string>();
export function claimNotice(tenantId: string, kind: TenantNoticeKind): boolean {
  const key = `${tenantId}:${kind}`;
  if (shownNotices.has(key)) return false;
  shownNotices.add(key);
  return true;
}
/** Tests only: a fresh page view. */
export function resetShownNotices(): void {
  shownNotices.clear();
}
