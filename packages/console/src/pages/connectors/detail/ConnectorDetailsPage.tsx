import type { Connector } from '@gatehouse/schemas';
import { Outlet, useNavigate, useParams } from 'react-router';
import { useConnector, useDeleteConnector } from '../../../api/connectors.ts';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { TrashIcon } from '../../../components/icons.tsx';
import type { MenuEntry } from '../../../components/Menu/menu-entries.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { ConnectorLogo, useConnectorName } from '../ConnectorFacts.tsx';
import { connectorDetailTabs, createTypeOf, isListTab, toConnector, toConnectors } from '../links.ts';
import type { ConnectorOutletContext } from './connector-context.ts';

/** Spec §2.2 connectors/{tab}/{connectorId}: the header, the '…' menu (delete) and the connection and experience tabs. */
export function ConnectorDetailsPage() {
  const { t } = useTranslation('connectors');
  const { tab, connectorId = '' } = useParams();
  const listTab = isListTab(tab) ? tab : 'passwordless';
  const resolve = useTenantPath();
  const connector = useConnector(connectorId);
  const nameOf = useConnectorName();
  const remove = useDeleteAction(connector.data, listTab);
  const type = connector.data && createTypeOf(connector.data.type);
  return (
    <DetailPage
      backTo={resolve(toConnectors(listTab))}
      backLabel={t('back')}
      isLoading={connector.isPending}
      error={connector.error}
      onRetry={() => void connector.refetch()}
      title={connector.data && nameOf(connector.data)}
      icon={connector.data && <ConnectorLogo src={connector.data.metadata.logo ?? connector.data.logo} />}
      meta={type && <Tag status="info">{t(`types.${type}`)}</Tag>}
      id={connector.data?.id}
      actions={remove ? [remove] : []}
      tabs={connectorDetailTabs.map((detailTab) => ({
        to: resolve(toConnector(listTab, connectorId, detailTab)),
        label: t(`tabs.${detailTab}`),
      }))}
    >
      {connector.data && (
        // Keyed by the connector, so a replaced one (same page, new id) starts its forms afresh.
        <Outlet key={connector.data.id} context={{ connector: connector.data } satisfies ConnectorOutletContext} />
      )}
    </DetailPage>
  );
}

/** The '…' menu's Delete: a danger confirmation, then back to the list. */
function useDeleteAction(connector: Connector | undefined, listTab: 'passwordless' | 'social'): MenuEntry | undefined {
  const { t } = useTranslation('connectors');
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const nameOf = useConnectorName();
  const deleteConnector = useDeleteConnector(connector?.id ?? '');
  if (!connector) return undefined;

  async function run(current: Connector) {
    const name = nameOf(current);
    const isConfirmed = await confirm({
      title: t('delete.title'),
      content: t(current.type === 'Social' ? 'delete.content_social' : 'delete.content', { name }),
      confirmText: t('delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteConnector.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('delete.deleted', { name }));
    await navigate(resolve(toConnectors(listTab)), { replace: true });
  }

  return {
    kind: 'action',
    id: 'delete',
    label: t('delete.action'),
    icon: <TrashIcon />,
    onSelect: () => void run(connector),
  };
}
