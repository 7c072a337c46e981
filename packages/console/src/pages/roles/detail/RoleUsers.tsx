import { useState } from 'react';
import { Navigate } from 'react-router';
import {
  type RoleUserItem,
  useAssignToRole,
  useRemoveFromRole,
  useRolePickerLoaders,
  useRoleUsers,
} from '../../../api/roles.ts';
import { AssignModal } from '../../../components/AssignModal/AssignModal.tsx';
import { Avatar } from '../../../components/Avatar/Avatar.tsx';
import { EmailText } from '../../../components/EmailText.tsx';
import { useConfirmedRemoval } from '../../../components/Modal/use-confirmed-removal.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import type { TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toRole } from '../links.ts';
import { AssigneeTable } from './AssigneeTable.tsx';
import styles from './RoleTabs.module.css';
import { useRoleOutlet } from './role-context.ts';

/** What names a user in a list: the name, else the username, else an email or phone, else the id. */
export const userLabel = (user: RoleUserItem): string =>
  user.name || user.username || user.primaryEmail || user.primaryPhone || user.id;

/** Spec §2.2 roles/{id}/users (user roles only): the users holding the role, and assigning more. */
export function RoleUsers() {
  const { role } = useRoleOutlet();
  const resolve = useTenantPath();
  // A machine-to-machine role has no users tab: its address opens the default tab.
  if (role.type !== 'User') return <Navigate to={resolve(toRole(role.id))} replace />;
  return <RoleUsersTab />;
}

function RoleUsersTab() {
  const { t } = useTranslation('roles');
  const toast = useToast();
  const { role } = useRoleOutlet();
  const list = useListParams();
  const users = useRoleUsers(role.id, { page: list.page, pageSize: list.pageSize, search: list.search });
  const removeUser = useConfirmedRemoval(useRemoveFromRole(role.id, 'users').mutateAsync);
  const assign = useAssignToRole(role.id, 'users');
  const loaders = useRolePickerLoaders(role.id);
  const [isAssigning, setAssigning] = useState(false);

  const columns: TableColumn<RoleUserItem>[] = [
    {
      key: 'user',
      title: t('users.user'),
      render: (user) => (
        <span className={styles.person}>
          <Avatar src={user.avatar} name={user.name} username={user.username} email={user.primaryEmail} size="small" />
          <span className={styles.personText}>
            <span>
              <UserText>{userLabel(user)}</UserText>
            </span>
            {user.username && user.username !== userLabel(user) && (
              <span className={styles.muted}>
                <UserText>{user.username}</UserText>
              </span>
            )}
          </span>
        </span>
      ),
    },
    // Each value once a row: an email or phone that already names the user is not repeated in its column.
    {
      key: 'email',
      title: t('users.email'),
      className: styles.muted,
      render: (user) =>
        user.primaryEmail && user.primaryEmail !== userLabel(user) ? <EmailText>{user.primaryEmail}</EmailText> : '',
    },
    {
      key: 'phone',
      title: t('users.phone'),
      className: styles.muted,
      noWrap: true,
      render: (user) => (user.primaryPhone && user.primaryPhone !== userLabel(user) ? user.primaryPhone : ''),
    },
  ];

  return (
    <AssigneeTable
      aria-label={t('tabs.users')}
      columns={columns}
      query={users}
      list={list}
      rowKey={(user) => user.id}
      searchPlaceholder={t('users.search')}
      emptyText={t('users.empty')}
      noMatchText={t('users.no_match')}
      assignLabel={t('users.assign')}
      onAssign={() => setAssigning(true)}
      removeLabel={(user) => t('users.remove_label', { name: userLabel(user) })}
      onRemove={(user) =>
        removeUser(user.id, {
          title: t('users.remove_title'),
          content: t('users.remove_content', { name: userLabel(user), role: role.name }),
          confirmText: t('remove'),
          done: t('users.removed', { name: userLabel(user) }),
        })
      }
    >
      <AssignModal
        isOpen={isAssigning}
        onClose={() => setAssigning(false)}
        title={t('users.assign_title')}
        description={t('users.assign_description', { name: role.name })}
        load={({ search, page, pageSize }, signal) => loaders.users({ search, page, pageSize }, signal)}
        queryKey={loaders.key('users')}
        itemKey={(user) => user.id}
        itemLabel={userLabel}
        itemDetail={(user) => [user.primaryEmail, user.primaryPhone, user.id].filter(Boolean).join(' · ')}
        onAssign={async (picked) => {
          await assign.mutateAsync(picked.map((user) => user.id));
          toast.success(t('users.assigned', { number: picked.length }));
        }}
        submitLabel={t('users.assign')}
      />
    </AssigneeTable>
  );
}
