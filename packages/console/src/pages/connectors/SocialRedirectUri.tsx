import { CopyableValue } from '../../components/CopyButton/CopyButton.tsx';
import { Spinner } from '../../components/Spinner/Spinner.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Connectors.module.css';
import { useSocialRedirectUri } from './social.ts';

/**
 * A social connector's redirect URI, read-only with a copy button, and the one line saying to register it at the
 * provider. Shown on the guide page (for the id the console will create the connector with) and the connection tab.
 */
export function SocialRedirectUri({ connectorId }: { connectorId: string | undefined }) {
  const { t } = useTranslation('connectors');
  const uri = useSocialRedirectUri(connectorId);
  return (
    <div className={styles.redirect} data-testid="redirect-uri">
      <span className={styles.rowName}>{t('social.redirect_uri')}</span>
      {uri ? <CopyableValue value={uri} label={t('social.copy_redirect_uri')} /> : <Spinner />}
      <p className={styles.hint}>{t('social.redirect_uri_hint')}</p>
    </div>
  );
}
