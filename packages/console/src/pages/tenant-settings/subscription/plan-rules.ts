import { planRank, type QuotaKey, type QuotaValue } from '@gatehouse/schemas';

/** Spec §9: the eight quota cards of paid and enterprise plans, in this order, followed by the token card. */
export const paidUsageCardKeys: readonly QuotaKey[] = [
  'mauLimit',
  'organizationsLimit',
  'mfaEnabled',
  'enterpriseSsoLimit',
  'resourcesLimit',
  'machineToMachineLimit',
  'tenantMembersLimit',
  'hooksLimit',
  'tokenLimit',
];

/** Spec §9: the usage cards of a plan. Free shows only MAU and tokens; every other plan all of them. */
export function usageCardKeys(planId: string): readonly QuotaKey[] {
  return planId === 'Free' ? ['mauLimit', 'tokenLimit'] : paidUsageCardKeys;
}

/**
 * Spec §4 usage cards: red 'exceeded' when usage / quota is 1 or more on a non-free plan. Unlimited (null or true)
 * and boolean quotas are never exceeded; a quota of 0 is exceeded by any use.
 */
export function isUsageExceeded(planId: string, usage: number | boolean, quota: QuotaValue): boolean {
  if (planId === 'Free' || typeof usage !== 'number' || typeof quota !== 'number') return false;
  if (quota === 0) return usage > 0;
  return usage / quota >= 1;
}

/** Spec §9: the next-bill hint shows when the plan costs something and is not an enterprise plan. */
export function showsNextBill(cost: number, isEnterprisePlan: boolean): boolean {
  return cost > 0 && !isEnterprisePlan;
}

/** What a plan option's button does from the current plan (spec §4 plan order). */
export type PlanAction = 'current' | 'upgrade' | 'downgrade' | 'switch';

export function planAction(currentPlanId: string, targetPlanId: string): PlanAction {
  if (currentPlanId === targetPlanId) return 'current';
  const from = planRank(currentPlanId);
  const to = planRank(targetPlanId);
  if (to > from) return 'upgrade';
  return to < from ? 'downgrade' : 'switch';
}
