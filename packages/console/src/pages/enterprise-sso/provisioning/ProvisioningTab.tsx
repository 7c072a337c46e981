import type { ScimConnection, ScimConnectionWithToken, SsoConnectorWithProviderConfig } from '@gatehouse/schemas';
import { FolderSync } from 'lucide';
import { type ReactNode, useCallback, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useDeleteScimConnection, useScimConnectionOf } from '../../../api/scim-connections.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { EmptyState } from '../../../components/EmptyState/EmptyState.tsx';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { useSsoConnectorOutlet } from '../detail/sso-context.ts';
import styles from '../EnterpriseSso.module.css';
import { toSetUpProvisioning, toSsoConnector } from '../links.ts';
import { EndpointCard } from './EndpointCard.tsx';
import { ProvisioningSettings } from './ProvisioningSettings.tsx';
import type { ProvisioningOutletContext } from './provisioning-context.ts';
import { ScimActivity } from './ScimActivity.tsx';

/** A token just made, and the connection it belongs to. */
type FreshToken = { connectionId: string; token: string };

/**
 * enterprise-sso/{id}/provisioning (issue 45): the connector's SCIM provisioning. None yet: what it is for and the
 * button that opens the setup dialog (a child route). Else the SCIM base URL and the token (shown once, right after it
 * was made), rotate and revoke; the settings; the last requests and what was provisioned; and deleting it.
 */
export function ProvisioningTab() {
  const { t } = useTranslation('enterprise_sso');
  const { connector } = useSsoConnectorOutlet();
  const scim = useScimConnectionOf(connector.id);
  // Held here only: it is gone once the page is left, and the server never answers it again.
  const [fresh, setFresh] = useState<FreshToken>();
  const onCreated = useCallback(
    (created: ScimConnectionWithToken) => setFresh({ connectionId: created.id, token: created.token }),
    [],
  );

  let content: ReactNode;
  if (scim.isPending) content = <Loading />;
  else if (scim.isError)
    content = (
      <Card title={t('scim.title')}>
        <div className={styles.danger}>
          <p role="alert">{t('scim.load_failed')}</p>
          <Button onClick={() => void scim.refetch()}>{t('retry')}</Button>
        </div>
      </Card>
    );
  else if (!scim.data) content = <NoProvisioning connector={connector} />;
  else {
    const connection = scim.data;
    content = (
      // Keyed by the connection, so a new one (deleted, then set up again) starts its form afresh.
      <div className={styles.cards} key={connection.id}>
        <EndpointCard
          connection={connection}
          token={fresh?.connectionId === connection.id ? fresh.token : undefined}
          onToken={(token) => setFresh({ connectionId: connection.id, token })}
          onHideToken={() => setFresh(undefined)}
        />
        <ProvisioningSettings connection={connection} />
        <ScimActivity connection={connection} />
        <DangerZone connection={connection} />
      </div>
    );
  }

  return (
    <>
      {content}
      {scim.data ? (
        // A connection exists: there is nothing to set up (an old link, or the dialog that just made it).
        <SetUpGoesToTab connector={connector} />
      ) : (
        scim.data === null && <Outlet context={{ connector, onCreated } satisfies ProvisioningOutletContext} />
      )}
    </>
  );
}

/** From 'provisioning/setup' back to the tab, once the connector has its connection. */
function SetUpGoesToTab({ connector }: { connector: SsoConnectorWithProviderConfig }) {
  const resolve = useTenantPath();
  const isSetup = useLocation().pathname.endsWith('/setup');
  return isSetup ? <Navigate to={resolve(toSsoConnector(connector.id, 'provisioning'))} replace /> : null;
}

/** No connection yet: what SCIM provisioning does, and the one way to set it up. */
function NoProvisioning({ connector }: { connector: SsoConnectorWithProviderConfig }) {
  const { t } = useTranslation('enterprise_sso');
  const navigate = useNavigate();
  const resolve = useTenantPath();
  return (
    <Card>
      <EmptyState
        icon={FolderSync}
        title={t('scim.empty_title')}
        description={t('scim.empty')}
        data-testid="scim-empty"
        action={
          <Button
            variant="primary"
            icon={<PlusIcon />}
            onClick={() => navigate(resolve(toSetUpProvisioning(connector.id)))}
          >
            {t('scim.set_up')}
          </Button>
        }
      />
    </Card>
  );
}

/** Deleting the connection: its token stops at once; the users it provisioned keep their accounts. */
function DangerZone({ connection }: { connection: ScimConnection }) {
  const { t } = useTranslation('enterprise_sso');
  const confirm = useConfirm();
  const toast = useToast();
  const remove = useDeleteScimConnection(connection);

  async function run() {
    const name = connection.name;
    const isConfirmed = await confirm({
      title: t('scim.delete.title'),
      content: t('scim.delete.content', { name }),
      confirmText: t('scim.delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('scim.delete.deleted', { name }));
  }

  return (
    <Card title={t('scim.delete.zone_title')}>
      <div className={styles.danger}>
        <p>{t('scim.delete.zone_description')}</p>
        <Button variant="dangerOutline" icon={<TrashIcon />} onClick={run}>
          {t('scim.delete.action')}
        </Button>
      </div>
    </Card>
  );
}
