import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Security: one page under the tenant (lockout and email blocklist). Page chunk and strings download in parallel. */
export const securityArea: ConsoleArea = {
  sidebarItem: 'security',
  routes: [
    {
      path: 'security',
      lazy: async () => {
        const [module] = await Promise.all([import('./SecurityPage.tsx'), loadNamespace('security')]);
        return { Component: module.SecurityPage };
      },
    },
  ],
};
