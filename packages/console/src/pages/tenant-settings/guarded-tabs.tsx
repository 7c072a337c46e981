import { BillingHistoryTab } from './billing-history/BillingHistoryTab.tsx';
import { InvitationsList } from './members/InvitationsList.tsx';
import { RequireBilling, RequireFlag } from './RequireFlag.tsx';
import { TenantSettingsTab } from './settings/TenantSettingsTab.tsx';
import { SubscriptionTab } from './subscription/SubscriptionTab.tsx';

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

/** Subscription for tenant managers of a non-development tenant (spec §2.2, §6). */
export function GuardedSubscriptionTab() {
  return (
    <RequireBilling>
      <SubscriptionTab />
    </RequireBilling>
  );
}

/** Billing history, under the same rule as the subscription. */
export function GuardedBillingHistoryTab() {
  return (
    <RequireBilling>
      <BillingHistoryTab />
    </RequireBilling>
  );
}
