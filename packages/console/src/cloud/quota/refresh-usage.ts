import type { Tenant } from '@gatehouse/schemas';
import type { QueryClient } from '@tanstack/react-query';
import { billingKeys } from '../../api/billing.ts';
import { cloudKeys, fetchTenants } from '../../api/tenants.ts';

/** The tenant fields a write can change through billing: plan, subscription, usage, quota, open invoices. */
const billingFields = ['planId', 'subscription', 'usage', 'quota', 'openInvoices'] as const;
type BillingFields = Pick<Tenant, (typeof billingFields)[number]>;

export function billingFieldsOf(tenant: Tenant): BillingFields {
  return {
    planId: tenant.planId,
    subscription: tenant.subscription,
    usage: tenant.usage,
    quota: tenant.quota,
    openInvoices: tenant.openInvoices,
  };
}

/**
 * Spec §4 'a successful POST, PUT or DELETE in cloud mode refreshes quota and usage'. The tenant list is read again,
 * then the tenant's subscription usage query is invalidated if the tenant is in both lists (a deleted or left tenant
 * is not read again), and only the billing fields of tenants still in the local list are merged in: the list is
 * kept locally (creates, renames, leaves), so replacing it with a read that started before one of those changes
 * would undo it. Runs are coalesced: writes during a run cause one more run after it.
 */
export function createUsageRefresher(
  client: QueryClient,
  updateTenant: (id: string, patch: Partial<Tenant>) => void,
  load: () => Promise<Tenant[]> = () => fetchTenants(),
): (tenantId: string | undefined) => Promise<void> {
  let running: Promise<void> | undefined;
  let again: string | undefined | null = null;

  async function run(tenantId: string | undefined): Promise<void> {
    const fresh = await load().catch(() => undefined);
    const local = new Map(
      (client.getQueryData<Tenant[]>(cloudKeys.tenants) ?? []).map((tenant) => [tenant.id, tenant]),
    );
    // Only a tenant that still exists: after a tenant is deleted or left, its usage would answer 404 (issue 26).
    const exists = (id: string) => local.has(id) && (!fresh || fresh.some((tenant) => tenant.id === id));
    if (tenantId !== undefined && exists(tenantId))
      void client.invalidateQueries({ queryKey: billingKeys.usage(tenantId) });
    if (!fresh) return; // A failed refresh is not the write's failure; the next write tries again.
    for (const tenant of fresh) {
      const known = local.get(tenant.id);
      const patch = billingFieldsOf(tenant);
      // Unchanged figures leave the list as it is, so a write does not re-render every reader of the tenants.
      if (known && JSON.stringify(billingFieldsOf(known)) !== JSON.stringify(patch)) updateTenant(tenant.id, patch);
    }
  }

  return function refresh(tenantId) {
    if (running) {
      again = tenantId;
      return running;
    }
    running = (async () => {
      await run(tenantId);
      while (again !== null) {
        const next = again;
        again = null;
        await run(next);
      }
      running = undefined;
    })();
    return running;
  };
}

/** Calls `onWrite` after each successful mutation (every mutation of the console is a POST, PUT, PATCH or DELETE). */
export function onSuccessfulWrites(client: QueryClient, onWrite: () => void): () => void {
  return client.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') onWrite();
  });
}
