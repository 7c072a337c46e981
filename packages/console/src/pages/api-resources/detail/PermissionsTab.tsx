import type { Scope } from '@gatehouse/schemas';
import { useState } from 'react';
import { useDeleteScope, useScopes } from '../../../api/resources.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import shared from '../../../components/shared.module.css';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../ApiResources.module.css';
import { BuiltInNotice } from './BuiltInNotice.tsx';
import { CreatePermissionModal } from './CreatePermissionModal.tsx';
import { EditPermissionModal } from './EditPermissionModal.tsx';
import { useResourceContext } from './resource-context.ts';

/** The resource's permissions (scopes): searched and paged on the server; created, described and deleted here. */
export function PermissionsTab() {
  const { t } = useTranslation('api_resources');
  const { resource, isBuiltIn } = useResourceContext();
  const { page, pageSize, search, setPage, setSearch } = useListParams();
  const scopes = useScopes(resource.id, { page, pageSize, search });
  const deleteScope = useDeleteScope(resource.id);
  const confirm = useConfirm();
  const toast = useToast();
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'edit'; scope: Scope } | undefined>();

  async function remove(scope: Scope) {
    const confirmed = await confirm({
      title: t('permissions.delete_title'),
      content: t('permissions.delete_confirm', { name: scope.name }),
      confirmText: t('permissions.delete'),
      isDanger: true,
    });
    if (!confirmed) return;
    try {
      await deleteScope.mutateAsync(scope.id);
      toast.success(t('permissions.deleted', { name: scope.name }));
      // The last row of a later page is gone: show the page before it.
      if (scopes.data?.items.length === 1 && page > 1) setPage(page - 1);
    } catch {
      // The query client has shown the server's message.
    }
  }

  const columns: TableColumn<Scope>[] = [
    {
      key: 'name',
      title: t('permissions.name'),
      render: (scope) => <code className={styles.indicator}>{scope.name}</code>,
    },
    {
      key: 'description',
      title: t('permissions.description'),
      render: (scope) => scope.description || <span className={styles.muted}>{t('permissions.no_description')}</span>,
    },
  ];
  if (!isBuiltIn) {
    columns.push({
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('permissions.actions')}</span>,
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
            onClick={() => remove(scope)}
          >
            {t('permissions.delete')}
          </Button>
        </span>
      ),
    });
  }

  return (
    <div className={styles.tab}>
      {isBuiltIn && <BuiltInNotice />}
      <Table
        aria-label={t('permissions.label')}
        columns={columns}
        rows={scopes.data?.items}
        rowKey={(scope) => scope.id}
        isLoading={scopes.isPending}
        error={scopes.error}
        onRetry={() => scopes.refetch()}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('permissions.search') }}
        pagination={{ page, pageSize, totalCount: scopes.data?.total ?? 0, onPageChange: setPage }}
        empty={<p className={styles.empty}>{search ? t('permissions.empty_search') : t('permissions.empty')}</p>}
        toolbar={
          !isBuiltIn && (
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setDialog({ kind: 'create' })}>
              {t('permissions.create')}
            </Button>
          )
        }
      />
      {dialog?.kind === 'create' && (
        <CreatePermissionModal resourceId={resource.id} onClose={() => setDialog(undefined)} />
      )}
      {dialog?.kind === 'edit' && (
        <EditPermissionModal resourceId={resource.id} scope={dialog.scope} onClose={() => setDialog(undefined)} />
      )}
    </div>
  );
}
