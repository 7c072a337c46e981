import { MAX_FREE_TENANTS, offeredPlanIds, type Sku, type Tenant } from '@gatehouse/schemas';

/** Spec §9: the Basic SKUs a new Production tenant is offered (Free, then Pro202411), in that order. */
export function offeredPlans(skus: readonly Sku[]): Sku[] {
  return offeredPlanIds.flatMap((id) => skus.filter((sku) => sku.id === id));
}

/**
 * Spec §5 Free plan: the Free production tenants the user is admin of count towards MAX_FREE_TENANTS, except the
 * exempt one, their oldest admin tenant (the one onboarding created). The same rule as the server's
 * `assertFreeTenantAllowance`; a tenant they were invited to as a collaborator is someone else's.
 */
export function ownedFreeTenantCount(tenants: readonly Tenant[]): number {
  const owned = tenants
    .filter((tenant) => tenant.role === 'admin')
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return owned.slice(1).filter((tenant) => tenant.tag === 'production' && tenant.planId === 'Free').length;
}

export function isFreeTenantLimitReached(tenants: readonly Tenant[]): boolean {
  return ownedFreeTenantCount(tenants) >= MAX_FREE_TENANTS;
}
