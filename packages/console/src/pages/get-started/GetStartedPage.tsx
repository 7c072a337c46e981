import { useTranslation } from 'react-i18next';
import { useServerStatus } from '../../api/status.ts';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import styles from './GetStartedPage.module.css';

export function GetStartedPage() {
  const { t } = useTranslation(['get_started', 'common']);
  useDocumentTitle(t('title'));
  const status = useServerStatus();
  const up = status.data === true;
  return (
    <section aria-labelledby="get-started-title">
      <h1 id="get-started-title" className={styles.title}>
        {t('title')}
      </h1>
      <p role="status" className={styles.status} data-state={status.isPending ? 'pending' : up ? 'ok' : 'down'}>
        {status.isPending ? t('status.checking') : up ? t('status.ok') : t('status.unreachable')}
      </p>
      {!status.isPending && !up && (
        <button type="button" onClick={() => void status.refetch()} disabled={status.isFetching}>
          {t('common:retry')}
        </button>
      )}
    </section>
  );
}
