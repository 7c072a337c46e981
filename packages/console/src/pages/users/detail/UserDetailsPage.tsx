import type { User } from '@gatehouse/schemas';
import { useState } from 'react';
import { Outlet, useNavigate, useParams } from 'react-router';
import { useDeleteUser, useSetUserSuspension, useUser } from '../../../api/users.ts';
import { Avatar } from '../../../components/Avatar/Avatar.tsx';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { TrashIcon } from '../../../components/icons.tsx';
import type { MenuEntry } from '../../../components/Menu/menu-entries.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toUser, toUsers, userTabs } from '../links.ts';
import { ResetPasswordModal } from '../password/ResetPasswordModal.tsx';
import { userDisplayName } from '../user-display.ts';
import { ScimMarker } from './ScimMarker.tsx';
import type { UserOutletContext } from './user-context.ts';

/** Spec §2.2 users/{id}: the user's header ('…': reset password, suspend or reactivate, delete) and tabs. */
export function UserDetailsPage() {
  const { t } = useTranslation('users');
  const { userId = '' } = useParams();
  const resolve = useTenantPath();
  const user = useUser(userId);
  const [isResetting, setResetting] = useState(false);
  const actions = useUserActions(user.data, () => setResetting(true));
  const name = user.data && (userDisplayName(user.data) ?? t('unnamed'));
  return (
    <DetailPage
      backTo={resolve(toUsers())}
      backLabel={t('back')}
      isLoading={user.isPending}
      error={user.error}
      onRetry={() => void user.refetch()}
      title={name}
      meta={
        user.data && (
          <>
            <Avatar
              src={user.data.avatar}
              name={user.data.name}
              username={user.data.username}
              email={user.data.primaryEmail}
              size="small"
            />
            {user.data.isSuspended && <Tag status="error">{t('status.suspended')}</Tag>}
            <ScimMarker userId={user.data.id} />
          </>
        )
      }
      id={user.data?.id}
      actions={actions}
      tabs={userTabs.map((tab) => ({ to: resolve(toUser(userId, tab)), label: t(`tabs.${tab}`) }))}
    >
      {user.data && <Outlet context={{ user: user.data } satisfies UserOutletContext} />}
      {user.data && isResetting && <ResetPasswordModal user={user.data} onClose={() => setResetting(false)} />}
    </DetailPage>
  );
}

/** The '…' menu: reset password, suspend or reactivate (confirmed, with what it does), delete (danger). */
function useUserActions(user: User | undefined, resetPassword: () => void): MenuEntry[] {
  const { t } = useTranslation('users');
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const setSuspension = useSetUserSuspension(user?.id ?? '');
  const deleteUser = useDeleteUser(user?.id ?? '');
  if (!user) return [];
  const name = userDisplayName(user) ?? user.id;

  /** Runs a confirmed write; the API layer has shown why it failed. */
  async function attempt(write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      if (handleSubmitError(error, toast)) return false;
      throw error;
    }
  }

  async function toggleSuspension() {
    const suspend = !user?.isSuspended;
    const isConfirmed = await confirm(
      suspend
        ? {
            title: t('suspend.title'),
            content: t('suspend.content', { name }),
            confirmText: t('suspend.confirm'),
            isDanger: true,
          }
        : {
            title: t('reactivate.title'),
            content: t('reactivate.content', { name }),
            confirmText: t('reactivate.confirm'),
          },
    );
    if (!isConfirmed || !(await attempt(() => setSuspension.mutateAsync(suspend)))) return;
    toast.success(suspend ? t('suspend.done', { name }) : t('reactivate.done', { name }));
  }

  async function remove() {
    const isConfirmed = await confirm({
      title: t('delete.title'),
      content: t('delete.content', { name }),
      confirmText: t('delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed || !(await attempt(() => deleteUser.mutateAsync()))) return;
    toast.success(t('delete.deleted', { name }));
    await navigate(resolve(toUsers()), { replace: true });
  }

  return [
    { kind: 'action', id: 'reset-password', label: t('password.reset_action'), onSelect: resetPassword },
    {
      kind: 'action',
      id: 'suspension',
      label: user.isSuspended ? t('reactivate.action') : t('suspend.action'),
      onSelect: () => void toggleSuspension(),
    },
    { kind: 'separator', id: 'before-delete' },
    { kind: 'action', id: 'delete', label: t('delete.action'), icon: <TrashIcon />, onSelect: () => void remove() },
  ];
}
