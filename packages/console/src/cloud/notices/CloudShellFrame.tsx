import { type ReactNode, Suspense, useState } from 'react';
import { useAdminConsoleConfig } from '../../api/admin-console-config.ts';
import { CreateTenantModal } from '../create-tenant/CreateTenantModal.tsx';
import { QuotaExceededModal } from '../quota/QuotaExceededModal.tsx';
import { useRefreshUsageAfterWrites } from '../quota/use-refresh-usage-after-writes.ts';
import { useTenants } from '../tenants/TenantsProvider.tsx';
import { MigrationNotice } from './MigrationNotice.tsx';
import styles from './Notices.module.css';
import { shellNotices } from './notices.ts';
import { ProductionBanner } from './ProductionBanner.tsx';
import { SuspendedTenantPage } from './SuspendedTenantPage.tsx';
import { TenantNoticeModal } from './TenantNoticeModal.tsx';

export type ShellSlots = {
  /** Shown above the page content. */
  notices?: ReactNode;
  /** Shown instead of the sidebar and the page (a suspended tenant). */
  replacement?: ReactNode;
};

/**
 * The cloud shell's notices (AppShell loads this only in the cloud build): a suspended tenant gets the full-page
 * notice and nothing else (spec §2.4); otherwise one banner sits above the page (notices.ts picks it): the
 * development-tenant migration notice (spec §4) or the production-tenant banner (spec §2.11; its action opens the
 * create-tenant modal, which prepends the tenant and moves into it). It also holds the quota modals (spec §4 MAU,
 * token and overdue notices, spec §8 quota refusals) and refreshes quota and usage after each successful write
 * (spec §4).
 */
export function CloudShellFrame({ children }: { children: (slots: ShellSlots) => ReactNode }) {
  const { tenants, isLoaded, currentTenant } = useTenants();
  const isSuspended = currentTenant?.isSuspended === true;
  const needsConfig = currentTenant?.tag === 'development' && !isSuspended;
  const config = useAdminConsoleConfig({ enabled: needsConfig });
  const [isCreating, setCreating] = useState(false);
  useRefreshUsageAfterWrites();
  const shown = shellNotices({
    tenants,
    isLoaded,
    currentTenant,
    config: config.data,
    // A failed read settles it too: no notice, and the banner may show.
    isConfigSettled: !needsConfig || !config.isPending,
  });
  // Each notice suspends on its own while its strings load (a language change), never the shell around it.
  if (shown.isSuspended) {
    return children({
      replacement: (
        <Suspense fallback={null}>
          <SuspendedTenantPage />
        </Suspense>
      ),
    });
  }

  const banner =
    shown.banner === 'migration' && config.data ? (
      <MigrationNotice config={config.data} />
    ) : shown.banner === 'production' ? (
      <ProductionBanner onCreate={() => setCreating(true)} />
    ) : undefined;
  const notices = banner ? (
    <Suspense fallback={null}>
      <div className={styles.notices}>{banner}</div>
    </Suspense>
  ) : undefined;
  return (
    <>
      {children({ notices })}
      {/* Only the production banner opens it here: its purpose is creating a production tenant. */}
      <CreateTenantModal isOpen={isCreating} onClose={() => setCreating(false)} initialTag="production" />
      <Suspense fallback={null}>
        <TenantNoticeModal />
        <QuotaExceededModal />
      </Suspense>
    </>
  );
}
