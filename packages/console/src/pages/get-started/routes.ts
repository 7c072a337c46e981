import type { RouteObject } from 'react-router';
import { loadNamespace } from '../../i18n/index.ts';

export const getStartedRoutes: RouteObject[] = [
  {
    path: 'get-started',
    lazy: async () => {
      // Page chunk and its strings download in parallel, so the page never suspends on translations.
      const [{ GetStartedPage }] = await Promise.all([import('./GetStartedPage.tsx'), loadNamespace('get_started')]);
      return { Component: GetStartedPage };
    },
  },
];
