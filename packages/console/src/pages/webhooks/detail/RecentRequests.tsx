import type { HookLog } from '@gatehouse/schemas';
import { useHookLogs } from '../../../api/webhooks.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { Select } from '../../../components/form/Select.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { useDateTimeFormat } from '../../users/use-date-time-format.ts';
import { isHookEvent } from '../form/events.ts';
import { AttemptStatus, attemptText } from '../HookFacts.tsx';
import { toHookLog } from '../links.ts';
import styles from '../Webhooks.module.css';
import { useHookOutlet } from './hook-context.ts';

const statuses = ['success', 'failed'] as const;
type StatusFilter = (typeof statuses)[number];
const isStatus = (value: string | null): value is StatusFilter => statuses.some((status) => status === value);

/** Spec §2.2 webhooks/{id}/recent-requests: the attempts of the last 24 hours, filtered by status and event. */
export function RecentRequests() {
  const { t } = useTranslation('webhooks');
  const { hook } = useHookOutlet();
  const resolve = useTenantPath();
  const formatTime = useDateTimeFormat();
  const { page, pageSize, params, setPage, setFilter } = useListParams();
  const statusParam = params.get('status');
  const eventParam = params.get('event');
  const status = isStatus(statusParam) ? statusParam : undefined;
  const event = isHookEvent(eventParam) ? eventParam : undefined;
  const logs = useHookLogs(hook.id, { page, pageSize, status, event });
  // The webhook's events, and a filtered one it no longer listens to (old requests may still have it).
  const eventOptions = [...new Set([...hook.events, ...(event ? [event] : [])])];

  const columns: TableColumn<HookLog>[] = [
    {
      key: 'event',
      title: t('requests.event'),
      render: (log) => (
        <code className={styles.code} dir="ltr">
          {log.event}
        </code>
      ),
    },
    // Retries of one delivery differ by their number and by what each got, so neither reads as a duplicate row.
    { key: 'attempt', title: t('requests.attempt'), noWrap: true, render: (log) => attemptText(t, log) },
    { key: 'status', title: t('requests.status'), render: (log) => <AttemptStatus log={log} /> },
    {
      key: 'duration',
      title: t('requests.duration'),
      noWrap: true,
      render: (log) => t('requests.duration_ms', { value: log.durationMs }),
    },
    { key: 'time', title: t('requests.time'), noWrap: true, render: (log) => formatTime(log.createdAt) },
  ];

  return (
    <Card
      title={t('requests.title')}
      description={t('requests.description')}
      actions={
        <Button onClick={() => logs.refetch()} isLoading={logs.isFetching && !logs.isPending}>
          {t('requests.refresh')}
        </Button>
      }
    >
      <Table
        aria-label={t('requests.title')}
        columns={columns}
        rows={logs.data?.items}
        rowKey={(log) => log.id}
        rowLink={(log) => resolve(toHookLog(hook.id, log.id))}
        isLoading={logs.isPending}
        error={logs.error}
        onRetry={() => void logs.refetch()}
        empty={<p className={styles.empty}>{status || event ? t('requests.no_match') : t('requests.empty')}</p>}
        toolbar={
          <div className={styles.filters}>
            <Select
              aria-label={t('requests.status_filter')}
              className={styles.filter}
              value={status ?? ''}
              onChange={(change) => setFilter('status', change.target.value || undefined)}
              options={[
                { value: '', label: t('requests.all_statuses') },
                { value: 'success', label: t('requests.success') },
                { value: 'failed', label: t('requests.failed') },
              ]}
            />
            <Select
              aria-label={t('requests.event_filter')}
              className={styles.filter}
              value={event ?? ''}
              onChange={(change) => setFilter('event', change.target.value || undefined)}
              options={[
                { value: '', label: t('requests.all_events') },
                ...eventOptions.map((value) => ({ value, label: value })),
              ]}
            />
          </div>
        }
        pagination={{ page, pageSize, totalCount: logs.data?.total ?? 0, onPageChange: setPage }}
      />
    </Card>
  );
}
