import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { useConnectorFactories } from '../../api/connectors.ts';
import { Card } from '../../components/Card/Card.tsx';
import { Loading } from '../../components/Loading.tsx';
import styles from './Connectors.module.css';
import { FactoryList } from './create/FactoryList.tsx';

/**
 * Spec §2.2 connectors/social. The server offers no social factories yet: the tab says so (and lists them once the
 * server has some) instead of a create flow that would show nothing.
 */
export function SocialTab() {
  const { t } = useTranslation('connectors');
  const factories = useConnectorFactories();
  const social = factories.data?.filter((factory) => factory.type === 'Social') ?? [];
  return (
    <div className={styles.cards}>
      <Card title={t('social.title')} description={t('social.description')}>
        {factories.isPending ? (
          <Loading />
        ) : social.length === 0 ? (
          <p className={styles.empty} data-testid="social-empty">
            {t('social.none_available')}
          </p>
        ) : (
          <FactoryList factories={social} tab="social" />
        )}
      </Card>
      <Outlet />
    </div>
  );
}
