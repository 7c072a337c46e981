import { InvitationsList } from './members/InvitationsList.tsx';
import { RequireFlag } from './RequireFlag.tsx';
import { TenantSettingsTab } from './settings/TenantSettingsTab.tsx';

/** The settings tab for tenant managers only (spec §6). */
export function GuardedSettingsTab() {
  return (
    <RequireFlag flag="canManageTenant">
      <TenantSettingsTab />
    </RequireFlag>
  );
}

/** The invitations sub-tab for members who may invite (spec §6). */
export function GuardedInvitationsList() {
  return (
    <RequireFlag flag="canInviteMember">
      <InvitationsList />
    </RequireFlag>
  );
}
