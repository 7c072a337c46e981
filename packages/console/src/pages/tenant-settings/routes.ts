import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

const withStrings = async <T>(chunk: Promise<T>): Promise<T> =>
  (await Promise.all([chunk, loadNamespace('tenant_settings')]))[0];

/** The subscription and billing-history tabs name plans (tenants) and quotas (quota) in those namespaces' words. */
const loadBillingStrings = () =>
  Promise.all([loadNamespace('subscription'), loadNamespace('tenants'), loadNamespace('quota')]);

/**
 * Spec §2.2 tenant-settings (cloud only): the index goes to settings for tenant managers, else to members; tabs
 * settings (managers), members/* (the list; 'invitations' only for those who may invite; any other sub-path is
 * page-not-found), domains, and subscription and billing-history (tenant managers of non-development tenants).
 */
export const tenantSettingsArea: ConsoleArea = {
  sidebarItem: 'tenant_settings',
  editions: ['cloud'],
  routes: [
    {
      path: 'tenant-settings',
      lazy: async () => ({ Component: (await withStrings(import('./TenantSettingsPage.tsx'))).TenantSettingsPage }),
      children: [
        {
          index: true,
          lazy: async () => ({ Component: (await import('./TenantSettingsPage.tsx')).TenantSettingsIndex }),
        },
        {
          path: 'settings',
          lazy: async () => ({ Component: (await import('./guarded-tabs.tsx')).GuardedSettingsTab }),
        },
        {
          path: 'members',
          lazy: async () => ({ Component: (await import('./members/MembersTab.tsx')).MembersTab }),
          children: [
            {
              index: true,
              lazy: async () => ({ Component: (await import('./members/MembersList.tsx')).MembersList }),
            },
            {
              path: 'invitations',
              lazy: async () => ({ Component: (await import('./guarded-tabs.tsx')).GuardedInvitationsList }),
            },
          ],
        },
        {
          path: 'subscription',
          lazy: async () => {
            const [module] = await Promise.all([import('./guarded-tabs.tsx'), loadBillingStrings()]);
            return { Component: module.GuardedSubscriptionTab };
          },
        },
        {
          path: 'billing-history',
          lazy: async () => {
            const [module] = await Promise.all([import('./guarded-tabs.tsx'), loadBillingStrings()]);
            return { Component: module.GuardedBillingHistoryTab };
          },
        },
        {
          path: 'domains',
          lazy: async () => {
            const [module] = await Promise.all([import('./domains/DomainsTab.tsx'), loadNamespace('domains')]);
            return { Component: module.DomainsTab };
          },
        },
      ],
    },
  ],
};
