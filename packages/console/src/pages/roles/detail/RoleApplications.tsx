import type { Application } from '@gatehouse/schemas';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { useAssignToRole, useRemoveFromRole, useRoleApplications, useRolePickerLoaders } from '../../../api/roles.ts';
import { AssignModal } from '../../../components/AssignModal/AssignModal.tsx';
import { useConfirmedRemoval } from '../../../components/Modal/use-confirmed-removal.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import type { TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toRole } from '../links.ts';
import { AssigneeTable } from './AssigneeTable.tsx';
import styles from './RoleTabs.module.css';
import { useRoleOutlet } from './role-context.ts';

/** Spec §2.2 roles/{id}/machine-to-machine-apps (M2M roles only): the apps holding the role, and assigning more. */
export function RoleApplications() {
  const { role } = useRoleOutlet();
  const resolve = useTenantPath();
  // A user role has no applications tab: its address opens the default tab.
  if (role.type !== 'MachineToMachine') return <Navigate to={resolve(toRole(role.id))} replace />;
  return <RoleApplicationsTab />;
}

function RoleApplicationsTab() {
  const { t } = useTranslation('roles');
  const toast = useToast();
  const { role } = useRoleOutlet();
  const list = useListParams();
  const applications = useRoleApplications(role.id, { page: list.page, pageSize: list.pageSize, search: list.search });
  const removeApplication = useConfirmedRemoval(useRemoveFromRole(role.id, 'applications').mutateAsync);
  const assign = useAssignToRole(role.id, 'applications');
  const loaders = useRolePickerLoaders(role.id);
  const [isAssigning, setAssigning] = useState(false);

  const columns: TableColumn<Application>[] = [
    { key: 'name', title: t('applications.name'), render: (application) => application.name },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.muted,
      render: (application) => application.description ?? '',
    },
  ];

  return (
    <AssigneeTable
      aria-label={t('tabs.machine-to-machine-apps')}
      columns={columns}
      query={applications}
      list={list}
      rowKey={(application) => application.id}
      searchPlaceholder={t('applications.search')}
      emptyText={t('applications.empty')}
      noMatchText={t('applications.no_match')}
      assignLabel={t('applications.assign')}
      onAssign={() => setAssigning(true)}
      removeLabel={(application) => t('applications.remove_label', { name: application.name })}
      onRemove={(application) =>
        removeApplication(application.id, {
          title: t('applications.remove_title'),
          content: t('applications.remove_content', { name: application.name, role: role.name }),
          confirmText: t('remove'),
          done: t('applications.removed', { name: application.name }),
        })
      }
    >
      <AssignModal
        isOpen={isAssigning}
        onClose={() => setAssigning(false)}
        title={t('applications.assign_title')}
        description={t('applications.assign_description', { name: role.name })}
        load={({ search, page, pageSize }, signal) => loaders.applications({ search, page, pageSize }, signal)}
        queryKey={loaders.key('applications')}
        itemKey={(application) => application.id}
        itemLabel={(application) => application.name}
        itemDetail={(application) => application.description || application.id}
        onAssign={async (picked) => {
          await assign.mutateAsync(picked.map((application) => application.id));
          toast.success(t('applications.assigned', { number: picked.length }));
        }}
        submitLabel={t('applications.assign')}
      />
    </AssigneeTable>
  );
}
