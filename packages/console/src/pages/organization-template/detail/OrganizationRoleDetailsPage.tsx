import type { OrganizationRole } from '@gatehouse/schemas';
import { Outlet, useNavigate, useParams } from 'react-router';
import { useDeleteOrganizationRole, useOrganizationRole } from '../../../api/organization-template.ts';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { TrashIcon } from '../../../components/icons.tsx';
import type { MenuEntry } from '../../../components/Menu/menu-entries.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { type OrganizationRoleTab, toOrganizationRole, toOrganizationTemplate } from '../links.ts';
import { OrganizationRoleTypeTag } from '../OrganizationRoleTypeTag.tsx';
import type { OrganizationRoleOutletContext } from './role-context.ts';

const tabs: readonly OrganizationRoleTab[] = ['permissions', 'general'];

/** organization-template/organization-roles/{id}: the role's header and its tabs (permissions by default). */
export function OrganizationRoleDetailsPage() {
  const { t } = useTranslation('organization_template');
  const { organizationRoleId = '' } = useParams();
  const resolve = useTenantPath();
  const role = useOrganizationRole(organizationRoleId);
  const remove = useDeleteAction(role.data);
  return (
    <DetailPage
      backTo={resolve(toOrganizationTemplate('organization-roles'))}
      backLabel={t('detail.back')}
      isLoading={role.isPending}
      error={role.error}
      onRetry={() => void role.refetch()}
      title={role.data?.name}
      meta={role.data && <OrganizationRoleTypeTag type={role.data.type} />}
      id={role.data?.id}
      actions={remove ? [remove] : []}
      tabs={tabs.map((tab) => ({
        to: resolve(toOrganizationRole(organizationRoleId, tab)),
        label: t(`detail.tabs.${tab}`),
      }))}
    >
      {role.data && <Outlet context={{ role: role.data } satisfies OrganizationRoleOutletContext} />}
    </DetailPage>
  );
}

/** The '…' menu's Delete: a danger confirmation that says who loses the role, then back to the list. */
function useDeleteAction(role: OrganizationRole | undefined): MenuEntry | undefined {
  const { t } = useTranslation('organization_template');
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const deleteRole = useDeleteOrganizationRole(role?.id ?? '');
  if (!role) return undefined;

  async function run(current: OrganizationRole) {
    const isConfirmed = await confirm({
      title: t('detail.delete_title'),
      content: t('detail.delete_content', { name: current.name }),
      confirmText: t('detail.delete_confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteRole.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('detail.deleted', { name: current.name }));
    await navigate(resolve(toOrganizationTemplate('organization-roles')), { replace: true });
  }

  return {
    kind: 'action',
    id: 'delete',
    label: t('detail.delete'),
    icon: <TrashIcon />,
    onSelect: () => void run(role),
  };
}
