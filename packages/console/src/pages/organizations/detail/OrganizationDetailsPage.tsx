import type { Organization } from '@gatehouse/schemas';
import { Outlet, useNavigate, useParams } from 'react-router';
import { useDeleteOrganization, useOrganization } from '../../../api/organizations.ts';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { TrashIcon } from '../../../components/icons.tsx';
import type { MenuEntry } from '../../../components/Menu/menu-entries.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { type OrganizationTab, toOrganization, toOrganizations } from '../links.ts';
import type { OrganizationOutletContext } from './organization-context.ts';

const tabs: OrganizationTab[] = ['settings', 'members', 'machine-to-machine'];

/** Spec §2.2 organizations/{id}: the organization's header and its tabs settings, members and machine-to-machine. */
export function OrganizationDetailsPage() {
  const { t } = useTranslation('organizations');
  const { organizationId = '' } = useParams();
  const resolve = useTenantPath();
  const organization = useOrganization(organizationId);
  const remove = useDeleteAction(organization.data);
  return (
    <DetailPage
      backTo={resolve(toOrganizations())}
      backLabel={t('back')}
      isLoading={organization.isPending}
      error={organization.error}
      onRetry={() => void organization.refetch()}
      title={organization.data?.name}
      id={organization.data?.id}
      actions={remove ? [remove] : []}
      tabs={tabs.map((tab) => ({ to: resolve(toOrganization(organizationId, tab)), label: t(`tabs.${tab}`) }))}
    >
      {organization.data && (
        <Outlet context={{ organization: organization.data } satisfies OrganizationOutletContext} />
      )}
    </DetailPage>
  );
}

/** The '…' menu's Delete: a danger confirmation that says what goes with it, then back to the list. */
function useDeleteAction(organization: Organization | undefined): MenuEntry | undefined {
  const { t } = useTranslation('organizations');
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const deleteOrganization = useDeleteOrganization(organization?.id ?? '');
  if (!organization) return undefined;

  async function run(current: Organization) {
    const isConfirmed = await confirm({
      title: t('delete.title'),
      content: t('delete.content', { name: current.name }),
      confirmText: t('delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteOrganization.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('delete.deleted', { name: current.name }));
    await navigate(resolve(toOrganizations()), { replace: true });
  }

  return {
    kind: 'action',
    id: 'delete',
    label: t('delete.action'),
    icon: <TrashIcon />,
    onSelect: () => void run(organization),
  };
}
