import { useLocation, useNavigate, useParams } from 'react-router';
import { useConnectorFactories, useConnectors } from '../../../api/connectors.ts';
import { Loading } from '../../../components/Loading.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { useConnectorName } from '../ConnectorFacts.tsx';
import styles from '../Connectors.module.css';
import { isCreateType, isListTab, listTabOf, toConnectors, typeOfCreateType } from '../links.ts';
import { FactoryList } from './FactoryList.tsx';

/**
 * Spec §2.2 connectors/{tab}/create/{createType}: the factories of that type as cards, a dialog over the tab. A
 * tenant has one email and one SMS connector, so when one exists the dialog says the new one replaces it; social
 * connectors add up.
 */
export function CreateConnectorModal() {
  const { t } = useTranslation('connectors');
  const { tab, createType } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const resolve = useTenantPath();
  const factories = useConnectorFactories();
  const connectors = useConnectors();
  const nameOf = useConnectorName();
  // A type belongs to its own tab (email and SMS to passwordless, social to social); the tab routes are static paths,
  // so the tab comes from the type.
  const type = isCreateType(createType) ? typeOfCreateType[createType] : undefined;
  const listTab = type ? listTabOf(type) : isListTab(tab) ? tab : 'passwordless';
  const choices = type ? (factories.data ?? []).filter((factory) => factory.type === type) : [];
  // Social connectors add up; only an email or SMS connector is replaced.
  const current = type && type !== 'Social' ? connectors.data?.find((connector) => connector.type === type) : undefined;
  const close = () => navigate({ pathname: resolve(toConnectors(listTab)), search: location.search });

  return (
    <Modal
      isOpen
      size="large"
      title={isCreateType(createType) && type ? t(`create.title_${createType}`) : t('create.title')}
      onClose={close}
    >
      <div className={styles.cards}>
        {current && (
          <p className={styles.notice} role="note">
            {t('create.replaces', { name: nameOf(current) })}
          </p>
        )}
        {factories.isPending ? (
          <Loading />
        ) : choices.length === 0 ? (
          <p className={styles.empty}>{t('create.none')}</p>
        ) : (
          <FactoryList factories={choices} tab={listTab} />
        )}
      </div>
    </Modal>
  );
}
