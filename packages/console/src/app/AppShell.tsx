import { lazy, type MouseEvent, type ReactNode, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigation } from 'react-router';
import { ForbiddenAlert } from '../auth/ForbiddenAlert.tsx';
import { signOut } from '../auth/session.ts';
import type { ShellSlots } from '../cloud/notices/CloudShellFrame.tsx';
import { Loading } from '../components/Loading.tsx';
import { useTenantPath } from '../components/routing/tenant-path.ts';
import { loadNamespace } from '../i18n/index.ts';
import styles from './AppShell.module.css';
import { useAccount } from './account.ts';
import { areasOf, availableSidebarItems } from './areas.ts';
import { CommandPalette } from './command-palette/CommandPalette.tsx';
import { usePaletteShortcut } from './command-palette/use-palette-shortcut.ts';
import { edition } from './edition.ts';
import { Sidebar } from './Sidebar.tsx';
import { sidebarItemPath, visibleSidebar } from './sidebar.ts';
import { ContactDialog } from './top-bar/ContactDialog.tsx';
import { TopBar } from './top-bar/TopBar.tsx';

const mainId = 'main-content';
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

  const resolve = useTenantPath();
  const pages = useMemo(
    () =>
      sidebarItems.map((item) => ({
        id: `page:${item.key}`,
        label: t(`sidebar.items.${item.key}`),
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
      <TopBar {...account} onOpenContact={openContact} onOpenPalette={openPalette} onSignOut={signOut} />
      {replacement ? (
        <main id={mainId} className={styles.replacement} tabIndex={-1}>
          {replacement}
        </main>
      ) : (
        <>
          <Sidebar onOpenContact={openContact} />
          <main id={mainId} className={styles.main} tabIndex={-1} aria-busy={navigating}>
            <div className={styles.progress} hidden={!navigating} aria-hidden="true" />
            {notices}
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </main>
        </>
      )}
      <ForbiddenAlert />
      <ContactDialog isOpen={dialog === 'contact'} onClose={close} />
      <CommandPalette
        isOpen={dialog === 'palette'}
        onClose={close}
        pages={pages}
        searches={entitySearches}
        resolve={resolve}
      />
    </div>
  );

  if (!CloudShellFrame) return shell();
  return (
    <Suspense fallback={<Loading />}>
      <CloudShellFrame>{shell}</CloudShellFrame>
    </Suspense>
  );
}
