import type { Application } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { useTenantEndpoints } from '../../../../api/tenant-endpoints.ts';
import { Card } from '../../../../components/Card/Card.tsx';
import { CopyableValue } from '../../../../components/CopyButton/CopyButton.tsx';
import { Spinner } from '../../../../components/Spinner/Spinner.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import styles from './Settings.module.css';

/** 'Endpoints and credentials': what a developer copies into their app's configuration. */
export function EndpointsCard({ application }: { application: Application }) {
  const { t } = useTranslation('applications');
  const { endpoints, discovery, isError } = useTenantEndpoints();
  const pending = <Spinner />;
  const rows: Array<{ key: string; label: string; value: ReactNode }> = [
    { key: 'client_id', label: t('endpoints.client_id'), value: application.id },
    { key: 'issuer', label: t('endpoints.issuer'), value: endpoints?.issuer },
    { key: 'discovery', label: t('endpoints.discovery'), value: endpoints?.discoveryUrl },
    { key: 'authorization', label: t('endpoints.authorization'), value: discovery.data?.authorization_endpoint },
    { key: 'token', label: t('endpoints.token'), value: discovery.data?.token_endpoint },
  ];
  return (
    <Card title={t('endpoints.title')} description={t('endpoints.description')}>
      {isError && (
        <p role="alert" className={styles.error}>
          {t('endpoints.load_failed')}
        </p>
      )}
      <dl className={styles.values}>
        {rows.map((row) => (
          <div key={row.key} className={styles.valueRow}>
            <dt className={styles.valueLabel}>{row.label}</dt>
            <dd className={styles.value}>
              {typeof row.value === 'string' ? (
                <CopyableValue value={row.value} label={t('endpoints.copy', { name: row.label })} />
              ) : isError ? (
                '—'
              ) : (
                pending
              )}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
