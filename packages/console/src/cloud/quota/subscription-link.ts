import { resolveTenantPath } from '../../components/routing/tenant-path.ts';

/**
 * Spec §2.11: the subscription page is the tenant-settings 'subscription' tab; the upgrade buttons of the quota and
 * usage modals go there. Built here until the tenant-settings tabs export their own link builder for it.
 */
export function subscriptionTabPath(tenantId: string): string {
  return resolveTenantPath(tenantId, 'tenant-settings/subscription');
}
