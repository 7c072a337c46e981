import { useTranslation } from '../../i18n/react.tsx';
import { LogoMark } from '../Logo.tsx';
import styles from './AppLoading.module.css';

// It renders without the shell (the shell is loading), so it brings its own main landmark.

/** Spec §2.4: the loading screen with the logo, until the first page and the session are ready. */
export function AppLoading() {
  const { t } = useTranslation();
  return (
    <main className={styles.loading}>
      <LogoMark className={styles.logo} />
      <p role="status" className={styles.status}>
        {t('loading')}
      </p>
    </main>
  );
}
