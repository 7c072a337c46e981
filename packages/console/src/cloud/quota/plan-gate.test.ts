import { describe, expect, it } from 'vitest';
import { isCountedOn, planGate } from './plan-gate.ts';

describe('plan gate of a create or enable action (issue 26)', () => {
  it('marks a feature the plan leaves out with the lowest plan that has it', () => {
    expect(planGate('Free', 'organizationsLimit', 0)).toEqual({
      kind: 'gated',
      reason: 'not_included',
      planId: 'Pro202411',
    });
    expect(planGate('Free', 'customJwtEnabled', undefined)).toEqual({
      kind: 'gated',
      reason: 'not_included',
      planId: 'Pro202411',
    });
    expect(planGate('Free', 'mfaEnabled', false)).toMatchObject({ kind: 'gated', reason: 'not_included' });
  });

  it('marks a count at its limit, and leaves it open below the limit or while the usage is unknown', () => {
    expect(planGate('Free', 'applicationsLimit', 3)).toEqual({
      kind: 'gated',
      reason: 'limit_reached',
      planId: 'Pro202411',
    });
    expect(planGate('Free', 'applicationsLimit', 2)).toEqual({ kind: 'open' });
    expect(planGate('Free', 'applicationsLimit', undefined)).toEqual({ kind: 'open' });
    expect(planGate('Free', 'resourcesLimit', 1)).toMatchObject({ kind: 'gated', reason: 'limit_reached' });
  });

  it('leaves open what the plan includes, and any plan it does not know (enterprise)', () => {
    for (const planId of ['Pro', 'Pro202411', 'Admin']) {
      expect(planGate(planId, 'organizationsLimit', 1000)).toEqual({ kind: 'open' });
      expect(planGate(planId, 'customJwtEnabled', undefined)).toEqual({ kind: 'open' });
    }
    expect(planGate('Development', 'organizationsLimit', 5)).toEqual({ kind: 'open' });
    expect(planGate('enterprise-acme', 'organizationsLimit', 0)).toEqual({ kind: 'open' });
  });

  it('marks the few limits of the Development plan too (the component offers no link there: no subscription)', () => {
    expect(planGate('Development', 'tenantMembersLimit', 20)).toEqual({
      kind: 'gated',
      reason: 'limit_reached',
      planId: 'Pro202411',
    });
    expect(planGate('Development', 'idpInitiatedSsoEnabled', undefined)).toMatchObject({ kind: 'gated' });
  });

  it('reads the usage only for limits counted by a number', () => {
    expect(isCountedOn('Free', 'applicationsLimit')).toBe(true);
    expect(isCountedOn('Free', 'mfaEnabled')).toBe(false);
    expect(isCountedOn('Pro202411', 'applicationsLimit')).toBe(false);
    expect(isCountedOn('enterprise-acme', 'applicationsLimit')).toBe(false);
  });
});
