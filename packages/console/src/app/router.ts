import { createBrowserRouter } from 'react-router';
import { devRoutes } from './dev-routes.ts';
import { edition } from './edition.ts';
import { buildRoutes } from './routes.ts';

/**
 * Created by main.tsx once it knows the console can run (a secure context): creating the router starts the first
 * page's loaders, which begin signing in. The condition on DEV sits here, not in buildRoutes, so production builds
 * drop the dev routes entirely.
 */
export function createConsoleRouter() {
  const routes = buildRoutes({ edition, devRoutes: import.meta.env.DEV ? devRoutes : [] });
  // BASE_URL is vite's `base` ('/console/'); the router wants it without the trailing slash.
  return createBrowserRouter(routes, { basename: import.meta.env.BASE_URL.replace(/\/$/, '') });
}

export type ConsoleRouter = ReturnType<typeof createConsoleRouter>;
