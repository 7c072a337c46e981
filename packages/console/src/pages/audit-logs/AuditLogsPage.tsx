import { ScrollText } from 'lucide';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useConsoleAdminNames, useLogs } from '../../api/logs.ts';
import { Button } from '../../components/Button/Button.tsx';
import { EmptyState, NoResults } from '../../components/EmptyState/EmptyState.tsx';
import { ExportMenu } from '../../components/ExportMenu/ExportMenu.tsx';
import { Select } from '../../components/form/Select.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { useListParams } from '../../components/Table/use-list-params.ts';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './AuditLogs.module.css';
import { AuditLogsTable } from './AuditLogsTable.tsx';
import { filterParams, hasFilters, isRangeInverted, readFilters, resultFilters, toLogFilter } from './filters.ts';
import { toAuditLog } from './links.ts';
import { rememberListSearch } from './list-search.ts';
import { ApplicationPicker, LogKeyPicker, UserPicker } from './pickers.tsx';

/**
 * Spec §2.2 audit-logs index: every entry of the tenant, newest first, filtered by log key, result, user,
 * application and time range. Filters and page live in the URL, so reload, Back and a shared link show the same rows;
 * a total past the server's count cap reads '10,000+'.
 */
export function AuditLogsPage() {
  const { t } = useTranslation('audit_logs');
  useDocumentTitle(t('title'));
  const resolve = useTenantPath();
  const { page, pageSize, params, setPage, setFilter } = useListParams();
  const [, setParams] = useSearchParams();
  const filters = readFilters(params);
  const isInverted = isRangeInverted(filters);
  const apiFilter = toLogFilter(filters);
  const logs = useLogs(apiFilter, { page, pageSize, enabled: !isInverted });
  const admins = useConsoleAdminNames();
  const search = params.toString();
  useEffect(() => rememberListSearch(search), [search]);

  /** One history entry that drops every filter (and the page). */
  function clearFilters() {
    setParams(new URLSearchParams());
  }

  const toolbar = (
    <div className={styles.filters}>
      <LogKeyPicker value={filters.logKey} onChange={(value) => setFilter(filterParams.logKey, value)} />
      <Select
        aria-label={t('filters.result')}
        className={styles.result}
        value={filters.result}
        onChange={(event) =>
          setFilter(filterParams.result, event.target.value === 'all' ? undefined : event.target.value)
        }
        options={resultFilters.map((value) => ({ value, label: t(`filters.results.${value}`) }))}
      />
      <UserPicker value={filters.userId} onChange={(value) => setFilter(filterParams.userId, value)} admins={admins} />
      <ApplicationPicker
        value={filters.applicationId}
        onChange={(value) => setFilter(filterParams.applicationId, value)}
      />
      {/* The two ends of the range wrap together, never one on each line. */}
      <fieldset aria-label={t('filters.time_range')} className={styles.range}>
        <label className={styles.time}>
          <span>{t('filters.from')}</span>
          <input
            type="datetime-local"
            className={styles.timeInput}
            value={filters.from ?? ''}
            max={filters.to}
            onChange={(event) => setFilter(filterParams.from, event.target.value || undefined)}
          />
        </label>
        <label className={styles.time}>
          <span>{t('filters.to')}</span>
          <input
            type="datetime-local"
            className={styles.timeInput}
            value={filters.to ?? ''}
            min={filters.from}
            onChange={(event) => setFilter(filterParams.to, event.target.value || undefined)}
          />
        </label>
      </fieldset>
      {hasFilters(filters) && <Button onClick={clearFilters}>{t('filters.clear_all')}</Button>}
    </div>
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={<ExportMenu apiPath="/logs/export" filters={apiFilter} fileName="audit-logs" />}
      />
      {toolbar}
      {isInverted ? (
        <p role="alert" className={styles.alert}>
          {t('filters.inverted_range')}
        </p>
      ) : (
        <AuditLogsTable
          aria-label={t('title')}
          rows={logs.data?.items}
          admins={admins}
          totalCount={logs.data?.total ?? 0}
          isTotalCapped={logs.data?.isTotalCapped}
          isLoading={logs.isPending}
          error={logs.error}
          onRetry={() => void logs.refetch()}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          rowLink={(log) => resolve(toAuditLog(log.id))}
          empty={
            hasFilters(filters) ? (
              <NoResults>{t('list.no_match')}</NoResults>
            ) : (
              <EmptyState icon={ScrollText} title={t('list.empty')} description={t('list.empty_description')} />
            )
          }
        />
      )}
    </>
  );
}
