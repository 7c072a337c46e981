import type { Hook } from '@gatehouse/schemas';
import { Outlet, useNavigate, useParams } from 'react-router';
import { useDeleteHook, useHook } from '../../../api/webhooks.ts';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { TrashIcon } from '../../../components/icons.tsx';
import type { MenuEntry } from '../../../components/Menu/menu-entries.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { EnabledTag } from '../HookFacts.tsx';
import { hookTabs, toHook, toHooks } from '../links.ts';
import type { HookOutletContext } from './hook-context.ts';

/** Spec §2.2 webhooks/{id}: the webhook's header, its '…' menu (delete) and the settings and recent-requests tabs. */
export function WebhookDetailsPage() {
  const { t } = useTranslation('webhooks');
  const { hookId = '' } = useParams();
  const resolve = useTenantPath();
  const hook = useHook(hookId);
  const remove = useDeleteAction(hook.data);
  return (
    <DetailPage
      backTo={resolve(toHooks())}
      backLabel={t('back')}
      isLoading={hook.isPending}
      error={hook.error}
      onRetry={() => void hook.refetch()}
      title={hook.data?.name}
      meta={hook.data && <EnabledTag enabled={hook.data.enabled} />}
      id={hook.data?.id}
      actions={remove ? [remove] : []}
      tabs={hookTabs.map((tab) => ({ to: resolve(toHook(hookId, tab)), label: t(`tabs.${tab}`) }))}
    >
      {hook.data && <Outlet context={{ hook: hook.data } satisfies HookOutletContext} />}
    </DetailPage>
  );
}

/** The '…' menu's Delete: a danger confirmation, then back to the list. */
function useDeleteAction(hook: Hook | undefined): MenuEntry | undefined {
  const { t } = useTranslation('webhooks');
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const deleteHook = useDeleteHook(hook?.id ?? '');
  if (!hook) return undefined;

  async function run(current: Hook) {
    const isConfirmed = await confirm({
      title: t('delete.title'),
      content: t('delete.content', { name: current.name }),
      confirmText: t('delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteHook.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('delete.deleted', { name: current.name }));
    await navigate(resolve(toHooks()), { replace: true });
  }

  return {
    kind: 'action',
    id: 'delete',
    label: t('delete.action'),
    icon: <TrashIcon />,
    onSelect: () => void run(hook),
  };
}
