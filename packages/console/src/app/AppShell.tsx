import { lazy, type MouseEvent, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { ForbiddenAlert } from '../auth/ForbiddenAlert.tsx';
import { signOut } from '../auth/session.ts';
import type { ShellSlots } from '../cloud/notices/CloudShellFrame.tsx';
import { AppLoading } from '../components/AppLoading/AppLoading.tsx';
import { Loading } from '../components/Loading.tsx';
import { LandingPathContext } from '../components/routing/landing-path.ts';
import { useTenantPath } from '../components/routing/tenant-path.ts';
import { loadNamespace } from '../i18n/index.ts';
import { useTranslation } from '../i18n/react.tsx';
import styles from './AppShell.module.css';
import { useAccount } from './account.ts';
import { areasOf, availableSidebarItems } from './areas.ts';
import { usePaletteShortcut } from './command-palette/use-palette-shortcut.ts';
import { edition } from './edition.ts';
import { landingPath } from './landing.ts';
import { Sidebar } from './Sidebar.tsx';
import { sidebarItemPath, visibleSidebar } from './sidebar.ts';
import { TopBar } from './top-bar/TopBar.tsx';

const mainId = 'main-content';
const sidebarId = 'console-sidebar';

/** The palette and the contact dialog load with their first opening, not with the console's first page. */
const CommandPalette = lazy(async () => ({
  default: (await import('./command-palette/CommandPalette.tsx')).CommandPalette,
}));
const ContactDialog = lazy(async () => ({ default: (await import('./top-bar/ContactDialog.tsx')).ContactDialog }));
const entitySearches = areasOf(edition).flatMap((area) => (area.searchEntities ? [area.searchEntities] : []));
const sidebarItems = visibleSidebar(edition, availableSidebarItems(edition)).flatMap((section) => section.items);

/**
 * The cloud notices (suspended tenant, production banner, migration notice). A compile-time edition check around a
 * dynamic import, so the OSS bundle has none of their code or strings.
 */
const CloudShellFrame =
  // The define itself, not the imported `edition`: the bundler then drops the import before it makes chunks.
  import.meta.env.GATEHOUSE_EDITION === 'cloud'
    ? lazy(async () => {
        const [module] = await Promise.all([
          import('../cloud/notices/CloudShellFrame.tsx'),
          loadNamespace('tenant_settings'),
        ]);
        return { default: module.CloudShellFrame };
      })
    : undefined;

/**
 * The sidebar behind the top bar's menu button at tablet and phone widths (AppShell.module.css decides when the button
 * and the drawer exist; at desktop widths the sidebar is always there and this state does nothing). A navigation, Esc
 * or a press beside the menu closes it.
 */
function useNarrowMenu() {
  const [isOpen, setOpen] = useState(false);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, a page change closes the menu.
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!isOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [isOpen]);
  return {
    isOpen,
    toggle: useCallback(() => setOpen((open) => !open), []),
    close: useCallback(() => setOpen(false), []),
  };
}

/** Moves focus instead of changing the URL hash, which the router would treat as a navigation. */
function skipToMain(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  document.getElementById(mainId)?.focus();
}

export function AppShell() {
  const { t } = useTranslation();
  const navigating = useNavigation().state !== 'idle';
  const account = useAccount();
  const [dialog, setDialog] = useState<'contact' | 'palette'>();
  const close = useCallback(() => setDialog(undefined), []);
  const openContact = useCallback(() => setDialog('contact'), []);
  const openPalette = useCallback(() => setDialog('palette'), []);
  usePaletteShortcut(openPalette);
  const menu = useNarrowMenu();

  const resolve = useTenantPath();
  const pages = useMemo(
    () =>
      sidebarItems.map((item) => ({
        id: `page:${item.key}`,
        label: t(`sidebar.items.${item.key}`),
        // What people type for the page besides its name ('mfa', 'smtp'), matched but not shown.
        keywords: t(`palette.keywords.${item.key}`).split(','),
        group: t('palette.pages'),
        to: resolve(sidebarItemPath(item)),
      })),
    [t, resolve],
  );

  const shell = ({ notices, replacement }: ShellSlots = {}): ReactNode => (
    <div className={styles.shell}>
      <a className={styles.skipLink} href={`#${mainId}`} onClick={skipToMain}>
        {t('skip_to_content')}
      </a>
      <TopBar
        {...account}
        menu={replacement ? undefined : { isOpen: menu.isOpen, controls: sidebarId, onToggle: menu.toggle }}
        onOpenContact={openContact}
        onOpenPalette={openPalette}
        onSignOut={signOut}
      />
      {replacement ? (
        <main id={mainId} className={styles.replacement} tabIndex={-1}>
          {replacement}
        </main>
      ) : (
        <>
          <Sidebar id={sidebarId} isOpen={menu.isOpen} onOpenContact={openContact} />
          {/* Narrow widths: the open menu lies over the page; a press beside it closes it. */}
          {menu.isOpen && <div className={styles.backdrop} aria-hidden="true" onClick={menu.close} />}
          <main id={mainId} className={styles.main} tabIndex={-1} aria-busy={navigating}>
            <div className={styles.progress} hidden={!navigating} aria-hidden="true" />
            {/* Every page at one width (issue 40, item 6): pages set no width of their own. */}
            <div className={styles.content}>
              {notices}
              <Suspense fallback={<Loading />}>
                <Outlet />
              </Suspense>
            </div>
          </main>
        </>
      )}
      <ForbiddenAlert />
      {dialog && (
        <Suspense fallback={null}>
          {dialog === 'contact' ? (
            <ContactDialog isOpen onClose={close} />
          ) : (
            <CommandPalette isOpen onClose={close} pages={pages} searches={entitySearches} resolve={resolve} />
          )}
        </Suspense>
      )}
    </div>
  );

  return (
    <LandingPathContext value={landingPath}>
      {CloudShellFrame ? (
        // The cloud frame's code is still arriving: the same logo screen as before it (one loading state, issue 26).
        <Suspense fallback={<AppLoading />}>
          <CloudShellFrame>{shell}</CloudShellFrame>
        </Suspense>
      ) : (
        shell()
      )}
    </LandingPathContext>
  );
}
