import { type RouteObject, redirect } from 'react-router';
import { loadConsoleConfig } from '../../auth/console-config.ts';
import { loadNamespace } from '../../i18n/index.ts';

export const welcomeRoutes: RouteObject[] = [
  {
    path: 'welcome',
    lazy: async () => {
      const [{ WelcomePage }] = await Promise.all([import('./WelcomePage.tsx'), loadNamespace('auth')]);
      return {
        Component: WelcomePage,
        // Once an admin exists, welcome has nothing to offer: go to the console (which signs in).
        loader: async () => ((await loadConsoleConfig({ refresh: true })).adminExists ? redirect('/') : null),
      };
    },
  },
];
