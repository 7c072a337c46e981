import type { OrganizationScope } from '@gatehouse/schemas';
import { LayoutTemplate } from 'lucide';
import { useState } from 'react';
import {
  useDeleteOrganizationScope,
  useOrganizationScopes,
  useRolesHoldingScope,
} from '../../../api/organization-template.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { EmptyState, NoResults } from '../../../components/EmptyState/EmptyState.tsx';
import { showsEmptyState } from '../../../components/EmptyState/shows-empty-state.ts';
import { PlusIcon } from '../../../components/icons.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import shared from '../../../components/shared.module.css';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../OrganizationTemplate.module.css';
import { CreatePermissionModal, EditPermissionModal } from './PermissionModals.tsx';

/** The template's organization permissions: searched and paged on the server; created, described and deleted here. */
export function OrganizationPermissionsTab() {
  const { t } = useTranslation('organization_template');
  const { page, pageSize, search, setPage, setSearch } = useListParams();
  const scopes = useOrganizationScopes({ page, pageSize, search });
  const remove = useDeletePermission();
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'edit'; scope: OrganizationScope } | undefined>();

  const columns: TableColumn<OrganizationScope>[] = [
    {
      key: 'name',
      title: t('fields.name'),
      render: (scope) => <code className={styles.name}>{scope.name}</code>,
    },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.description,
      render: (scope) => scope.description || <span className={styles.muted}>{t('permissions.no_description')}</span>,
    },
    {
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('actions')}</span>,
      className: styles.actionsCell,
      render: (scope) => (
        <span className={styles.rowActions}>
          <Button
            variant="text"
            size="small"
            aria-label={t('permissions.edit_named', { name: scope.name })}
            onClick={() => setDialog({ kind: 'edit', scope })}
          >
            {t('permissions.edit')}
          </Button>
          <Button
            variant="text"
            size="small"
            aria-label={t('permissions.delete_named', { name: scope.name })}
            onClick={async () => {
              const isDeleted = await remove(scope);
              // The last row of a later page is gone: show the page before it.
              if (isDeleted && scopes.data?.items.length === 1 && page > 1) setPage(page - 1);
            }}
          >
            {t('permissions.delete')}
          </Button>
        </span>
      ),
    },
  ];

  const createButton = (
    <Button variant="primary" icon={<PlusIcon />} onClick={() => setDialog({ kind: 'create' })}>
      {t('permissions.create')}
    </Button>
  );

  return (
    <>
      <Table
        aria-label={t('tabs.organization-permissions')}
        columns={columns}
        rows={scopes.data?.items}
        rowKey={(scope) => scope.id}
        isLoading={scopes.isPending}
        error={scopes.error}
        onRetry={() => void scopes.refetch()}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('permissions.search') }}
        pagination={{ page, pageSize, totalCount: scopes.data?.total ?? 0, onPageChange: setPage }}
        empty={
          search ? (
            <NoResults search={search} />
          ) : (
            <EmptyState
              icon={LayoutTemplate}
              title={t('permissions.empty')}
              description={t('permissions.empty_description')}
              action={createButton}
            />
          )
        }
        toolbar={showsEmptyState(scopes, Boolean(search)) ? undefined : createButton}
      />
      {dialog?.kind === 'create' && <CreatePermissionModal onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'edit' && <EditPermissionModal scope={dialog.scope} onClose={() => setDialog(undefined)} />}
    </>
  );
}

/** Delete after a danger confirmation naming the organization roles that lose the permission. */
function useDeletePermission() {
  const { t } = useTranslation('organization_template');
  const confirm = useConfirm();
  const toast = useToast();
  const rolesHolding = useRolesHoldingScope();
  const deleteScope = useDeleteOrganizationScope();
  return async (scope: OrganizationScope): Promise<boolean> => {
    // If the roles cannot be read, the text speaks of all roles holding it rather than blocking the delete.
    const holding = await rolesHolding(scope.id).catch(() => undefined);
    const roles = holding?.roles.map((role) => role.name).join(', ');
    const content = !holding
      ? t('permissions.delete_unknown', { name: scope.name })
      : holding.roles.length === 0 && holding.isComplete
        ? t('permissions.delete_no_roles', { name: scope.name })
        : t(holding.isComplete ? 'permissions.delete_roles' : 'permissions.delete_roles_more', {
            name: scope.name,
            roles,
          });
    const isConfirmed = await confirm({
      title: t('permissions.delete_title'),
      content,
      confirmText: t('permissions.delete'),
      isDanger: true,
    });
    if (!isConfirmed) return false;
    try {
      await deleteScope.mutateAsync(scope.id);
    } catch (error) {
      if (handleSubmitError(error, toast)) return false;
      throw error;
    }
    toast.success(t('permissions.deleted', { name: scope.name }));
    return true;
  };
}
