import type { Organization } from '@gatehouse/schemas';
import { Building2 } from 'lucide';
import { useOrganizations } from '../../api/organizations.ts';
import { PlanGate } from '../../cloud/quota/PlanGate.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { ListPage } from '../../components/Table/ListPage.tsx';
import type { TableColumn } from '../../components/Table/Table.tsx';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { toCreateOrganization, toOrganization } from './links.ts';
import styles from './Organizations.module.css';

/** Spec §2.2 organizations index: server-side search and 20 rows a page, kept in the URL. */
export function OrganizationsPage() {
  const { t } = useTranslation('organizations');
  const resolve = useTenantPath();
  const list = useListParams();
  const organizations = useOrganizations({ page: list.page, pageSize: list.pageSize, search: list.search });

  const columns: TableColumn<Organization>[] = [
    { key: 'name', title: t('fields.name'), render: (organization) => organization.name },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.description,
      render: (organization) => organization.description ?? '',
    },
    { key: 'id', title: t('fields.id'), className: styles.muted, render: (organization) => organization.id },
  ];

  return (
    <ListPage
      title={t('title')}
      subtitle={t('subtitle')}
      create={{
        path: resolve(toCreateOrganization()),
        label: t('create.action'),
        aside: <PlanGate quota="organizationsLimit" />,
      }}
      list={list}
      query={organizations}
      columns={columns}
      rowKey={(organization) => organization.id}
      rowLink={(organization) => resolve(toOrganization(organization.id))}
      empty={{ icon: Building2, description: t('list.empty') }}
      searchPlaceholder={t('list.search')}
    />
  );
}
