import type { OrganizationScope, RoleScope } from '@gatehouse/schemas';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Page } from '../../../api/client.ts';
import {
  type OrganizationRolePermissionKind,
  useOrganizationRoleResourceScopes,
  useOrganizationRoleScopes,
  useRemoveFromOrganizationRole,
} from '../../../api/organization-template.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import shared from '../../../components/shared.module.css';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { listPageSize } from '../../../components/Table/use-list-params.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../OrganizationTemplate.module.css';
import { AssignPermissionsModal } from './AssignPermissionsModal.tsx';
import { useOrganizationRoleOutlet } from './role-context.ts';

/**
 * organization-template/organization-roles/{id}/permissions: the role's organization permissions and its API resource
 * permissions, each searched and paged on the server; one dialog assigns both kinds.
 */
export function RolePermissionsTab() {
  const { t } = useTranslation('organization_template');
  const { role } = useOrganizationRoleOutlet();
  const [isAssigning, setAssigning] = useState(false);
  const organizationList = useLocalListParams();
  const organization = useOrganizationRoleScopes(role.id, organizationList.query);
  const apiList = useLocalListParams();
  const api = useOrganizationRoleResourceScopes(role.id, apiList.query);
  const removeOrganization = useRemovePermission(role.id, role.name, 'scopes');
  const removeApi = useRemovePermission(role.id, role.name, 'resource-scopes');

  const organizationColumns: TableColumn<OrganizationScope>[] = [
    { key: 'name', title: t('fields.name'), render: (scope) => <code className={styles.name}>{scope.name}</code> },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.description,
      render: (scope) => scope.description,
    },
    removeColumn((scope) => scope.name, removeOrganization),
  ];
  const apiColumns: TableColumn<RoleScope>[] = [
    { key: 'name', title: t('fields.name'), render: (scope) => <code className={styles.name}>{scope.name}</code> },
    { key: 'api', title: t('detail.api_resource'), render: (scope) => scope.resource.name },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.description,
      render: (scope) => scope.description,
    },
    removeColumn((scope) => scope.name, removeApi),
  ];

  function removeColumn<Row extends { id: string }>(
    nameOf: (row: Row) => string,
    remove: (id: string, name: string) => Promise<unknown>,
  ): TableColumn<Row> {
    return {
      key: 'remove',
      title: <span className={shared.visuallyHidden}>{t('actions')}</span>,
      className: styles.actionsCell,
      render: (row) => (
        <Button
          variant="text"
          size="small"
          icon={<TrashIcon />}
          aria-label={t('detail.remove_label', { name: nameOf(row) })}
          title={t('detail.remove_label', { name: nameOf(row) })}
          onClick={() => remove(row.id, nameOf(row))}
        />
      ),
    };
  }

  return (
    <div className={styles.tab}>
      <div>
        <Button variant="primary" icon={<PlusIcon />} onClick={() => setAssigning(true)}>
          {t('detail.assign')}
        </Button>
      </div>
      <section className={styles.section} aria-label={t('detail.organization_permissions')}>
        <h2 className={styles.sectionTitle}>{t('detail.organization_permissions')}</h2>
        <PermissionTable
          aria-label={t('detail.organization_permissions')}
          columns={organizationColumns}
          query={organization}
          list={organizationList}
          searchPlaceholder={t('detail.search_organization')}
          emptyText={t('detail.empty_organization')}
        />
      </section>
      <section className={styles.section} aria-label={t('detail.api_permissions')}>
        <h2 className={styles.sectionTitle}>{t('detail.api_permissions')}</h2>
        <PermissionTable
          aria-label={t('detail.api_permissions')}
          columns={apiColumns}
          query={api}
          list={apiList}
          searchPlaceholder={t('detail.search_api')}
          emptyText={t('detail.empty_api')}
        />
      </section>
      {isAssigning && <AssignPermissionsModal role={role} onClose={() => setAssigning(false)} />}
    </div>
  );
}

/** One of the tab's two lists: its own page and search (two lists cannot share the URL's). */
function useLocalListParams() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  return { page, setPage, search, setSearch, query: { page, pageSize: listPageSize, search } };
}

function PermissionTable<Row extends { id: string }>({
  'aria-label': ariaLabel,
  columns,
  query,
  list,
  searchPlaceholder,
  emptyText,
}: {
  'aria-label': string;
  columns: TableColumn<Row>[];
  query: UseQueryResult<Page<Row>>;
  list: ReturnType<typeof useLocalListParams>;
  searchPlaceholder: string;
  emptyText: string;
}) {
  const { t } = useTranslation('organization_template');
  const { page, setPage, search, setSearch } = list;
  const total = query.data?.total;
  // Removing the last row of the last page leaves an empty page: step back to the one that now ends the list.
  useEffect(() => {
    if (total === undefined || query.isPlaceholderData) return;
    const lastPage = Math.max(1, Math.ceil(total / listPageSize));
    if (page > lastPage) setPage(lastPage);
  }, [total, page, setPage, query.isPlaceholderData]);
  return (
    <Table
      aria-label={ariaLabel}
      columns={columns}
      rows={query.data?.items}
      rowKey={(row) => row.id}
      isLoading={query.isPending}
      error={query.error}
      onRetry={() => void query.refetch()}
      empty={<p className={styles.empty}>{search ? t('detail.no_match') : emptyText}</p>}
      search={{
        onSearch: (text) => {
          setSearch(text);
          setPage(1);
        },
        defaultValue: search,
        placeholder: searchPlaceholder,
      }}
      pagination={{ page, pageSize: listPageSize, totalCount: query.data?.total ?? 0, onPageChange: setPage }}
    />
  );
}

/** Removal of one permission: a danger confirmation that says who loses it, then a toast. */
function useRemovePermission(roleId: string, roleName: string, kind: OrganizationRolePermissionKind) {
  const { t } = useTranslation('organization_template');
  const confirm = useConfirm();
  const toast = useToast();
  const remove = useRemoveFromOrganizationRole(roleId, kind);
  return async (id: string, name: string) => {
    const isConfirmed = await confirm({
      title: t('detail.remove_title'),
      content: t('detail.remove_content', { name, role: roleName }),
      confirmText: t('remove'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync(id);
      toast.success(t('detail.removed', { name }));
    } catch (error) {
      if (!handleSubmitError(error, toast)) throw error;
    }
  };
}
