import { describe, expect, it } from 'vitest';
import {
  canSeeBilling,
  defaultTenantSettingsTab,
  isTabAllowed,
  visibleMembersSubTabs,
  visibleTenantSettingsTabs,
} from './tabs.ts';

const admin = { canManageTenant: true, canInviteMember: true };
const collaborator = { canManageTenant: false, canInviteMember: false };

describe('tenant settings tabs (spec §2.2, §6)', () => {
  it('shows settings only to tenant managers', () => {
    expect(visibleTenantSettingsTabs(admin)).toEqual(['settings', 'members', 'domains']);
    expect(visibleTenantSettingsTabs(collaborator)).toEqual(['members', 'domains']);
    expect(isTabAllowed('settings', collaborator)).toBe(false);
    expect(isTabAllowed('members', collaborator)).toBe(true);
  });
  it('lands managers on settings and everyone else on members', () => {
    expect(defaultTenantSettingsTab(admin)).toBe('settings');
    expect(defaultTenantSettingsTab(collaborator)).toBe('members');
    expect(defaultTenantSettingsTab({ canManageTenant: false, canInviteMember: true })).toBe('members');
  });
  it('offers the invitations sub-tab only to members who may invite', () => {
    expect(visibleMembersSubTabs(admin)).toEqual(['members', 'invitations']);
    expect(visibleMembersSubTabs(collaborator)).toEqual(['members']);
    expect(visibleMembersSubTabs({ canManageTenant: false, canInviteMember: true })).toEqual([
      'members',
      'invitations',
    ]);
  });
  it('shows subscription and billing history only to managers of a non-development tenant', () => {
    expect(visibleTenantSettingsTabs(admin, 'production')).toEqual([
      'settings',
      'members',
      'domains',
      'subscription',
      'billing-history',
    ]);
    expect(visibleTenantSettingsTabs(admin, 'development')).toEqual(['settings', 'members', 'domains']);
    expect(visibleTenantSettingsTabs(collaborator, 'production')).toEqual(['members', 'domains']);
    expect(canSeeBilling({ canManageTenant: false, canInviteMember: true }, 'production')).toBe(false);
    // The tenant not known yet: nothing billing-related until it is.
    expect(canSeeBilling(admin, undefined)).toBe(false);
    expect(isTabAllowed('subscription', admin, 'production')).toBe(true);
    expect(isTabAllowed('billing-history', admin, 'development')).toBe(false);
    expect(isTabAllowed('billing-history', collaborator, 'production')).toBe(false);
  });
});
