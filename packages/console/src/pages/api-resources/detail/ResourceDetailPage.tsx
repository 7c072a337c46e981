import { isBuiltInResourceIndicator, type Resource } from '@gatehouse/schemas';
import { Outlet, useNavigate, useParams } from 'react-router';
import { useDeleteResource, useResource } from '../../../api/resources.ts';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { CodeIcon, TrashIcon } from '../../../components/icons.tsx';
import type { MenuEntry } from '../../../components/Menu/menu-entries.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { defaultGuideId } from '../guide/guides.ts';
import { toApiResourceGuide, toApiResources } from '../links.ts';
import { ResourceTags } from '../ResourceTags.tsx';
import type { ResourceOutletContext } from './resource-context.ts';

/** Spec §2.2 'api-resources/{id}/*': the resource's header, its '…' actions and the permissions and general tabs. */
export function ResourceDetailPage() {
  const { t } = useTranslation('api_resources');
  const { id = '' } = useParams();
  const resource = useResource(id);
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const confirm = useConfirm();
  const toast = useToast();
  const deleteResource = useDeleteResource();
  const data = resource.data;
  const isBuiltIn = data ? isBuiltInResourceIndicator(data.indicator) : false;

  async function remove(target: Resource) {
    const confirmed = await confirm({
      title: t('details.delete_title'),
      content: t('details.delete_confirm', { name: target.name, indicator: target.indicator }),
      confirmText: t('details.delete'),
      isDanger: true,
    });
    if (!confirmed) return;
    await deleteResource.mutateAsync(target.id);
    toast.success(t('details.deleted', { name: target.name }));
    navigate(resolve(toApiResources()), { replace: true });
  }

  // The built-in Management API has no guide (the server serves it) and cannot be deleted.
  const actions: MenuEntry[] =
    data && !isBuiltIn
      ? [
          {
            kind: 'action',
            id: 'guide',
            label: t('details.guide'),
            icon: <CodeIcon />,
            onSelect: () => navigate(resolve(toApiResourceGuide(data.id, defaultGuideId))),
          },
          { kind: 'separator', id: 'separator' },
          {
            kind: 'action',
            id: 'delete',
            label: t('details.delete'),
            icon: <TrashIcon />,
            // A failed delete was toasted by the query client; the menu only needs the promise to settle.
            onSelect: () => remove(data).catch(() => undefined),
          },
        ]
      : [];

  return (
    <DetailPage
      backTo={resolve(toApiResources())}
      backLabel={t('details.back')}
      isLoading={resource.isPending}
      error={resource.error}
      onRetry={() => resource.refetch()}
      title={data?.name}
      id={data?.id}
      meta={
        data && (
          <>
            <span dir="ltr">
              <CopyableValue value={data.indicator} label={t('general.copy_indicator')} />
            </span>
            <ResourceTags resource={data} />
          </>
        )
      }
      actions={actions}
      tabs={[
        { to: 'permissions', label: t('details.tabs.permissions') },
        { to: 'general', label: t('details.tabs.general') },
      ]}
    >
      {data && <Outlet context={{ resource: data, isBuiltIn } satisfies ResourceOutletContext} />}
    </DetailPage>
  );
}
