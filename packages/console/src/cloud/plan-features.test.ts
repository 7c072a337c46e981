import { freePlanQuota, proPlanQuota } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { planFeatures } from './plan-features.ts';

describe('planFeatures', () => {
  it('lists the Free limits from its quota, without the gated features', () => {
    expect(planFeatures(freePlanQuota)).toEqual([
      { key: 'mau', limit: 50_000 },
      { key: 'applications', limit: 3 },
      { key: 'm2m', limit: 1 },
      { key: 'roles', limit: 1 },
      { key: 'permissions', limit: 1 },
      { key: 'audit_logs', limit: 3 },
    ]);
  });

  it('lists Pro as unlimited where the quota is null, with MFA, enterprise SSO and organizations', () => {
    expect(planFeatures(proPlanQuota)).toEqual([
      { key: 'mau', limit: 'unlimited' },
      { key: 'applications', limit: 'unlimited' },
      { key: 'm2m', limit: 'unlimited' },
      { key: 'roles', limit: 'unlimited' },
      { key: 'permissions', limit: 'unlimited' },
      { key: 'audit_logs', limit: 14 },
      { key: 'mfa' },
      { key: 'enterprise_sso' },
      { key: 'organizations' },
    ]);
  });
});
