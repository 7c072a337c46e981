import { Outlet } from 'react-router';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Tabs } from '../../components/Tabs/Tabs.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Connectors.module.css';
import { connectorListTabs, toConnectors } from './links.ts';

/** Spec §2.2 connectors: the header and the passwordless and social tabs. */
export function ConnectorsPage() {
  const { t } = useTranslation('connectors');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Tabs
        aria-label={t('tabs.label')}
        items={connectorListTabs.map((tab) => ({ to: resolve(toConnectors(tab)), label: t(`tabs.${tab}`) }))}
      />
      <Outlet />
    </div>
  );
}
