import { startSignIn } from '../../auth/session.ts';
import { Button } from '../../components/Button/Button.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './WelcomePage.module.css';

/** First run (OSS): the account is created on the sign-in issuer's welcome form, which also signs the admin in. */
export function WelcomePage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('welcome.title'));
  return (
    <main className={styles.page}>
      <section className={styles.card} aria-labelledby="welcome-title">
        <h1 id="welcome-title">{t('welcome.title')}</h1>
        <p>{t('welcome.description')}</p>
        <Button variant="primary" onClick={() => startSignIn({ pathname: '/console', search: '', hash: '' })}>
          {t('welcome.create_account')}
        </Button>
      </section>
    </main>
  );
}
