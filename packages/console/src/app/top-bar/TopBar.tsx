import { lazy, type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { classNames } from '../../components/class-names.ts';
import { BookIcon, HelpIcon, MenuIcon, SearchIcon } from '../../components/icons.tsx';
import { LogoMark } from '../../components/Logo.tsx';
import { useLandingPath } from '../../components/routing/landing-path.ts';
import { useTranslation } from '../../i18n/react.tsx';
import type { AccountState } from '../account.ts';
import { DevBanner } from '../DevBanner.tsx';
import { edition } from '../edition.ts';
import { contactRows, externalLinks } from '../external-links.ts';
import styles from './TopBar.module.css';
import { UserMenu } from './UserMenu.tsx';
import { VersionBadge } from './VersionBadge.tsx';

type Props = AccountState & {
  /** Cloud only: the tenant switcher, filled by the cloud edition's code (spec §2.10). */
  tenantSelector?: ReactNode;
  /** The button that opens the sidebar at tablet and phone widths (hidden wider); none where there is no sidebar. */
  menu?: { isOpen: boolean; controls: string; onToggle: () => void } | undefined;
  onOpenContact: () => void;
  onOpenPalette: () => void;
  onSignOut: () => Promise<unknown>;
};

// The compile-time constant (not `edition`) lets the OSS build drop the switcher's chunk altogether.
const TenantSwitcher =
  import.meta.env.GATEHOUSE_EDITION === 'cloud'
    ? lazy(async () => ({ default: (await import('../../cloud/switcher/TenantSwitcher.tsx')).TenantSwitcher }))
    : undefined;

/** Spec §2.5: logo, tenant selector (cloud) or title (OSS), docs, help, version (OSS) and the user menu. */
/** Spec §2.11: the help button opens the contact dialog, shown when the build configured a way to reach the team. */
const hasContactRows = contactRows().length > 0;

export function TopBar({ tenantSelector, menu, onOpenContact, onOpenPalette, onSignOut, ...account }: Props) {
  const { t } = useTranslation();
  return (
    <header className={styles.topBar}>
      {menu && (
        <button
          type="button"
          className={classNames(styles.iconButton, styles.menuButton)}
          aria-label={t('sidebar.label')}
          aria-expanded={menu.isOpen}
          aria-controls={menu.controls}
          onClick={menu.onToggle}
        >
          <MenuIcon />
        </button>
      )}
      <Link to={useLandingPath()} className={styles.home} aria-label={t('top_bar.home')}>
        <LogoMark className={styles.logo} />
        <span className={styles.brand} aria-hidden="true">
          {t('app_name')}
        </span>
      </Link>
      {edition === 'cloud' ? (
        <div className={styles.tenantSelector}>
          {tenantSelector ??
            (TenantSwitcher && (
              <Suspense fallback={null}>
                <TenantSwitcher />
              </Suspense>
            ))}
        </div>
      ) : (
        <span className={styles.title}>{t('top_bar.title')}</span>
      )}
      {import.meta.env.DEV && <DevBanner />}
      <div className={styles.actions}>
        <button type="button" className={styles.search} onClick={onOpenPalette} aria-keyshortcuts="Control+K Meta+K">
          <SearchIcon />
          <span>{t('top_bar.search')}</span>
          <kbd className={styles.shortcut}>{t('top_bar.search_shortcut')}</kbd>
        </button>
        {externalLinks.docs && (
          <a className={styles.action} href={externalLinks.docs} target="_blank" rel="noopener noreferrer">
            <BookIcon />
            <span>{t('top_bar.docs')}</span>
            <span className={styles.visuallyHidden}>{t('new_tab')}</span>
          </a>
        )}
        {hasContactRows && (
          <button
            type="button"
            className={styles.iconButton}
            aria-label={t('top_bar.help')}
            title={t('top_bar.help')}
            aria-haspopup="dialog"
            onClick={onOpenContact}
          >
            <HelpIcon />
          </button>
        )}
        {edition === 'oss' && <VersionBadge />}
        <UserMenu {...account} onSignOut={onSignOut} />
      </div>
    </header>
  );
}
