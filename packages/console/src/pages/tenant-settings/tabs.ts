import type { MemberPermissionFlags } from '@gatehouse/schemas';
import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2 tenant-settings tabs (subscription and billing history come with billing, issue 9). */
export type TenantSettingsTab = 'settings' | 'members' | 'domains';
export type MembersSubTab = 'members' | 'invitations';

type Flags = Pick<MemberPermissionFlags, 'canManageTenant' | 'canInviteMember'>;

/** The tabs a member sees, in order: settings only for tenant managers (spec §6). */
export function visibleTenantSettingsTabs(flags: Flags): TenantSettingsTab[] {
  return flags.canManageTenant ? ['settings', 'members', 'domains'] : ['members', 'domains'];
}

/** Spec §2.2: the index goes to settings for tenant managers, otherwise to members. */
export function defaultTenantSettingsTab(flags: Flags): TenantSettingsTab {
  return flags.canManageTenant ? 'settings' : 'members';
}

/** Spec §2.2 members/*: the list, plus 'invitations' only for those who may invite (spec §6). */
export function visibleMembersSubTabs(flags: Flags): MembersSubTab[] {
  return flags.canInviteMember ? ['members', 'invitations'] : ['members'];
}

export function isTabAllowed(tab: TenantSettingsTab, flags: Flags): boolean {
  return visibleTenantSettingsTabs(flags).includes(tab);
}

/** Link builders, relative to the tenant. */
export const toTenantSettings = (tab?: TenantSettingsTab): string =>
  tab ? `tenant-settings/${segment(tab)}` : 'tenant-settings';
export const toTenantInvitations = (): string => 'tenant-settings/members/invitations';
