import type { Role } from '@gatehouse/schemas';
import { Outlet, useNavigate, useParams } from 'react-router';
import { useDeleteRole, useRole, useRoleAssigneeCounter } from '../../../api/roles.ts';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { TrashIcon } from '../../../components/icons.tsx';
import type { MenuEntry } from '../../../components/Menu/menu-entries.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { type RoleTab, toRole, toRoles } from '../links.ts';
import { RoleTypeTag } from '../RoleTypeTag.tsx';
import type { RoleOutletContext } from './role-context.ts';

/** Spec §2.2 roles/{id}: the role's header and its tabs; the users tab is for user roles, the apps tab for M2M. */
export function RoleDetailsPage() {
  const { t } = useTranslation('roles');
  const { roleId = '' } = useParams();
  const resolve = useTenantPath();
  const role = useRole(roleId);
  const remove = useDeleteAction(role.data);
  const tabs: RoleTab[] = [
    'permissions',
    role.data?.type === 'MachineToMachine' ? 'machine-to-machine-apps' : 'users',
    'general',
  ];
  return (
    <DetailPage
      backTo={resolve(toRoles())}
      backLabel={t('back')}
      isLoading={role.isPending}
      error={role.error}
      onRetry={() => void role.refetch()}
      title={role.data?.name}
      meta={role.data && <RoleTypeTag type={role.data.type} />}
      id={role.data?.id}
      actions={remove ? [remove] : []}
      tabs={tabs.map((tab) => ({ to: resolve(toRole(roleId, tab)), label: t(`tabs.${tab}`) }))}
    >
      {role.data && <Outlet context={{ role: role.data } satisfies RoleOutletContext} />}
    </DetailPage>
  );
}

/** The '…' menu's Delete: a danger confirmation that says who loses the role, then back to the list. */
function useDeleteAction(role: Role | undefined): MenuEntry | undefined {
  const { t } = useTranslation('roles');
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const countAssignees = useRoleAssigneeCounter(role?.id ?? '');
  const deleteRole = useDeleteRole(role?.id ?? '');
  if (!role) return undefined;
  const isUserRole = role.type === 'User';

  async function run(current: Role) {
    // One request for one row tells how many hold the role; if it fails, the text speaks of all of them.
    const number = await countAssignees(isUserRole ? 'users' : 'applications').catch(() => undefined);
    const content =
      number === undefined
        ? t(isUserRole ? 'delete.content_users' : 'delete.content_applications', { name: current.name })
        : t(isUserRole ? 'delete.content_users_count' : 'delete.content_applications_count', {
            name: current.name,
            number,
          });
    const isConfirmed = await confirm({
      title: t('delete.title'),
      content,
      confirmText: t('delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteRole.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('delete.deleted', { name: current.name }));
    await navigate(resolve(toRoles()), { replace: true });
  }

  return {
    kind: 'action',
    id: 'delete',
    label: t('delete.action'),
    icon: <TrashIcon />,
    onSelect: () => void run(role),
  };
}
