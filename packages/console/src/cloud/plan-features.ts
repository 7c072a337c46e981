import type { Quota } from '@gatehouse/schemas';

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
 * Spec §9 Free upsell: a plan's feature list, the one catalogue of the plan picker and the subscription page
 * (PlanFeatureList), read from the plan's own quota so it can never promise what the server does not enforce: the
 * named limits, then the gated features the plan includes (MFA, enterprise SSO, organizations).
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
