import type { OrganizationWithRoles } from '@gatehouse/schemas';
import { Navigate } from 'react-router';
import { useApplicationOrganizations } from '../../../../api/organizations.ts';
import { Card } from '../../../../components/Card/Card.tsx';
import { useTenantPath } from '../../../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../../../components/Table/Table.tsx';
import { useListParams } from '../../../../components/Table/use-list-params.ts';
import { Tag } from '../../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { toOrganization } from '../../../organizations/links.ts';
import { useApplicationOutlet } from '../ApplicationDetailPage.tsx';
import styles from './OrganizationsTab.module.css';

/**
 * Spec §2.2 organizations tab, for machine-to-machine applications only: the organizations the application belongs to
 * and the organization roles it holds in each, read-only (memberships are managed from the organization), each row a
 * link to the organization.
 */
export function OrganizationsTab() {
  const { application } = useApplicationOutlet();
  if (application.type !== 'MachineToMachine') return <Navigate to="../settings" replace />;
  return <ApplicationOrganizations applicationId={application.id} />;
}

function ApplicationOrganizations({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation('applications');
  const resolve = useTenantPath();
  const { page, pageSize, setPage } = useListParams();
  const organizations = useApplicationOrganizations(applicationId, { page, pageSize });

  const columns: TableColumn<OrganizationWithRoles>[] = [
    { key: 'name', title: t('organizations.name'), render: (organization) => organization.name },
    {
      key: 'roles',
      title: t('organizations.roles'),
      render: (organization) =>
        organization.organizationRoles.length === 0 ? (
          <span className={styles.empty}>{t('organizations.no_roles')}</span>
        ) : (
          <span className={styles.tags}>
            {organization.organizationRoles.map((role) => (
              <Tag key={role.id} status="info">
                {role.name}
              </Tag>
            ))}
          </span>
        ),
    },
  ];

  return (
    <Card title={t('organizations.title')} description={t('organizations.description')}>
      <Table
        aria-label={t('organizations.title')}
        columns={columns}
        rows={organizations.data?.items}
        rowKey={(organization) => organization.id}
        rowLink={(organization) => resolve(toOrganization(organization.id, 'machine-to-machine'))}
        isLoading={organizations.isPending}
        error={organizations.error}
        onRetry={() => void organizations.refetch()}
        empty={<p className={styles.empty}>{t('organizations.empty')}</p>}
        pagination={{ page, pageSize, totalCount: organizations.data?.total ?? 0, onPageChange: setPage }}
      />
    </Card>
  );
}
