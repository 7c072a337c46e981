import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useDocumentTitle } from '../components/use-document-title.ts';
import styles from './Message.module.css';
import { NotFound } from './NotFound.tsx';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  return error instanceof Error ? error.message : String(error);
}

/** A full reload, because the router never retries a failed chunk import and a new deploy may have replaced it. */
function reload(): void {
  window.location.reload();
}

function SomethingWentWrong({ error }: { error: unknown }) {
  const { t } = useTranslation();
  useDocumentTitle(t('errors.something_went_wrong'));
  return (
    <section className={styles.message} role="alert" aria-labelledby="error-title">
      <h1 id="error-title">{t('errors.something_went_wrong')}</h1>
      {import.meta.env.DEV && <pre className={styles.details}>{describe(error)}</pre>}
      <button type="button" onClick={reload}>
        {t('retry')}
      </button>
    </section>
  );
}

/** Spec §8 error page; a 404 thrown by a loader shows the page-not-found screen instead. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <SomethingWentWrong error={error} />;
}
