import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea, EntitySearch } from '../../components/routing/area.ts';
import { i18n, loadNamespace } from '../../i18n/index.ts';
import { toHook } from './links.ts';

/** Page chunk and strings download in parallel, so a page never suspends on its translations. */
async function page<T>(load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadNamespace('webhooks')]);
  return module;
}

/** The palette finds webhooks by name or endpoint in the open tenant. */
const searchEntities: EntitySearch = async (query, signal, { tenantId }) => {
  // Loaded on first use, so the shell's start-up chunk does not carry this area's API code.
  const { searchHooks } = await import('../../api/webhooks.ts');
  const [{ items }] = await Promise.all([searchHooks(tenantId, query, signal), loadNamespace('webhooks')]);
  return items.map((hook) => ({
    id: hook.id,
    label: hook.name,
    kind: i18n.t('webhooks:palette_kind'),
    to: toHook(hook.id),
  }));
};

/**
 * Spec §2.2 webhooks: index; create (a dialog over the list); '{id}' → settings; tabs settings and recent-requests;
 * '{hookId}/recent-requests/{logId}'.
 */
export const webhooksArea: ConsoleArea = {
  sidebarItem: 'webhooks',
  routes: [
    {
      path: 'webhooks',
      lazy: async () => ({ Component: (await page(() => import('./WebhooksPage.tsx'))).WebhooksPage }),
      children: [
        {
          path: 'create',
          lazy: async () => ({ Component: (await import('./create/CreateWebhookModal.tsx')).CreateWebhookModal }),
        },
      ],
    },
    {
      path: 'webhooks/:hookId/recent-requests/:logId',
      lazy: async () => ({ Component: (await page(() => import('./detail/RequestLogPage.tsx'))).RequestLogPage }),
    },
    {
      path: 'webhooks/:hookId',
      lazy: async () => ({
        Component: (await page(() => import('./detail/WebhookDetailsPage.tsx'))).WebhookDetailsPage,
      }),
      children: [
        defaultTabRoute('settings'),
        {
          path: 'settings',
          lazy: async () => ({ Component: (await import('./detail/WebhookSettings.tsx')).WebhookSettings }),
        },
        {
          path: 'recent-requests',
          lazy: async () => ({ Component: (await import('./detail/RecentRequests.tsx')).RecentRequests }),
        },
      ],
    },
  ],
  searchEntities,
};
