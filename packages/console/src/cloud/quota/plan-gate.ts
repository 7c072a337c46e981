import {
  basicPlans,
  isWithinQuota,
  offeredPlanIds,
  type PlanId,
  planRank,
  type QuotaKey,
  type QuotaValue,
} from '@gatehouse/schemas';

/**
 * Issue 26, gated actions: whether a create or enable action is open on the tenant's plan, told before the click. The
 * server's refusal (403 subscription.quota_exceeded, the quota modal) stays the safety net; this only marks the action.
 */
export type PlanGateState =
  | { kind: 'open' }
  | {
      kind: 'gated';
      /** The plan leaves the feature out (false or 0), or the count already reached its limit. */
      reason: 'not_included' | 'limit_reached';
      /** The lowest offered plan that would allow one more, or undefined when none does (enterprise). */
      planId: PlanId | undefined;
    };

const open: PlanGateState = { kind: 'open' };

/** Room for one more under `limit` with `usage` in use (spec §9 quota check, strict form before adding). */
function allowsOneMore(limit: QuotaValue, usage: number | boolean | undefined): boolean {
  if (limit === null || limit === true) return true;
  if (limit === false || limit === 0) return false;
  return typeof usage !== 'number' || isWithinQuota(limit, usage, true);
}

/**
 * The gate of `key` for a tenant on `planId` with `usage` (the subscription usage's figure for the key; undefined while
 * it loads, which leaves a counted action open). A plan this console does not know (enterprise) is never gated.
 */
export function planGate(planId: string, key: QuotaKey, usage: number | boolean | undefined): PlanGateState {
  const plan = basicPlans.find((candidate) => candidate.id === planId);
  if (!plan) return open;
  const limit = plan.quota[key];
  if (allowsOneMore(limit, usage)) return open;
  const reason = limit === false || limit === 0 ? 'not_included' : 'limit_reached';
  const rank = planRank(planId);
  const upgrade = offeredPlanIds
    .flatMap((id) => basicPlans.filter((candidate) => candidate.id === id))
    .filter((candidate) => planRank(candidate.id) > rank)
    .sort((a, b) => planRank(a.id) - planRank(b.id))
    .find((candidate) => allowsOneMore(candidate.quota[key], usage));
  return { kind: 'gated', reason, planId: upgrade?.id };
}

/** Whether the gate of `key` on `planId` depends on a count (the subscription usage must be read). */
export function isCountedOn(planId: string, key: QuotaKey): boolean {
  return typeof basicPlans.find((candidate) => candidate.id === planId)?.quota[key] === 'number';
}
