import type { Tenant } from '@gatehouse/schemas';

/** A development tenant on the Development plan with no usage, for unit tests; `overrides` change any field. */
export function tenantFixture(id: string, overrides: Partial<Tenant> = {}): Tenant {
  return {
    id,
    name: `Tenant ${id}`,
    tag: 'development',
    regionName: 'EU',
    indicator: `https://${id}.example/api`,
    organizationId: `t-${id}`,
    planId: 'Development',
    subscription: {
      status: 'active',
      planId: 'Development',
      currentPeriodStart: 0,
      currentPeriodEnd: 2_592_000_000,
      isEnterprisePlan: false,
    },
    usage: { activeUsers: 0, tokenUsage: 0 },
    quota: { mauLimit: 100, tokenLimit: null },
    openInvoices: [],
    isSuspended: false,
    role: 'admin',
    createdAt: 0,
    ...overrides,
  };
}
