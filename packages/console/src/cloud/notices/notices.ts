import type { AdminConsoleConfig, Tenant } from '@gatehouse/schemas';

/** Spec §2.11: the production-tenant banner shows while none of the user's tenants is a production tenant. */
export function showsProductionBanner(tenants: readonly Pick<Tenant, 'tag'>[]): boolean {
  return !tenants.some((tenant) => tenant.tag === 'production');
}

/**
 * Spec §4: the development-tenant migration notice shows on development tenants until its readAt is set. While the
 * config is unknown (loading, failed) it does not show, so it never flashes for someone who already dismissed it.
 */
export function showsMigrationNotice(
  tenant: Pick<Tenant, 'tag'> | undefined,
  config: AdminConsoleConfig | undefined,
): boolean {
  if (tenant?.tag !== 'development' || !config) return false;
  return config.developmentTenantMigrationNotification?.readAt === undefined;
}

export type ShellNotices = { isSuspended: boolean; showsBanner: boolean; showsMigration: boolean };

/** Spec §2.4: a suspended tenant gets its full-page notice and no other notice; otherwise each rule decides. */
export function shellNotices(input: {
  tenants: readonly Pick<Tenant, 'tag'>[];
  isLoaded: boolean;
  currentTenant: Pick<Tenant, 'tag' | 'isSuspended'> | undefined;
  config: AdminConsoleConfig | undefined;
}): ShellNotices {
  if (input.currentTenant?.isSuspended) return { isSuspended: true, showsBanner: false, showsMigration: false };
  return {
    isSuspended: false,
    showsBanner: input.isLoaded && showsProductionBanner(input.tenants),
    showsMigration: showsMigrationNotice(input.currentTenant, input.config),
  };
}
