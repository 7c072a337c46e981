import { useTranslation } from '../../i18n/react.tsx';
import { externalLinks } from '../external-links.ts';
import styles from './TopBar.module.css';
import { useNewerRelease, useProductVersion } from './use-version.ts';

/**
 * Spec §2.5 (open-source only): the running version, with a dot when a newer release exists; a link to the release
 * notes when the build configured them (VITE_RELEASES_URL). Its accessible name starts with the text it shows (WCAG
 * 2.5.3, axe `label-content-name-mismatch`); the update is said in words after it.
 */
export function VersionBadge() {
  const { t } = useTranslation();
  const version = useProductVersion();
  const latest = useNewerRelease(version);
  if (!version) return null;
  const shown = `v${version}`;
  const title = latest ? t('top_bar.update_available', { version, latest }) : t('top_bar.version', { version });
  const content = (
    <>
      {shown}
      {latest && (
        <>
          <span className={styles.dot} aria-hidden="true" />
          <span className={styles.visuallyHidden}>{`, ${title}`}</span>
        </>
      )}
    </>
  );
  if (!externalLinks.releases) {
    return (
      <span className={styles.version} title={title} data-update-available={Boolean(latest)}>
        {content}
      </span>
    );
  }
  return (
    <a
      className={styles.version}
      href={externalLinks.releases}
      target="_blank"
      rel="noopener noreferrer"
      title={title}
      data-update-available={Boolean(latest)}
    >
      {content}
      <span className={styles.visuallyHidden}>{`, ${t('new_tab')}`}</span>
    </a>
  );
}
