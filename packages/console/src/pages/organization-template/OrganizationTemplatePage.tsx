import { Outlet } from 'react-router';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Tabs } from '../../components/Tabs/Tabs.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { type TemplateTab, toOrganizationTemplate } from './links.ts';
import styles from './OrganizationTemplate.module.css';

const tabs: readonly TemplateTab[] = ['organization-roles', 'organization-permissions'];

/** Spec §2.2 organization-template: the header and its two routed tabs. */
export function OrganizationTemplatePage() {
  const { t } = useTranslation('organization_template');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Tabs
        aria-label={t('tabs_label')}
        items={tabs.map((tab) => ({ to: resolve(toOrganizationTemplate(tab)), label: t(`tabs.${tab}`) }))}
      />
      <Outlet />
    </div>
  );
}
