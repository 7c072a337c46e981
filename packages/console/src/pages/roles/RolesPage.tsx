import { type Role, type RoleType, roleTypes } from '@gatehouse/schemas';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { useRoles } from '../../api/roles.ts';
import { Button } from '../../components/Button/Button.tsx';
import { Select } from '../../components/form/Select.tsx';
import { PlusIcon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../components/Table/Table.tsx';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { toCreateRole, toRole } from './links.ts';
import styles from './Roles.module.css';
import { RoleTypeTag } from './RoleTypeTag.tsx';

const isRoleType = (value: string | null): value is RoleType => roleTypes.some((type) => type === value);

/** Spec §2.2 roles index: server-side search, a type filter and 20 rows a page, all kept in the URL. */
export function RolesPage() {
  const { t } = useTranslation('roles');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const { page, pageSize, search, params, setPage, setSearch, setFilter } = useListParams();
  const typeParam = params.get('type');
  const type = isRoleType(typeParam) ? typeParam : undefined;
  const roles = useRoles({ page, pageSize, search, type });

  const columns: TableColumn<Role>[] = [
    { key: 'name', title: t('fields.name'), render: (role) => role.name },
    { key: 'type', title: t('fields.type'), render: (role) => <RoleTypeTag type={role.type} /> },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.description,
      render: (role) => role.description,
    },
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
            onClick={() => navigate({ pathname: resolve(toCreateRole()), search: params.toString() })}
          >
            {t('create.action')}
          </Button>
        }
      />
      <Table
        aria-label={t('title')}
        columns={columns}
        rows={roles.data?.items}
        rowKey={(role) => role.id}
        rowLink={(role) => resolve(toRole(role.id))}
        isLoading={roles.isPending}
        error={roles.error}
        onRetry={() => void roles.refetch()}
        empty={<p className={styles.empty}>{search || type ? t('list.no_match') : t('list.empty')}</p>}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('list.search') }}
        toolbar={
          <Select
            aria-label={t('list.type_filter')}
            className={styles.typeFilter}
            value={type ?? ''}
            onChange={(event) => setFilter('type', event.target.value || undefined)}
            options={[
              { value: '', label: t('list.all_types') },
              ...roleTypes.map((value) => ({ value, label: t(`types.${value}.tag`) })),
            ]}
          />
        }
        pagination={{ page, pageSize, totalCount: roles.data?.total ?? 0, onPageChange: setPage }}
      />
      <Outlet />
    </>
  );
}
