import type { Connector, ConnectorType } from '@gatehouse/schemas';
import { Link, Outlet } from 'react-router';
import { useConnectors } from '../../api/connectors.ts';
import { Button, buttonClassName } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { ConnectorLogo, useConnectorName } from './ConnectorFacts.tsx';
import styles from './Connectors.module.css';
import { type CreateType, toConnector, toCreateConnector } from './links.ts';

type PasswordlessType = Exclude<CreateType, 'social'>;

const rows: { type: ConnectorType; createType: PasswordlessType }[] = [
  { type: 'Email', createType: 'email' },
  { type: 'Sms', createType: 'sms' },
];

/** Spec §2.2 connectors/passwordless: the tenant's email connector and SMS connector, one card each. */
export function PasswordlessTab() {
  const { t } = useTranslation('connectors');
  const connectors = useConnectors();
  return (
    <div className={styles.cards}>
      {connectors.isPending ? (
        <Loading />
      ) : connectors.isError ? (
        <Card>
          <p className={styles.empty}>{t('list.load_failed')}</p>
          <Button onClick={() => connectors.refetch()}>{t('list.retry')}</Button>
        </Card>
      ) : (
        rows.map(({ type, createType }) => (
          <ConnectorCard
            key={type}
            createType={createType}
            connector={connectors.data.find((connector) => connector.type === type)}
          />
        ))
      )}
      <Outlet />
    </div>
  );
}

function ConnectorCard({ createType, connector }: { createType: PasswordlessType; connector: Connector | undefined }) {
  const { t, i18n } = useTranslation('connectors');
  const resolve = useTenantPath();
  const nameOf = useConnectorName();
  const created = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const create = resolve(toCreateConnector('passwordless', createType));
  return (
    <Card title={t(`types.${createType}`)} description={t(`types.${createType}_description`)}>
      {connector ? (
        <section className={styles.connectorRow} aria-label={nameOf(connector)} data-testid={`${createType}-connector`}>
          <ConnectorLogo src={connector.logo} />
          <div className={styles.rowText}>
            <Link className={styles.rowName} to={resolve(toConnector('passwordless', connector.id))}>
              {nameOf(connector)}
            </Link>
            <span className={styles.muted}>
              {t('list.target', { target: connector.target })} ·{' '}
              {t('list.created', { date: created.format(connector.createdAt) })}
            </span>
          </div>
          <div className={styles.rowActions}>
            <Link className={buttonClassName()} to={create}>
              {t('list.change')}
            </Link>
            <Link className={buttonClassName('primary')} to={resolve(toConnector('passwordless', connector.id))}>
              {t('list.open')}
            </Link>
          </div>
        </section>
      ) : (
        <div className={styles.connectorRow} data-testid={`${createType}-connector`}>
          <p className={`${styles.empty} ${styles.rowText}`}>{t(`list.none_${createType}`)}</p>
          <Link className={buttonClassName('primary')} to={create}>
            {t('list.set_up')}
          </Link>
        </div>
      )}
    </Card>
  );
}
