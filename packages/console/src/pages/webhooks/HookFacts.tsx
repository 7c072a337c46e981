import type { Hook, HookLog } from '@gatehouse/schemas';
import { useTranslation } from 'react-i18next';
import { Tag } from '../../components/Tag/Tag.tsx';
import styles from './Webhooks.module.css';

export function EnabledTag({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('webhooks');
  return <Tag status={enabled ? 'success' : 'neutral'}>{t(enabled ? 'status.enabled' : 'status.disabled')}</Tag>;
}

/** Share of the last 24 hours' attempts that got a 2xx, with how many there were. */
export function SuccessRate({ stats }: { stats: Hook['executionStats'] }) {
  const { t, i18n } = useTranslation('webhooks');
  if (!stats || stats.requestCount === 0) return <span className={styles.muted}>{t('list.no_requests')}</span>;
  const rate = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 }).format(
    (stats.successCount / stats.requestCount) * 100,
  );
  return <span>{t('list.rate', { rate, total: stats.requestCount })}</span>;
}

/** An attempt's outcome: the HTTP status it got, or that nothing answered. */
export function AttemptStatus({ log }: { log: Pick<HookLog, 'success' | 'responseStatus'> }) {
  const { t } = useTranslation('webhooks');
  const label = log.responseStatus === null ? t('test.no_response') : String(log.responseStatus);
  return (
    <Tag status={log.success ? 'success' : 'error'}>
      {t(log.success ? 'requests.success' : 'requests.failed')} · {label}
    </Tag>
  );
}
