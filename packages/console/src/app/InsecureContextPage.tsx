import { useTranslation } from '../i18n/react.tsx';
import { ErrorPage } from './ErrorPage.tsx';
import styles from './RootFallbacks.module.css';

/** Shown instead of the whole console when hasSecureCrypto() is false: no router, no sign-in attempt. */
export function InsecureContextPage() {
  const { t } = useTranslation();
  return (
    <main className={styles.root}>
      <ErrorPage code="errors.insecure_contexts" message={t('errors.insecure_contexts')} />
    </main>
  );
}
