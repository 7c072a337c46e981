import { type OrganizationRoleType, type OrganizationRoleWithScopes, organizationRoleTypes } from '@gatehouse/schemas';
import { LayoutTemplate } from 'lucide';
import { Outlet, useNavigate } from 'react-router';
import { useOrganizationRoles } from '../../../api/organization-template.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { EmptyState, NoResults } from '../../../components/EmptyState/EmptyState.tsx';
import { showsEmptyState } from '../../../components/EmptyState/shows-empty-state.ts';
import { Select } from '../../../components/form/Select.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { toCreateOrganizationRole, toOrganizationRole } from '../links.ts';
import { OrganizationRoleTypeTag } from '../OrganizationRoleTypeTag.tsx';
import styles from '../OrganizationTemplate.module.css';

const isRoleType = (value: string | null): value is OrganizationRoleType =>
  organizationRoleTypes.some((type) => type === value);

/** The template's roles: server-side search, a type filter and 20 rows a page, kept in the URL. */
export function OrganizationRolesTab() {
  const { t } = useTranslation('organization_template');
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const { page, pageSize, search, params, setPage, setSearch, setFilter } = useListParams();
  const typeParam = params.get('type');
  const type = isRoleType(typeParam) ? typeParam : undefined;
  const roles = useOrganizationRoles({ page, pageSize, search, type });

  const columns: TableColumn<OrganizationRoleWithScopes>[] = [
    { key: 'name', title: t('fields.name'), render: (role) => role.name },
    { key: 'type', title: t('fields.type'), render: (role) => <OrganizationRoleTypeTag type={role.type} /> },
    {
      key: 'permissions',
      title: t('fields.permissions'),
      render: (role) =>
        role.scopes.length + role.resourceScopes.length === 0 ? (
          <span className={styles.muted}>{t('roles.no_permissions')}</span>
        ) : (
          t('roles.permission_counts', { organization: role.scopes.length, api: role.resourceScopes.length })
        ),
    },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.description,
      render: (role) => role.description,
    },
  ];

  const createButton = (
    <Button
      variant="primary"
      icon={<PlusIcon />}
      // Keeps the list's query, so closing the dialog returns to the same rows.
      onClick={() => navigate({ pathname: resolve(toCreateOrganizationRole()), search: params.toString() })}
    >
      {t('roles.create')}
    </Button>
  );

  return (
    <>
      <Table
        aria-label={t('tabs.organization-roles')}
        columns={columns}
        rows={roles.data?.items}
        rowKey={(role) => role.id}
        rowLink={(role) => resolve(toOrganizationRole(role.id))}
        isLoading={roles.isPending}
        error={roles.error}
        onRetry={() => void roles.refetch()}
        empty={
          search || type ? (
            <NoResults search={search}>{t('roles.no_match')}</NoResults>
          ) : (
            <EmptyState
              icon={LayoutTemplate}
              title={t('roles.empty')}
              description={t('roles.empty_description')}
              action={createButton}
            />
          )
        }
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('roles.search') }}
        toolbar={
          <>
            <Select
              aria-label={t('roles.type_filter')}
              className={styles.typeFilter}
              value={type ?? ''}
              onChange={(event) => setFilter('type', event.target.value || undefined)}
              options={[
                { value: '', label: t('roles.all_types') },
                ...organizationRoleTypes.map((value) => ({ value, label: t(`types.${value}.tag`) })),
              ]}
            />
            {!showsEmptyState(roles, Boolean(search || type)) && createButton}
          </>
        }
        pagination={{ page, pageSize, totalCount: roles.data?.total ?? 0, onPageChange: setPage }}
      />
      <Outlet />
    </>
  );
}
