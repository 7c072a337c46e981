import { Navigate, Outlet } from 'react-router';
import { useCurrentMemberScopes } from '../../cloud/tenants/member-scopes.ts';
import { useTenants } from '../../cloud/tenants/TenantsProvider.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Tabs } from '../../components/Tabs/Tabs.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './TenantSettings.module.css';
import { defaultTenantSettingsTab, toTenantSettings, visibleTenantSettingsTabs } from './tabs.ts';

/** Spec §2.2 tenant-settings: the header and the tabs this member may open (spec §6 member scopes). */
export function TenantSettingsPage() {
  const { t } = useTranslation('tenant_settings');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  const { flags, isLoading } = useCurrentMemberScopes();
  const { currentTenant } = useTenants();
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      {isLoading ? (
        <Loading />
      ) : (
        <>
          <Tabs
            aria-label={t('tabs_label')}
            items={visibleTenantSettingsTabs(flags, currentTenant?.tag).map((tab) => ({
              to: resolve(toTenantSettings(tab)),
              label: t(`tabs.${tab}`),
            }))}
          />
          <Outlet />
        </>
      )}
    </div>
  );
}

/** Spec §2.2: the index redirects (replace) to settings for tenant managers, otherwise to members. */
export function TenantSettingsIndex() {
  const { flags } = useCurrentMemberScopes();
  return <Navigate to={defaultTenantSettingsTab(flags)} replace />;
}
