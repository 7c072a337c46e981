import type { InviteeInvitation, Tenant } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import {
  indexDecision,
  isOnboardingDone,
  needsOnboarding,
  pickDefaultTenant,
  tenantAccessDecision,
  withDefaultTenant,
  withOnboardingDone,
} from './rules.ts';
import { tenantFixture } from './tenant-fixture.ts';

const tenant = (id: string): Tenant => tenantFixture(id);
const invitation: InviteeInvitation = {
  id: 'inv',
  organizationId: 't-x',
  tenantId: 'x',
  tenantName: 'X',
  tenantTag: 'production',
  status: 'Pending',
  role: 'collaborator',
  expiresAt: 0,
};
const done = { onboarding: { isOnboardingDone: true } };

describe('default tenant rule (spec §3)', () => {
  it('takes the saved defaultTenantId when it is one of the tenants, else the first', () => {
    const list = [tenant('a'), tenant('b')];
    expect(pickDefaultTenant(list, { defaultTenantId: 'b' })?.id).toBe('b');
    expect(pickDefaultTenant(list, { defaultTenantId: 'gone' })?.id).toBe('a');
    expect(pickDefaultTenant(list, null)?.id).toBe('a');
    expect(pickDefaultTenant([], { defaultTenantId: 'b' })).toBeUndefined();
  });
});

describe('onboarding flag', () => {
  it('is done only for a literal true, and writing it keeps the other custom data', () => {
    expect(isOnboardingDone(done)).toBe(true);
    expect(isOnboardingDone({ onboarding: { isOnboardingDone: 'true' } })).toBe(false);
    expect(isOnboardingDone({})).toBe(false);
    const data = { adminConsolePreferences: { language: 'de' }, onboarding: { questionnaire: 1 } };
    expect(withOnboardingDone(data, true)).toEqual({
      adminConsolePreferences: { language: 'de' },
      onboarding: { questionnaire: 1, isOnboardingDone: true },
    });
    expect(withDefaultTenant(withOnboardingDone(null, false), 'a')).toEqual({
      onboarding: { isOnboardingDone: false },
      defaultTenantId: 'a',
    });
  });
});

describe('signed-in index (spec §2.4)', () => {
  const base = { isUserLoading: false, customData: done, tenants: [] as Tenant[], pendingInvitations: [] };
  it('waits for the user, then sends a user who has not onboarded to onboarding', () => {
    expect(indexDecision({ ...base, isUserLoading: true })).toEqual({ kind: 'wait' });
    expect(indexDecision({ ...base, customData: {}, pendingInvitations: [invitation] })).toEqual({
      kind: 'redirect',
      to: '/onboarding',
    });
  });
  it('counts onboarding as done once the account belongs to a tenant, flag or not (issue 26)', () => {
    // An invitee who accepted never set the flag: '/' goes to the tenant, not to 'Create your first tenant'.
    expect(indexDecision({ ...base, customData: {}, tenants: [tenant('a')] })).toEqual({ kind: 'redirect', to: '/a' });
    expect(
      indexDecision({ ...base, customData: { onboarding: { isOnboardingDone: false } }, tenants: [tenant('a')] }),
    ).toEqual({ kind: 'redirect', to: '/a' });
    expect(needsOnboarding({}, [tenant('a')])).toBe(false);
    expect(needsOnboarding(done, [])).toBe(false);
    // No tenant and no flag (a new account, or 'create new tenant' from the invitation list): onboarding.
    expect(needsOnboarding({}, [])).toBe(true);
    expect(needsOnboarding({ onboarding: { isOnboardingDone: false } }, [])).toBe(true);
  });
  it('goes to the default tenant before looking at invitations', () => {
    expect(
      indexDecision({ ...base, tenants: [tenant('a'), tenant('b')], customData: { ...done, defaultTenantId: 'b' } }),
    ).toEqual({ kind: 'redirect', to: '/b' });
    expect(indexDecision({ ...base, tenants: [tenant('a')], pendingInvitations: [invitation] })).toEqual({
      kind: 'redirect',
      to: '/a',
    });
  });
  it('shows the invitations, else the landing page, once invitations are known', () => {
    expect(indexDecision({ ...base, pendingInvitations: undefined })).toEqual({ kind: 'wait' });
    expect(indexDecision({ ...base, pendingInvitations: [invitation] })).toEqual({
      kind: 'invitations',
      invitations: [invitation],
    });
    expect(indexDecision(base)).toEqual({ kind: 'landing' });
  });
});

describe('tenant access (spec §4)', () => {
  const base = {
    tenantId: 'a',
    rest: '/users?page=2',
    tenants: [tenant('a'), tenant('b')],
    customData: { defaultTenantId: 'b' },
    memberScopes: undefined,
    tokenScopes: undefined,
  };
  it('sends the placeholder id to the same path in the default tenant, any other unknown id to /', () => {
    expect(tenantAccessDecision({ ...base, tenantId: 'default' })).toEqual({ kind: 'redirect', to: '/b/users?page=2' });
    expect(tenantAccessDecision({ ...base, tenantId: 'zzz' })).toEqual({ kind: 'redirect', to: '/' });
    expect(tenantAccessDecision({ ...base, tenantId: 'default', tenants: [] })).toEqual({ kind: 'redirect', to: '/' });
  });
  it('keeps a tenant named like the placeholder when the user belongs to it', () => {
    expect(tenantAccessDecision({ ...base, tenantId: 'default', tenants: [tenant('default')] })).toEqual({
      kind: 'allow',
    });
  });
  it('drops a tenant whose member scope list is empty', () => {
    expect(tenantAccessDecision({ ...base, memberScopes: [] })).toEqual({ kind: 'remove' });
  });
  it('signs in again when the token lacks scopes, clears only the token when it has extra ones', () => {
    const member = ['read:data', 'write:data'];
    expect(tenantAccessDecision({ ...base, memberScopes: member, tokenScopes: ['read:data'] })).toEqual({
      kind: 'sign-in-again',
    });
    expect(tenantAccessDecision({ ...base, memberScopes: member, tokenScopes: [...member, 'manage:tenant'] })).toEqual({
      kind: 'clear-token',
    });
    expect(tenantAccessDecision({ ...base, memberScopes: member, tokenScopes: [...member].reverse() })).toEqual({
      kind: 'allow',
    });
    expect(tenantAccessDecision({ ...base, memberScopes: member, tokenScopes: undefined })).toEqual({ kind: 'allow' });
  });
});
