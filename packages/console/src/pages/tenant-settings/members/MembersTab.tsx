import { useState } from 'react';
import { Outlet } from 'react-router';
import { PlanGate } from '../../../cloud/quota/PlanGate.tsx';
import { useCurrentMemberScopes } from '../../../cloud/tenants/member-scopes.ts';
import { useTenants } from '../../../cloud/tenants/TenantsProvider.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Tabs } from '../../../components/Tabs/Tabs.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../TenantSettings.module.css';
import { toTenantSettings, visibleMembersSubTabs } from '../tabs.ts';
import { InviteMembersModal } from './InviteMembersModal.tsx';

/** Spec §2.2 tenant-settings/members/*: the member list, and the invitations for those who may invite. */
export function MembersTab() {
  const { t } = useTranslation('tenant_settings');
  const resolve = useTenantPath();
  const { flags } = useCurrentMemberScopes();
  const { currentTenant } = useTenants();
  const [isInviting, setInviting] = useState(false);
  const subTabs = visibleMembersSubTabs(flags);
  return (
    <div className={styles.stack}>
      <div className={styles.dangerRow}>
        {subTabs.length > 1 ? (
          <Tabs
            aria-label={t('members.sections')}
            items={subTabs.map((tab) => ({
              to: resolve(tab === 'members' ? toTenantSettings('members') : `${toTenantSettings('members')}/${tab}`),
              label: t(`members.tabs.${tab}`),
              end: true,
            }))}
          />
        ) : (
          <span />
        )}
        {flags.canInviteMember && (
          <PlanGate quota="tenantMembersLimit">
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setInviting(true)}>
              {t('members.invite')}
            </Button>
          </PlanGate>
        )}
      </div>
      <Outlet />
      {isInviting && currentTenant && (
        <InviteMembersModal
          tenantId={currentTenant.id}
          tenantName={currentTenant.name}
          onClose={() => setInviting(false)}
        />
      )}
    </div>
  );
}
