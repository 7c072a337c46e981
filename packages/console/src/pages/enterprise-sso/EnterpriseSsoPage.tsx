import type { SsoConnectorWithProviderConfig } from '@gatehouse/schemas';
import { BriefcaseBusiness } from 'lucide';
import { useSsoConnectors } from '../../api/sso-connectors.ts';
import { PlanGate } from '../../cloud/quota/PlanGate.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { ListPage } from '../../components/Table/ListPage.tsx';
import type { TableColumn } from '../../components/Table/Table.tsx';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { UserText } from '../../components/UserText.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './EnterpriseSso.module.css';
import { toCreateSsoConnector, toSsoConnector } from './links.ts';
import { ProviderLogo, StatusTag, useProviderName } from './SsoFacts.tsx';

/**
 * Spec §2.2 enterprise-sso index: the tenant's connectors to company identity providers (name with the provider's
 * logo, provider, email domains, whether it is ready), 20 a page. The API has no search, so neither has the list.
 */
export function EnterpriseSsoPage() {
  const { t } = useTranslation('enterprise_sso');
  const resolve = useTenantPath();
  const list = useListParams();
  const connectors = useSsoConnectors({ page: list.page, pageSize: list.pageSize });
  const providerName = useProviderName();

  const columns: TableColumn<SsoConnectorWithProviderConfig>[] = [
    {
      key: 'name',
      title: t('fields.connector_name'),
      render: (connector) => (
        <span className={styles.nameCell}>
          <ProviderLogo src={connector.providerLogo} />
          <UserText>{connector.connectorName}</UserText>
        </span>
      ),
    },
    { key: 'provider', title: t('fields.provider'), render: (connector) => providerName(connector.providerName) },
    {
      key: 'domains',
      title: t('fields.domains'),
      render: (connector) =>
        connector.domains.length ? (
          <span className={styles.domains} dir="ltr">
            {connector.domains.map((domain) => (
              <code key={domain} className={styles.code}>
                {domain}
              </code>
            ))}
          </span>
        ) : (
          <span className={styles.muted}>{t('list.no_domains')}</span>
        ),
    },
    {
      key: 'status',
      title: t('fields.status'),
      width: '9rem',
      render: (connector) => <StatusTag connector={connector} />,
    },
  ];

  return (
    <ListPage
      title={t('title')}
      subtitle={t('subtitle')}
      create={{
        path: resolve(toCreateSsoConnector()),
        label: t('create.action'),
        aside: <PlanGate quota="enterpriseSsoLimit" />,
      }}
      list={list}
      query={connectors}
      columns={columns}
      rowKey={(connector) => connector.id}
      rowLink={(connector) => resolve(toSsoConnector(connector.id))}
      empty={{ icon: BriefcaseBusiness, title: t('list.empty_title'), description: t('list.empty') }}
    />
  );
}
