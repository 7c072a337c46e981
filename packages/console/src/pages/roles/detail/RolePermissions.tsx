import type { RoleScope } from '@gatehouse/schemas';
import { useState } from 'react';
import { useRemoveFromRole, useRoleScopes } from '../../../api/roles.ts';
import { useConfirmedRemoval } from '../../../components/Modal/use-confirmed-removal.ts';
import type { TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { AssignPermissionsModal } from '../permissions/AssignPermissionsModal.tsx';
import { AssigneeTable } from './AssigneeTable.tsx';
import styles from './RoleTabs.module.css';
import { useRoleOutlet } from './role-context.ts';

/** Spec §2.2 roles/{id}/permissions: the role's scopes with their API, searched and paged on the server. */
export function RolePermissions() {
  const { t } = useTranslation('roles');
  const { role } = useRoleOutlet();
  const list = useListParams();
  const scopes = useRoleScopes(role.id, { page: list.page, pageSize: list.pageSize, search: list.search });
  const removeScope = useConfirmedRemoval(useRemoveFromRole(role.id, 'scopes').mutateAsync);
  const [isAssigning, setAssigning] = useState(false);

  const columns: TableColumn<RoleScope>[] = [
    { key: 'api', title: t('permissions.api'), render: (scope) => scope.resource.name },
    { key: 'name', title: t('permissions.name'), render: (scope) => scope.name },
    {
      key: 'description',
      title: t('fields.description'),
      className: styles.muted,
      render: (scope) => scope.description,
    },
  ];

  return (
    <AssigneeTable
      aria-label={t('tabs.permissions')}
      columns={columns}
      query={scopes}
      list={list}
      rowKey={(scope) => scope.id}
      searchPlaceholder={t('permissions.search')}
      emptyText={t('permissions.empty')}
      noMatchText={t('permissions.no_match')}
      assignLabel={t('permissions.assign')}
      onAssign={() => setAssigning(true)}
      removeLabel={(scope) => t('permissions.remove_label', { name: scope.name, resource: scope.resource.name })}
      onRemove={(scope) =>
        removeScope(scope.id, {
          title: t('permissions.remove_title'),
          content: t(
            role.type === 'User' ? 'permissions.remove_content_users' : 'permissions.remove_content_applications',
            {
              name: scope.name,
              resource: scope.resource.name,
            },
          ),
          confirmText: t('remove'),
          done: t('permissions.removed', { name: scope.name }),
        })
      }
    >
      {isAssigning && <AssignPermissionsModal role={role} onClose={() => setAssigning(false)} />}
    </AssigneeTable>
  );
}
