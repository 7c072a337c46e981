import type { AdminConsoleConfig, Tenant } from '@gatehouse/schemas';

/** Spec §2.11: the production-tenant banner shows while none of the user's tenants is a production tenant. */
export function showsProductionBanner(tenants: readonly Pick<Tenant, 'tag'>[]): boolean {
  return !tenants.some((tenant) => tenant.tag === 'production');
}

/**
 * Spec §4: the development-tenant migration notice tells the owners of development tenants that existed when
 * development tenants changed what changed for them. The change left its record in such a tenant's admin-console config
 * (`developmentTenantMigrationNotification`); the notice shows until the record's readAt is set. A tenant made since
 * (a new account's first tenant) has no record, so nothing changed for it and it never shows (issue 40, item 16).
 * While the config is unknown (loading, failed) it does not show, so it never flashes for someone who already read it.
 */
export function showsMigrationNotice(
  tenant: Pick<Tenant, 'tag'> | undefined,
  config: AdminConsoleConfig | undefined,
): boolean {
  if (tenant?.tag !== 'development' || !config) return false;
  const record = config.developmentTenantMigrationNotification;
  return record !== undefined && record.readAt === undefined;
}

/** The one banner above the page. */
export type ShellBanner = 'migration' | 'production';
export type ShellNotices = { isSuspended: boolean; banner: ShellBanner | undefined };

/**
 * Spec §2.4: a suspended tenant gets its full-page notice and no other notice. Otherwise at most one banner shows
 * (issue 40, item 16: two stacked banners buried the page), the most important first: the migration notice, news about
 * the user's own tenant that goes once read, before the production banner, an offer that stays until a production
 * tenant exists (first, it would hide the notice for good). The tenant list decides the banner; a development tenant's
 * config decides the notice, and until it is known (`isConfigSettled`) neither shows, so the banner is not replaced by
 * the notice a moment after it appeared.
 */
export function shellNotices(input: {
  tenants: readonly Pick<Tenant, 'tag'>[];
  isLoaded: boolean;
  currentTenant: Pick<Tenant, 'tag' | 'isSuspended'> | undefined;
  config: AdminConsoleConfig | undefined;
  isConfigSettled: boolean;
}): ShellNotices {
  if (input.currentTenant?.isSuspended) return { isSuspended: true, banner: undefined };
  if (!input.isLoaded || !input.isConfigSettled) return { isSuspended: false, banner: undefined };
  if (showsMigrationNotice(input.currentTenant, input.config)) return { isSuspended: false, banner: 'migration' };
  return { isSuspended: false, banner: showsProductionBanner(input.tenants) ? 'production' : undefined };
}
