import type { Role } from '@gatehouse/schemas';
import { useState } from 'react';
import { Navigate } from 'react-router';
import {
  useApplicationRoles,
  useAssignApplicationRoles,
  useRemoveApplicationRole,
  useRoleCandidates,
} from '../../../../api/applications.ts';
import { AssignModal } from '../../../../components/AssignModal/AssignModal.tsx';
import { Button } from '../../../../components/Button/Button.tsx';
import { Card } from '../../../../components/Card/Card.tsx';
import { PlusIcon } from '../../../../components/icons.tsx';
import { useConfirm } from '../../../../components/Modal/confirm-context.ts';
import { Table, type TableColumn } from '../../../../components/Table/Table.tsx';
import { useListParams } from '../../../../components/Table/use-list-params.ts';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { traitsOf } from '../../application-types.ts';
import { useApplicationOutlet } from '../ApplicationDetailPage.tsx';
import styles from './RolesTab.module.css';

/** Spec §2.2 roles tab, for machine-to-machine applications only: the roles whose permissions its tokens carry. */
export function RolesTab() {
  const { application } = useApplicationOutlet();
  if (!traitsOf(application.type).roles) return <Navigate to="../settings" replace />;
  return <ApplicationRoles applicationId={application.id} applicationName={application.name} />;
}

function ApplicationRoles({ applicationId, applicationName }: { applicationId: string; applicationName: string }) {
  const { t } = useTranslation('applications');
  const { page, pageSize, search, setPage, setSearch } = useListParams();
  const roles = useApplicationRoles(applicationId, { page, pageSize, search });
  const candidates = useRoleCandidates(applicationId);
  const assign = useAssignApplicationRoles(applicationId);
  const remove = useRemoveApplicationRole(applicationId);
  const confirm = useConfirm();
  const toast = useToast();
  const [isAssigning, setAssigning] = useState(false);

  async function removeRole(role: Role) {
    const confirmed = await confirm({
      title: t('roles.remove_title'),
      content: t('roles.remove_confirm', { role: role.name, name: applicationName }),
      confirmText: t('roles.remove'),
      isDanger: true,
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(role.id);
    } catch {
      return; // The API layer has shown why.
    }
    toast.success(t('roles.removed', { role: role.name }));
  }

  const columns: TableColumn<Role>[] = [
    { key: 'name', title: t('roles.name'), render: (role) => role.name },
    { key: 'description', title: t('roles.description'), render: (role) => role.description },
    {
      key: 'actions',
      title: <span className={styles.actionsTitle}>{t('roles.actions')}</span>,
      className: styles.actionsCell,
      render: (role) => (
        <Button
          variant="text"
          size="small"
          aria-label={t('roles.remove_named', { role: role.name })}
          onClick={() => removeRole(role)}
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
        isLoading={roles.isPending}
        error={roles.error}
        onRetry={() => void roles.refetch()}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('roles.search') }}
        pagination={{ page, pageSize, totalCount: roles.data?.total ?? 0, onPageChange: setPage }}
        empty={<p className={styles.empty}>{search ? t('roles.no_match') : t('roles.empty')}</p>}
      />
      <AssignModal<Role>
        isOpen={isAssigning}
        onClose={() => setAssigning(false)}
        title={t('roles.assign_title', { name: applicationName })}
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
