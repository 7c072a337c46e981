import { ChartLine } from 'lucide';
import { lazy, Suspense, useId, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useActiveUsers, useNewUsers, useTotalUsers } from '../../api/dashboard.ts';
import { Button } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { SetIcon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { ActiveUsersTable } from './ActiveUsersTable.tsx';
import styles from './Dashboard.module.css';
import { hasActivity } from './format.ts';
import { StatTile } from './StatTile.tsx';

// uPlot and its CSS come with the chart's own chunk, fetched when the dashboard draws it.
const ActiveUsersChart = lazy(() => import('./ActiveUsersChart.tsx'));

export const chartRanges = [14, 30] as const;
type ChartRange = (typeof chartRanges)[number];
const parseRange = (value: string | null): ChartRange => (value === '14' ? 14 : 30);

/** A failed query: what failed and a retry, in place of the figures. */
function QueryError({ error, onRetry }: { error: unknown; onRetry: () => unknown }) {
  const { t } = useTranslation('components');
  return (
    <div className={styles.error}>
      <p role="alert">
        {t('table.error')}
        {error instanceof Error && error.message ? ` ${error.message}` : ''}
      </p>
      <Button size="small" onClick={onRetry}>
        {t('table.retry')}
      </Button>
    </div>
  );
}

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  useDocumentTitle(t('title'));
  const [searchParams, setSearchParams] = useSearchParams();
  const range = parseRange(searchParams.get('range'));
  const total = useTotalUsers();
  const fresh = useNewUsers();
  const active = useActiveUsers();
  const chartTitleId = useId();
  const points = useMemo(() => active.data?.dauCurve.slice(-range) ?? [], [active.data, range]);

  const chooseRange = (next: ChartRange) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('range', String(next));
        return params;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Card title={t('users.title')}>
        {(total.error || fresh.error) && (
          <QueryError
            error={total.error ?? fresh.error}
            onRetry={() => Promise.all([total.refetch(), fresh.refetch()])}
          />
        )}
        <dl className={styles.tiles} aria-busy={total.isPending || fresh.isPending}>
          <StatTile testId="total-users" label={t('users.total')} value={total.data?.totalUserCount} />
          <StatTile
            testId="new-users-today"
            label={t('users.new_today')}
            value={fresh.data?.today.count}
            change={{ delta: fresh.data?.today.delta, comparedTo: t('compared.yesterday') }}
          />
          <StatTile
            testId="new-users-7-days"
            label={t('users.new_7_days')}
            value={fresh.data?.last7Days.count}
            change={{ delta: fresh.data?.last7Days.delta, comparedTo: t('compared.previous_7_days') }}
          />
        </dl>
      </Card>
      <Card title={t('active.title')} description={t('active.description')}>
        {active.error && <QueryError error={active.error} onRetry={() => active.refetch()} />}
        <dl className={styles.tiles} aria-busy={active.isPending}>
          <StatTile
            testId="dau"
            label={t('active.dau')}
            value={active.data?.dau.count}
            change={{ delta: active.data?.dau.delta, comparedTo: t('compared.yesterday') }}
          />
          <StatTile
            testId="wau"
            label={t('active.wau')}
            value={active.data?.wau.count}
            change={{ delta: active.data?.wau.delta, comparedTo: t('compared.previous_7_days') }}
          />
          <StatTile
            testId="mau"
            label={t('active.mau')}
            value={active.data?.mau.count}
            change={{ delta: active.data?.mau.delta, comparedTo: t('compared.previous_30_days') }}
          />
        </dl>
        <figure className={styles.figure}>
          <div className={styles.figureHeader}>
            <figcaption id={chartTitleId} className={styles.figureTitle}>
              {t('chart.title', { count: range })}
            </figcaption>
            {/* biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form fieldset. */}
            <div role="group" aria-label={t('chart.range')} className={styles.rangeToggle}>
              {chartRanges.map((option) => (
                <Button
                  key={option}
                  size="small"
                  variant={option === range ? 'primary' : 'default'}
                  aria-pressed={option === range}
                  onClick={() => chooseRange(option)}
                >
                  {t('chart.days', { count: option })}
                </Button>
              ))}
            </div>
          </div>
          {active.data ? (
            <>
              {hasActivity(points) ? (
                <>
                  <Suspense fallback={<div className={styles.chartPlaceholder} />}>
                    <ActiveUsersChart points={points} />
                  </Suspense>
                  <p className={styles.legend} data-testid="dau-legend">
                    <span className={styles.legendSwatch} aria-hidden="true" />
                    {t('chart.active_users')}
                  </p>
                </>
              ) : (
                <div className={styles.noData} data-testid="dau-no-data">
                  <SetIcon icon={ChartLine} className={styles.noDataIcon} />
                  <p className={styles.noDataText}>{t('chart.no_data')}</p>
                </div>
              )}
              <ActiveUsersTable points={points} captionId={chartTitleId} />
            </>
          ) : (
            <div className={styles.chartPlaceholder} />
          )}
        </figure>
      </Card>
    </>
  );
}
