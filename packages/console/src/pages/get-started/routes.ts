import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Link builder: the get-started page, relative to the tenant. */
export const toGetStarted = (): string => 'get-started';

export const getStartedArea: ConsoleArea = {
  sidebarItem: 'get_started',
  routes: [
    {
      path: 'get-started',
      lazy: async () => {
        // Page chunk and its strings download in parallel, so the page never suspends on translations.
        const [{ GetStartedPage }] = await Promise.all([import('./GetStartedPage.tsx'), loadNamespace('get_started')]);
        return { Component: GetStartedPage };
      },
    },
  ],
};
