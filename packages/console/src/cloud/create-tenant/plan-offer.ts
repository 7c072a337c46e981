import { MAX_FREE_TENANTS, offeredPlanIds, type Quota, type Sku, type Tenant } from '@gatehouse/schemas';

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

export type PlanFeature =
  | { key: 'mau' | 'applications' | 'm2m' | 'roles' | 'permissions' | 'audit_logs'; limit: number | 'unlimited' }
  | { key: 'mfa' | 'enterprise_sso' | 'organizations' };

/** A numeric quota as the card shows it: null or true is unlimited; a disabled feature (false) counts as none. */
function limitOf(value: Quota[keyof Quota]): number | 'unlimited' {
  if (value === null || value === true) return 'unlimited';
  return value === false ? 0 : value;
}

function isOn(value: Quota[keyof Quota]): boolean {
  return value !== false && value !== 0;
}

/**
 * Spec §9 Free upsell: the card's feature list, read from the plan's own quota so it can never promise what the server
 * does not enforce: the named limits, then the gated features the plan includes (MFA, enterprise SSO, organizations).
 */
export function planFeatures(quota: Quota): PlanFeature[] {
  const features: PlanFeature[] = [
    { key: 'mau', limit: limitOf(quota.mauLimit) },
    { key: 'applications', limit: limitOf(quota.applicationsLimit) },
    { key: 'm2m', limit: limitOf(quota.machineToMachineLimit) },
    { key: 'roles', limit: limitOf(quota.userRolesLimit) },
    { key: 'permissions', limit: limitOf(quota.scopesPerResourceLimit) },
    { key: 'audit_logs', limit: limitOf(quota.auditLogsRetentionDays) },
  ];
  if (isOn(quota.mfaEnabled)) features.push({ key: 'mfa' });
  if (isOn(quota.enterpriseSsoLimit)) features.push({ key: 'enterprise_sso' });
  if (isOn(quota.organizationsLimit)) features.push({ key: 'organizations' });
  return features;
}
