import { Button } from '../components/Button/Button.tsx';
import { useDocumentTitle } from '../components/use-document-title.ts';
import { useTranslation } from '../i18n/react.tsx';
import styles from './ErrorPage.module.css';

export type ErrorPageProps = {
  /** Defaults to 'Something went wrong'. */
  title?: string;
  code?: string;
  message?: string;
  /** The call stack, behind 'More details'. */
  stack?: string;
  onRetry?: () => void;
};

/** Spec §2.11: title, a retry, the optional code and message, and the call stack behind 'More details'. */
export function ErrorPage({ title, code, message, stack, onRetry }: ErrorPageProps) {
  const { t } = useTranslation();
  const heading = title ?? t('errors.something_went_wrong');
  useDocumentTitle(heading);
  return (
    <section className={styles.page} role="alert" aria-labelledby="error-title">
      <h1 id="error-title" className={styles.title}>
        {heading}
      </h1>
      {(code || message) && (
        <dl className={styles.facts}>
          {code && (
            <>
              <dt>{t('errors.code')}</dt>
              <dd>
                <code>{code}</code>
              </dd>
            </>
          )}
          {message && (
            <>
              <dt>{t('errors.message')}</dt>
              <dd>{message}</dd>
            </>
          )}
        </dl>
      )}
      {stack && (
        <details className={styles.details}>
          <summary>{t('errors.more_details')}</summary>
          <pre className={styles.stack}>{stack}</pre>
        </details>
      )}
      {onRetry && (
        <Button variant="primary" onClick={onRetry}>
          {t('retry')}
        </Button>
      )}
    </section>
  );
}
