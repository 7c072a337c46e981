import { resolveTenantPath } from '../../components/routing/tenant-path.ts';
import { toTenantSettings } from '../../pages/tenant-settings/tabs.ts';

/**
 * Spec §2.11: the upgrade buttons of the quota and usage modals go to the subscription page, the tenant-settings
 * 'subscription' tab. Through that area's own link builder (a pure module), so the link cannot drift from its route.
 */
export function subscriptionTabPath(tenantId: string): string {
  return resolveTenantPath(tenantId, toTenantSettings('subscription'));
}
