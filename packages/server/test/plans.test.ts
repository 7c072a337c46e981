import {
  basicPlans,
  developmentPlanQuota,
  freePlanQuota,
  isPaidModelPlan,
  isSameTier,
  isUpgrade,
  isWithinQuota,
  planRank,
  quotaKeys,
  quotaSchema,
  skuSchema,
} from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';

describe('plans (spec §4 plan order, §9 plans and quota check)', () => {
  it('ranks Free and Development lowest, Pro next, anything else (enterprise) highest', () => {
    expect(planRank('Free')).toBe(planRank('Development'));
    expect(planRank('Pro')).toBe(planRank('Pro202411'));
    expect(planRank('Pro')).toBeGreaterThan(planRank('Free'));
    expect(planRank('Enterprise-acme')).toBeGreaterThan(planRank('Pro202411'));
  });

  it('an upgrade is strictly higher; same tier is equal rank with another id', () => {
    expect(isUpgrade('Free', 'Pro202411')).toBe(true);
    expect(isUpgrade('Pro202411', 'Free')).toBe(false);
    expect(isUpgrade('Pro', 'Pro202411')).toBe(false);
    expect(isSameTier('Pro', 'Pro202411')).toBe(true);
    expect(isSameTier('Pro', 'Pro')).toBe(false);
    expect(isSameTier('Free', 'Development')).toBe(true);
    expect(isPaidModelPlan('Pro202411')).toBe(true);
    expect(isPaidModelPlan('Free')).toBe(false);
  });

  it('null and true are unlimited, false is disabled, numbers compare with <= (or < when strict)', () => {
    expect(isWithinQuota(null, 1e9)).toBe(true);
    expect(isWithinQuota(true, 1e9)).toBe(true);
    expect(isWithinQuota(false, 0)).toBe(false);
    expect(isWithinQuota(3, 3)).toBe(true);
    expect(isWithinQuota(3, 4)).toBe(false);
    expect(isWithinQuota(3, 3, true)).toBe(false);
    expect(isWithinQuota(3, 2, true)).toBe(true);
    // 0 disables: nothing may be added.
    expect(isWithinQuota(0, 0, true)).toBe(false);
  });

  it('the Free baseline and the Development plan hold the spec §9 values, and every plan is a valid SKU quota', () => {
    expect(freePlanQuota).toMatchObject({
      mauLimit: 50_000,
      tokenLimit: 500_000,
      applicationsLimit: 3,
      machineToMachineLimit: 1,
      resourcesLimit: 1,
      scopesPerResourceLimit: 1,
      socialConnectorsLimit: 3,
      userRolesLimit: 1,
      machineToMachineRolesLimit: 1,
      scopesPerRoleLimit: 1,
      hooksLimit: 1,
      auditLogsRetentionDays: 3,
      tenantMembersLimit: 1,
      organizationsLimit: 0,
      enterpriseSsoLimit: 0,
      thirdPartyApplicationsLimit: 0,
      samlApplicationsLimit: 0,
      mfaEnabled: false,
      customJwtEnabled: false,
      subjectTokenEnabled: false,
      bringYourUiEnabled: false,
      idpInitiatedSsoEnabled: false,
    });
    expect(developmentPlanQuota).toMatchObject({
      mauLimit: 100,
      auditLogsRetentionDays: 14,
      tenantMembersLimit: 20,
      mfaEnabled: true,
      customJwtEnabled: true,
      subjectTokenEnabled: true,
      bringYourUiEnabled: true,
      idpInitiatedSsoEnabled: false,
    });
    for (const plan of basicPlans) {
      expect(Object.keys(plan.quota).sort()).toEqual([...quotaKeys].sort());
      expect(quotaSchema.parse(plan.quota)).toEqual(plan.quota);
      expect(
        skuSchema.safeParse({
          id: plan.id,
          name: plan.id,
          type: 'Basic',
          unitPrice: plan.unitPrice,
          quota: plan.quota,
          createdAt: 0,
          updatedAt: 0,
        }).success,
      ).toBe(true);
    }
    expect(quotaSchema.safeParse({ ...freePlanQuota, mauLimit: -1 }).success).toBe(false);
  });
});
