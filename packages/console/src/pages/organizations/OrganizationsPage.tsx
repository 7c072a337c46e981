import type { Organization } from '@gatehouse/schemas';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { useOrganizations } from '../../api/organizations.ts';
import { Button } from '../../components/Button/Button.tsx';
import { PlusIcon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../components/Table/Table.tsx';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { toCreateOrganization, toOrganization } from './links.ts';
import styles from './Organizations.module.css';

/** Spec §2.2 organizations index: server-side search and 20 rows a page, kept in the URL. */
export function OrganizationsPage() {
  const { t } = useTranslation('organizations');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const { page, pageSize, search, params, setPage, setSearch } = useListParams();
  const organizations = useOrganizations({ page, pageSize, search });

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
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Button
            variant="primary"
            icon={<PlusIcon />}
            // Keeps the list's query, so closing the dialog returns to the same rows.
            onClick={() => navigate({ pathname: resolve(toCreateOrganization()), search: params.toString() })}
          >
            {t('create.action')}
          </Button>
        }
      />
      <Table
        aria-label={t('title')}
        columns={columns}
        rows={organizations.data?.items}
        rowKey={(organization) => organization.id}
        rowLink={(organization) => resolve(toOrganization(organization.id))}
        isLoading={organizations.isPending}
        error={organizations.error}
        onRetry={() => void organizations.refetch()}
        empty={<p className={styles.empty}>{search ? t('list.no_match') : t('list.empty')}</p>}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('list.search') }}
        pagination={{ page, pageSize, totalCount: organizations.data?.total ?? 0, onPageChange: setPage }}
      />
      <Outlet />
    </>
  );
}
