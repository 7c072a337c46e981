import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Spec §2.2 signing-keys: a single page (private signing keys and cookie keys). */
export const signingKeysArea: ConsoleArea = {
  sidebarItem: 'signing_keys',
  routes: [
    {
      path: 'signing-keys',
      lazy: async () => {
        const [module] = await Promise.all([import('./SigningKeysPage.tsx'), loadNamespace('signing_keys')]);
        return { Component: module.SigningKeysPage };
      },
    },
  ],
};
