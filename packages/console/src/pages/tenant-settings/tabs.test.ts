import { describe, expect, it } from 'vitest';
import { defaultTenantSettingsTab, isTabAllowed, visibleMembersSubTabs, visibleTenantSettingsTabs } from './tabs.ts';

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
});
