import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Spec §2.2 mfa: one page under the tenant. Page chunk and strings download in parallel. */
export const mfaArea: ConsoleArea = {
  sidebarItem: 'mfa',
  routes: [
    {
      path: 'mfa',
      lazy: async () => {
        const [module] = await Promise.all([import('./MfaPage.tsx'), loadNamespace('mfa')]);
        return { Component: module.MfaPage };
      },
    },
  ],
};
