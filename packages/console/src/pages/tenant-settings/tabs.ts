import type { MemberPermissionFlags, TenantTag } from '@gatehouse/schemas';
import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2 tenant-settings tabs. */
export type TenantSettingsTab = 'settings' | 'members' | 'domains' | 'subscription' | 'billing-history';
export type MembersSubTab = 'members' | 'invitations';

type Flags = Pick<MemberPermissionFlags, 'canManageTenant' | 'canInviteMember'>;

/**
 * Spec §2.2, §6: subscription and billing history only for tenant managers of a non-development tenant (a
 * development tenant has no plan to change and is never billed). An unknown tag (still loading) shows neither.
 */
export function canSeeBilling(flags: Flags, tenantTag: TenantTag | undefined): boolean {
  return flags.canManageTenant && tenantTag !== undefined && tenantTag !== 'development';
}

/** The tabs a member sees, in order: settings only for tenant managers, billing as canSeeBilling says (spec §6). */
export function visibleTenantSettingsTabs(flags: Flags, tenantTag?: TenantTag): TenantSettingsTab[] {
  const billing: TenantSettingsTab[] = canSeeBilling(flags, tenantTag) ? ['subscription', 'billing-history'] : [];
  return flags.canManageTenant ? ['settings', 'members', 'domains', ...billing] : ['members', 'domains'];
}

/** Spec §2.2: the index goes to settings for tenant managers, otherwise to members. */
export function defaultTenantSettingsTab(flags: Flags): TenantSettingsTab {
  return flags.canManageTenant ? 'settings' : 'members';
}

/** Spec §2.2 members/*: the list, plus 'invitations' only for those who may invite (spec §6). */
export function visibleMembersSubTabs(flags: Flags): MembersSubTab[] {
  return flags.canInviteMember ? ['members', 'invitations'] : ['members'];
}

export function isTabAllowed(tab: TenantSettingsTab, flags: Flags, tenantTag?: TenantTag): boolean {
  return visibleTenantSettingsTabs(flags, tenantTag).includes(tab);
}

/** Link builders, relative to the tenant. */
export const toTenantSettings = (tab?: TenantSettingsTab): string =>
  tab ? `tenant-settings/${segment(tab)}` : 'tenant-settings';
export const toTenantInvitations = (): string => 'tenant-settings/members/invitations';
