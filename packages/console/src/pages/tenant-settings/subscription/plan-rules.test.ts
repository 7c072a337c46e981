import { describe, expect, it } from 'vitest';
import { isUsageExceeded, planAction, showsNextBill, usageCardKeys } from './plan-rules.ts';

describe('usage cards per plan (spec §9)', () => {
  it('shows only MAU and tokens on Free', () => {
    expect(usageCardKeys('Free')).toEqual(['mauLimit', 'tokenLimit']);
  });
  it('shows the eight quota cards and tokens on paid and enterprise plans', () => {
    const paid = [
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
    expect(usageCardKeys('Pro202411')).toEqual(paid);
    expect(usageCardKeys('Pro')).toEqual(paid);
    expect(usageCardKeys('acme-enterprise')).toEqual(paid);
  });
});

describe('exceeded usage (spec §4: usage / quota ≥ 1 on a non-free plan)', () => {
  it('marks a paid plan at or above its quota', () => {
    expect(isUsageExceeded('Pro202411', 10, 10)).toBe(true);
    expect(isUsageExceeded('Pro202411', 11, 10)).toBe(true);
    expect(isUsageExceeded('Pro202411', 9, 10)).toBe(false);
    expect(isUsageExceeded('acme-enterprise', 1, 0)).toBe(true);
    expect(isUsageExceeded('acme-enterprise', 0, 0)).toBe(false);
  });
  it('never marks Free, unlimited or feature quotas', () => {
    expect(isUsageExceeded('Free', 60_000, 50_000)).toBe(false);
    expect(isUsageExceeded('Pro202411', 1_000_000, null)).toBe(false);
    expect(isUsageExceeded('Pro202411', 5, true)).toBe(false);
    expect(isUsageExceeded('Pro202411', true, false)).toBe(false);
  });
});

describe('next bill and plan actions', () => {
  it('hints the next bill for a cost above 0 on non-enterprise plans', () => {
    expect(showsNextBill(1600, false)).toBe(true);
    expect(showsNextBill(0, false)).toBe(false);
    expect(showsNextBill(1600, true)).toBe(false);
  });
  it('follows the plan order (spec §4)', () => {
    expect(planAction('Free', 'Pro202411')).toBe('upgrade');
    expect(planAction('Pro202411', 'Free')).toBe('downgrade');
    expect(planAction('Pro', 'Pro202411')).toBe('switch');
    expect(planAction('Free', 'Free')).toBe('current');
  });
});
