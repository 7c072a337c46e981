import { useTranslation } from 'react-i18next';
import { externalLinks } from '../external-links.ts';
import styles from './TopBar.module.css';
import { useNewerRelease, useProductVersion } from './use-version.ts';

/** Spec §2.5 (open-source only): the running version, with a dot when a newer release exists; links to releases. */
export function VersionBadge() {
  const { t } = useTranslation();
  const version = useProductVersion();
  const latest = useNewerRelease(version);
  const label = latest ? t('top_bar.update_available', { version, latest }) : t('top_bar.version', { version });
  return (
    <a
      className={styles.version}
      href={externalLinks.releases}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      title={label}
      data-update-available={Boolean(latest)}
    >
      {`v${version}`}
      {latest && <span className={styles.dot} aria-hidden="true" />}
    </a>
  );
}
