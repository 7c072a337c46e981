import type { OrganizationMember } from '@gatehouse/schemas';
import { useState } from 'react';
import {
  useAddToOrganization,
  useOrganizationMembers,
  useOrganizationPickerLoaders,
  useRemoveFromOrganization,
} from '../../../api/organizations.ts';
import { AssignModal } from '../../../components/AssignModal/AssignModal.tsx';
import { Avatar } from '../../../components/Avatar/Avatar.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { EmailText } from '../../../components/EmailText.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { useConfirmedRemoval } from '../../../components/Modal/use-confirmed-removal.ts';
import shared from '../../../components/shared.module.css';
import { serverErrorIds } from '../../../components/submit/server-errors.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Organizations.module.css';
import { EditRolesModal } from './EditRolesModal.tsx';
import { OrganizationInvitations } from './OrganizationInvitations.tsx';
import { useOrganizationOutlet } from './organization-context.ts';
import { RoleChips } from './RoleChips.tsx';

type Person = {
  id: string;
  name: string | null;
  username: string | null;
  primaryEmail: string | null;
  primaryPhone: string | null;
};

/** What names a user in a list: the name, else the username, else an email or phone, else the id. */
export const userLabel = (user: Person): string =>
  user.name || user.username || user.primaryEmail || user.primaryPhone || user.id;

/**
 * Spec §2.2 organizations/{id}/members: members with their organization role chips; add, edit roles, remove. Below
 * them, the organization's invitations.
 */
export function OrganizationMembers() {
  const { t } = useTranslation('organizations');
  const toast = useToast();
  const { organization } = useOrganizationOutlet();
  const { page, pageSize, search, setPage, setSearch } = useListParams();
  const members = useOrganizationMembers(organization.id, { page, pageSize, search });
  const add = useAddToOrganization(organization.id, 'users');
  const remove = useConfirmedRemoval(useRemoveFromOrganization(organization.id, 'users').mutateAsync);
  const loaders = useOrganizationPickerLoaders(organization.id);
  const [isAdding, setAdding] = useState(false);
  const [editing, setEditing] = useState<OrganizationMember>();
  // Members the page shows, and those the server said were already members: not offered again.
  const [knownMembers, setKnownMembers] = useState<ReadonlySet<string>>(new Set());
  const isMember = (id: string) => knownMembers.has(id) || (members.data?.items.some((m) => m.id === id) ?? false);

  const columns: TableColumn<OrganizationMember>[] = [
    {
      key: 'user',
      title: t('members.user'),
      render: (user) => (
        <span className={styles.person}>
          <Avatar src={user.avatar} name={user.name} username={user.username} email={user.primaryEmail} size="small" />
          <span className={styles.personText}>
            <span>
              <UserText>{userLabel(user)}</UserText>
            </span>
            {user.primaryEmail && user.primaryEmail !== userLabel(user) && (
              <span className={styles.muted}>
                <EmailText>{user.primaryEmail}</EmailText>
              </span>
            )}
          </span>
        </span>
      ),
    },
    {
      key: 'roles',
      title: t('members.roles'),
      render: (user) => <RoleChips roles={user.organizationRoles} />,
    },
    {
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('actions')}</span>,
      className: styles.actionsCell,
      render: (user) => (
        <>
          <Button
            variant="text"
            size="small"
            aria-label={t('members.edit_roles_named', { name: userLabel(user) })}
            onClick={() => setEditing(user)}
          >
            {t('members.edit_roles')}
          </Button>
          <Button
            variant="text"
            size="small"
            aria-label={t('members.remove_named', { name: userLabel(user) })}
            onClick={() =>
              void remove(user.id, {
                title: t('members.remove_title'),
                content: t('members.remove_content', { name: userLabel(user), organization: organization.name }),
                confirmText: t('remove'),
                done: t('members.removed', { name: userLabel(user) }),
              })
            }
          >
            {t('remove')}
          </Button>
        </>
      ),
    },
  ];

  return (
    <>
      <Table
        aria-label={t('tabs.members')}
        columns={columns}
        rows={members.data?.items}
        rowKey={(user) => user.id}
        isLoading={members.isPending}
        error={members.error}
        onRetry={() => void members.refetch()}
        empty={<p className={styles.empty}>{search ? t('members.no_match') : t('members.empty')}</p>}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('members.search') }}
        toolbar={
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setAdding(true)}>
            {t('members.add')}
          </Button>
        }
        pagination={{ page, pageSize, totalCount: members.data?.total ?? 0, onPageChange: setPage }}
      />
      <AssignModal
        isOpen={isAdding}
        onClose={() => setAdding(false)}
        title={t('members.add_title')}
        description={t('members.add_description', { name: organization.name })}
        load={(query, signal) => loaders.users(query, signal)}
        queryKey={loaders.key('users')}
        itemKey={(user) => user.id}
        itemLabel={userLabel}
        itemDetail={(user) => [user.primaryEmail, user.primaryPhone, user.id].filter(Boolean).join(' · ')}
        unavailableReason={(user) => (isMember(user.id) ? t('members.already_member') : undefined)}
        onAssign={async (picked) => {
          try {
            await add.mutateAsync(picked.map((user) => user.id));
          } catch (error) {
            const ids = serverErrorIds(error, 'organization.user_exists');
            if (ids?.length) setKnownMembers((current) => new Set([...current, ...ids]));
            throw error;
          }
          toast.success(t('members.added', { number: picked.length }));
        }}
        submitLabel={t('members.add')}
      />
      {editing && (
        <EditRolesModal
          organizationId={organization.id}
          relation="users"
          relatedId={editing.id}
          name={userLabel(editing)}
          held={editing.organizationRoles}
          onClose={() => setEditing(undefined)}
        />
      )}
      <OrganizationInvitations />
    </>
  );
}
