import type { Application } from '@gatehouse/schemas';
import { Outlet, useNavigate, useOutletContext, useParams } from 'react-router';
import { useApplication, useDeleteApplication } from '../../../api/applications.ts';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { SetIcon } from '../../../components/icons.tsx';
import type { MenuEntry } from '../../../components/Menu/menu-entries.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { applicationTypeIcons, traitsOf } from '../application-types.ts';
import { toApplication, toApplicationGuide, toApplications } from '../links.ts';

export type ApplicationOutletContext = { application: Application };

/** The loaded application, for the tabs rendered in the detail page's outlet. */
export function useApplicationOutlet(): ApplicationOutletContext {
  return useOutletContext<ApplicationOutletContext>();
}

/** Spec §2.2 'applications/{id}/{tab}': the application's header, actions and routed tabs. */
export function ApplicationDetailPage() {
  const { t } = useTranslation('applications');
  const { id = '' } = useParams();
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const toast = useToast();
  const query = useApplication(id);
  const remove = useDeleteApplication();
  const application = query.data;
  const traits = application && traitsOf(application.type);

  async function deleteApplication(app: Application) {
    const confirmed = await confirm({
      title: t('delete.title'),
      content: t('delete.confirm', { name: app.name }),
      confirmText: t('delete.submit'),
      isDanger: true,
    });
    if (!confirmed) return;
    await remove.mutateAsync(app);
    toast.success(t('delete.deleted', { name: app.name }));
    navigate(resolve(toApplications()));
  }

  const actions: MenuEntry[] = application
    ? [
        ...(traits?.guides ?? []).map<MenuEntry>((guide) => ({
          kind: 'link',
          id: `guide-${guide}`,
          label: t('guides.open', { guide: t(`guides.${guide}.title`) }),
          href: resolve(toApplicationGuide(application.id, guide)),
        })),
        // The menu waits for the promise; an API failure has shown its toast already.
        {
          kind: 'action',
          id: 'delete',
          label: t('delete.action'),
          onSelect: () => deleteApplication(application).catch(() => undefined),
        },
      ]
    : [];

  return (
    <DetailPage
      backTo={resolve(toApplications())}
      backLabel={t('detail.back')}
      isLoading={query.isPending}
      error={query.error}
      onRetry={() => void query.refetch()}
      title={application?.name}
      icon={application && <SetIcon icon={applicationTypeIcons[application.type]} />}
      id={application?.id}
      meta={
        application && (
          <>
            <Tag status="info">{t(`types.${application.type}.name`)}</Tag>
            {application.isThirdParty && <Tag>{t('detail.third_party')}</Tag>}
          </>
        )
      }
      actions={actions}
      tabs={[
        { to: resolve(toApplication(id, 'settings')), label: t('tabs.settings') },
        // Spec §2.2: the branding of the consent page, for third-party applications (the others use the tenant's).
        ...(application?.isThirdParty
          ? [{ to: resolve(toApplication(id, 'branding')), label: t('tabs.branding') }]
          : []),
        ...(traits?.roles ? [{ to: resolve(toApplication(id, 'roles')), label: t('tabs.roles') }] : []),
        { to: resolve(toApplication(id, 'logs')), label: t('tabs.logs') },
        // Spec §2.2: only machine-to-machine applications join organizations.
        ...(application?.type === 'MachineToMachine'
          ? [{ to: resolve(toApplication(id, 'organizations')), label: t('tabs.organizations') }]
          : []),
      ]}
    >
      {application && <Outlet context={{ application } satisfies ApplicationOutletContext} />}
    </DetailPage>
  );
}
