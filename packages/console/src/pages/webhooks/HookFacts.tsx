import type { Hook, HookLog } from '@gatehouse/schemas';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import type { TFunction } from '../../i18n/runtime.ts';
import styles from './Webhooks.module.css';

/** Which attempt of its delivery a request was: '2 of 3', or just '2' for attempts logged before the count was kept. */
export function attemptText(t: TFunction<'webhooks'>, log: Pick<HookLog, 'attempt' | 'maxAttempts'>): string {
  return log.maxAttempts === null
    ? String(log.attempt)
    : t('requests.attempt_of', { attempt: log.attempt, max: log.maxAttempts });
}

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

/** An attempt's outcome: the HTTP status it got, or why nothing answered (timeout, refused…) when the server says. */
export function AttemptStatus({
  log,
}: {
  log: Pick<HookLog, 'success' | 'responseStatus'> & Partial<Pick<HookLog, 'errorKind'>>;
}) {
  const { t } = useTranslation('webhooks');
  const label =
    log.responseStatus !== null
      ? String(log.responseStatus)
      : log.errorKind
        ? t(`requests.error_kinds.${log.errorKind}`)
        : t('test.no_response');
  return (
    <Tag status={log.success ? 'success' : 'error'}>
      {t(log.success ? 'requests.success' : 'requests.failed')} · {label}
    </Tag>
  );
}
