import { ssoProviderTypeOf } from '@gatehouse/schemas';
import { Outlet, useParams } from 'react-router';
import { useSsoConnector } from '../../../api/sso-connectors.ts';
import { DetailPage } from '../../../components/DetailPage/DetailPage.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { type SsoConnectorTab, ssoConnectorTabsOf, toSsoConnector, toSsoConnectors } from '../links.ts';
import { ProviderLogo, StatusTag, useProviderName } from '../SsoFacts.tsx';
import type { SsoConnectorOutletContext } from './sso-context.ts';

const tabLabels = {
  connection: 'tabs.connection',
  experience: 'tabs.experience',
  'idp-initiated-auth': 'tabs.idp_initiated_auth',
  provisioning: 'tabs.provisioning',
} as const satisfies Record<SsoConnectorTab, string>;

/**
 * Spec §2.2 enterprise-sso/{ssoConnectorId}: the header (provider, protocol, state) and the tabs (SCIM provisioning
 * for every connector, IdP-initiated sign-in for SAML ones).
 */
export function SsoConnectorDetailsPage() {
  const { t } = useTranslation('enterprise_sso');
  const { ssoConnectorId = '' } = useParams();
  const resolve = useTenantPath();
  const connector = useSsoConnector(ssoConnectorId);
  const providerName = useProviderName();
  const data = connector.data;
  return (
    <DetailPage
      backTo={resolve(toSsoConnectors())}
      backLabel={t('back')}
      isLoading={connector.isPending}
      error={connector.error}
      onRetry={() => void connector.refetch()}
      title={data?.connectorName}
      icon={data && <ProviderLogo src={data.providerLogo} size="large" />}
      meta={
        data && (
          <>
            <Tag status="info">{providerName(data.providerName)}</Tag>
            {/* The protocol, where the provider's name does not say it (Okta, Google Workspace…). */}
            {ssoProviderTypeOf[data.providerName] !== data.providerName && (
              <Tag status="neutral">{ssoProviderTypeOf[data.providerName]}</Tag>
            )}
            <StatusTag connector={data} />
          </>
        )
      }
      id={data?.id}
      tabs={ssoConnectorTabsOf(data ? ssoProviderTypeOf[data.providerName] : 'OIDC').map((tab) => ({
        to: resolve(toSsoConnector(ssoConnectorId, tab)),
        label: t(tabLabels[tab]),
      }))}
    >
      {data && (
        // Keyed by the connector, so another one (same page, new id) starts its forms afresh.
        <Outlet key={data.id} context={{ connector: data } satisfies SsoConnectorOutletContext} />
      )}
    </DetailPage>
  );
}
