import type { SsoConnectorWithProviderConfig } from '@gatehouse/schemas';
import { useSsoProviders } from '../../api/sso-connectors.ts';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './EnterpriseSso.module.css';

/** A provider's logo: decoration, the name beside it says what it is. */
export function ProviderLogo({ src, size = 'small' }: { src: string; size?: 'small' | 'large' }) {
  return (
    <img
      className={size === 'large' ? styles.logoLarge : styles.logo}
      src={src}
      alt=""
      width={size === 'large' ? 40 : 24}
      height={size === 'large' ? 40 : 24}
    />
  );
}

/** Ready once the server could read the IdP's settings (`providerConfig`); incomplete until then. */
export const isReady = (connector: Pick<SsoConnectorWithProviderConfig, 'providerConfig'>): boolean =>
  connector.providerConfig !== undefined;

export function StatusTag({ connector }: { connector: Pick<SsoConnectorWithProviderConfig, 'providerConfig'> }) {
  const { t } = useTranslation('enterprise_sso');
  return isReady(connector) ? (
    <Tag status="success">{t('status.ready')}</Tag>
  ) : (
    <Tag status="warning">{t('status.incomplete')}</Tag>
  );
}

/** A provider's name in the interface language, from the catalogue; its API name until that has loaded. */
export function useProviderName() {
  const providers = useSsoProviders();
  return (providerName: string): string =>
    providers.data?.find((provider) => provider.providerName === providerName)?.name ?? providerName;
}
