/**
 * Spec §9 plan name labels: Free, Pro (Pro202411 too), Development, Admin; any other plan reads 'enterprise'.
 * Outside any page folder, so every page (the checkout callback, the plan picker, the subscription tab) can share it.
 */
export type PlanLabel = 'free' | 'pro' | 'development' | 'admin' | 'enterprise';

export function planLabel(planId: string): PlanLabel {
  switch (planId) {
    case 'Free':
      return 'free';
    case 'Pro':
    case 'Pro202411':
      return 'pro';
    case 'Development':
      return 'development';
    case 'Admin':
      return 'admin';
    default:
      return 'enterprise';
  }
}
