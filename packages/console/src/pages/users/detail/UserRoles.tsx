import type { Role } from '@gatehouse/schemas';
import { useState } from 'react';
import { useAssignUserRoles, useRemoveUserRole, useUserRoleCandidates, useUserRoles } from '../../../api/users.ts';
import { AssignModal } from '../../../components/AssignModal/AssignModal.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { userDisplayName } from '../user-display.ts';
import styles from './Tabs.module.css';
import { useUserOutlet } from './user-context.ts';

/** Roles link to the roles area by path: pages do not import each other's modules (ARCHITECTURE.md). */
const roleLink = (id: string) => `roles/${encodeURIComponent(id)}/permissions`;

/**
 * Spec §2.2 users/{id}/roles: the user roles the user holds (searched and paged on the server), removal with a
 * confirmation that says what the user loses, and 'Assign roles' over the roles they do not hold yet.
 */
export function UserRoles() {
  const { t } = useTranslation('users');
  const { user } = useUserOutlet();
  const resolve = useTenantPath();
  const { page, pageSize, search, setPage, setSearch } = useListParams();
  const roles = useUserRoles(user.id, { page, pageSize, search });
  const candidates = useUserRoleCandidates(user.id);
  const assign = useAssignUserRoles(user.id);
  const remove = useRemoveUserRole(user.id);
  const confirm = useConfirm();
  const toast = useToast();
  const [isAssigning, setAssigning] = useState(false);
  const name = userDisplayName(user) ?? user.id;

  async function removeRole(role: Role) {
    const isConfirmed = await confirm({
      title: t('roles.remove_title'),
      content: t('roles.remove_content', { role: role.name, name }),
      confirmText: t('roles.remove'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync(role.id);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('roles.removed', { role: role.name }));
  }

  const columns: TableColumn<Role>[] = [
    { key: 'name', title: t('roles.name'), render: (role) => role.name },
    {
      key: 'description',
      title: t('roles.description'),
      className: styles.description,
      render: (role) => role.description,
    },
    {
      key: 'actions',
      title: <span className={styles.actionsTitle}>{t('roles.actions')}</span>,
      className: styles.actionsCell,
      render: (role) => (
        <Button
          variant="text"
          size="small"
          aria-label={t('roles.remove_named', { role: role.name })}
          onClick={() => void removeRole(role)}
        >
          {t('roles.remove')}
        </Button>
      ),
    },
  ];

  return (
    <Card
      title={t('roles.title')}
      description={t('roles.description_text')}
      actions={
        <Button variant="primary" icon={<PlusIcon />} onClick={() => setAssigning(true)}>
          {t('roles.assign')}
        </Button>
      }
    >
      <Table
        aria-label={t('roles.title')}
        columns={columns}
        rows={roles.data?.items}
        rowKey={(role) => role.id}
        rowLink={(role) => resolve(roleLink(role.id))}
        isLoading={roles.isPending}
        error={roles.error}
        onRetry={() => void roles.refetch()}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('roles.search') }}
        pagination={{ page, pageSize, totalCount: roles.data?.total ?? 0, onPageChange: setPage }}
        empty={<p className={styles.muted}>{search ? t('roles.no_match') : t('roles.empty')}</p>}
      />
      <AssignModal<Role>
        isOpen={isAssigning}
        onClose={() => setAssigning(false)}
        title={t('roles.assign_title', { name })}
        description={t('roles.assign_description')}
        load={candidates.load}
        queryKey={candidates.queryKey}
        itemKey={(role) => role.id}
        itemLabel={(role) => role.name}
        itemDetail={(role) => role.description}
        onAssign={async (picked) => {
          await assign.mutateAsync(picked.map((role) => role.id));
          toast.success(t('roles.assigned', { number: picked.length }));
        }}
        submitLabel={t('roles.assign_submit')}
      />
    </Card>
  );
}
