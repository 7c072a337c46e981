import type { Connector } from '@gatehouse/schemas';
import { Plug } from 'lucide';
import { Link, Outlet } from 'react-router';
import { useConnectors } from '../../api/connectors.ts';
import { PlanGate } from '../../cloud/quota/PlanGate.tsx';
import { Button, buttonClassName } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { EmptyState } from '../../components/EmptyState/EmptyState.tsx';
import { PlusIcon } from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { ConnectorLogo, useConnectorName } from './ConnectorFacts.tsx';
import styles from './Connectors.module.css';
import { toConnector, toCreateConnector } from './links.ts';

/**
 * Spec §2.2 connectors/social: the tenant's social connectors (a tenant may have several, none replaces another) and
 * "Add social connector", which opens the chooser of social factories over the tab.
 */
export function SocialTab() {
  const { t } = useTranslation('connectors');
  const resolve = useTenantPath();
  const connectors = useConnectors();
  const social = connectors.data?.filter((connector) => connector.type === 'Social') ?? [];
  const addLink = (
    <PlanGate quota="socialConnectorsLimit">
      <Link className={buttonClassName('primary')} to={resolve(toCreateConnector('social', 'social'))}>
        <PlusIcon /> {t('social.add')}
      </Link>
    </PlanGate>
  );
  // With none yet, the add link is the empty state's action rather than the card's (one link, not two).
  const isEmpty = !connectors.isPending && !connectors.isError && social.length === 0;
  return (
    <div className={styles.cards}>
      <Card title={t('social.title')} description={t('social.description')} actions={isEmpty ? undefined : addLink}>
        {connectors.isPending ? (
          <Loading />
        ) : connectors.isError ? (
          <>
            <p className={styles.empty}>{t('list.load_failed')}</p>
            <Button onClick={() => connectors.refetch()}>{t('list.retry')}</Button>
          </>
        ) : isEmpty ? (
          <EmptyState icon={Plug} description={t('social.none')} action={addLink} data-testid="social-empty" />
        ) : (
          <ul className={styles.socialList} aria-label={t('social.title')} data-testid="social-connectors">
            {social.map((connector) => (
              <SocialRow key={connector.id} connector={connector} />
            ))}
          </ul>
        )}
      </Card>
      <Outlet />
    </div>
  );
}

function SocialRow({ connector }: { connector: Connector }) {
  const { t, i18n } = useTranslation('connectors');
  const resolve = useTenantPath();
  const nameOf = useConnectorName();
  const created = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const to = resolve(toConnector('social', connector.id));
  return (
    <li className={styles.connectorRow} data-testid={`social-connector-${connector.id}`}>
      <ConnectorLogo src={connector.metadata.logo ?? connector.logo} />
      <div className={styles.rowText}>
        <Link className={styles.rowName} to={to}>
          {nameOf(connector)}
        </Link>
        <span className={styles.muted}>
          {t('list.target', { target: connector.target })} ·{' '}
          {t('list.created', { date: created.format(connector.createdAt) })}
        </span>
      </div>
      <div className={styles.rowActions}>
        <Link className={buttonClassName()} to={to} aria-label={t('social.open', { name: nameOf(connector) })}>
          {t('list.open')}
        </Link>
      </div>
    </li>
  );
}
