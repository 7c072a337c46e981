import { type MouseEvent, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigation } from 'react-router';
import { Loading } from '../components/Loading.tsx';
import styles from './AppShell.module.css';
import { DevBanner } from './DevBanner.tsx';
import { Sidebar } from './Sidebar.tsx';

const mainId = 'main-content';

/** Moves focus instead of changing the URL hash, which the router would treat as a navigation. */
function skipToMain(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  document.getElementById(mainId)?.focus();
}

export function AppShell() {
  const { t } = useTranslation();
  const navigating = useNavigation().state !== 'idle';
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <a className={styles.skipLink} href={`#${mainId}`} onClick={skipToMain}>
          {t('skip_to_content')}
        </a>
        <span className={styles.brand}>{t('app_name')}</span>
        {import.meta.env.DEV && <DevBanner />}
      </header>
      <Sidebar />
      <main id={mainId} className={styles.main} tabIndex={-1} aria-busy={navigating}>
        <div className={styles.progress} hidden={!navigating} aria-hidden="true" />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
