import { useTranslation } from 'react-i18next';
import { LogoMark } from './Logo.tsx';
import styles from './RootFallbacks.module.css';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';

// These render without the shell (it is loading or it failed), so they bring their own main landmark.

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

export function RootErrorBoundary() {
  return (
    <main className={styles.root}>
      <RouteErrorBoundary />
    </main>
  );
}
