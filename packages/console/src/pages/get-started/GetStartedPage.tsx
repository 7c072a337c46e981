import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { requestPage } from '../../api/client.ts';
import { useManagementApi } from '../../api/management.ts';
import { useServerStatus } from '../../api/status.ts';
import { Button, buttonClassName } from '../../components/Button/Button.tsx';
import { classNames } from '../../components/class-names.ts';
import { CheckIcon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './GetStartedPage.module.css';
import { progressOf, stepActionVariants, stepChecks } from './steps.ts';

/**
 * Spec §2.2 get-started: a checklist of what a new tenant sets up, each step read from the tenant's real state
 * (one list call per step) and linking to the page where it is done; done steps are ticked and the progress shown.
 */
export function GetStartedPage() {
  const { t } = useTranslation(['get_started', 'common']);
  useDocumentTitle(t('title'));
  const api = useManagementApi();
  const resolve = useTenantPath();
  const checks = useQueries({
    queries: stepChecks.map((step) => ({
      queryKey: api.key('get-started', step.key),
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const page = await requestPage(api.path(step.path), step.schema, { signal });
        return step.isDone(page.items, page.total);
      },
      // Coming back after creating something shows it ticked.
      staleTime: 0,
    })),
  });
  const doneCount = checks.filter((check) => check.data === true).length;
  const variants = stepActionVariants(checks.map((check) => check.data));
  const isLoading = checks.some((check) => check.isPending);
  const failed = checks.filter((check) => check.isError);
  const percent = progressOf(doneCount, stepChecks.length);

  return (
    <section className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <ServerStatus />
      <div className={styles.progress}>
        <p id="get-started-progress" className={styles.progressText}>
          {isLoading ? t('progress.loading') : t('progress.text', { done: doneCount, total: stepChecks.length })}
        </p>
        <div
          role="progressbar"
          aria-labelledby="get-started-progress"
          aria-valuemin={0}
          aria-valuemax={stepChecks.length}
          aria-valuenow={doneCount}
          aria-valuetext={t('progress.text', { done: doneCount, total: stepChecks.length })}
          className={styles.bar}
        >
          <span className={styles.barFill} style={{ inlineSize: `${percent}%` }} />
        </div>
      </div>
      {failed.length > 0 && (
        <div role="alert" className={styles.alert}>
          <p>{t('load_failed')}</p>
          <Button onClick={() => failed.forEach((check) => void check.refetch())}>{t('common:retry')}</Button>
        </div>
      )}
      <ol className={styles.steps} aria-label={t('steps_label')}>
        {stepChecks.map((step, index) => {
          const check = checks[index];
          const isDone = check?.data === true;
          const title = t(`steps.${step.key}.title`);
          return (
            <li key={step.key} className={classNames(styles.step, isDone && styles.done)} data-step={step.key}>
              <span className={styles.mark} aria-hidden="true">
                {isDone ? <CheckIcon /> : index + 1}
              </span>
              <div className={styles.body}>
                <h2 className={styles.stepTitle}>
                  {title}
                  <span className={styles.state}>
                    {check?.isPending ? t('state.checking') : isDone ? t('state.done') : t('state.todo')}
                  </span>
                </h2>
                <p className={styles.description}>{t(`steps.${step.key}.description`)}</p>
              </div>
              <Link
                to={resolve(isDone ? step.done : step.todo)}
                className={classNames(buttonClassName(variants[index]), styles.action)}
              >
                {isDone ? t(`steps.${step.key}.view`) : t(`steps.${step.key}.action`)}
              </Link>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Whether the server answers: the one status line this page always had (it is the console's first page). */
function ServerStatus() {
  const { t } = useTranslation(['get_started', 'common']);
  const status = useServerStatus();
  const up = status.data === true;
  return (
    <div className={styles.serverRow}>
      <p role="status" className={styles.status} data-state={status.isPending ? 'pending' : up ? 'ok' : 'down'}>
        {status.isPending ? t('status.checking') : up ? t('status.ok') : t('status.unreachable')}
      </p>
      {!status.isPending && !up && (
        <Button onClick={() => void status.refetch()} isLoading={status.isFetching}>
          {t('common:retry')}
        </Button>
      )}
    </div>
  );
}
