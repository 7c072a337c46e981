import { createBrowserRouter } from 'react-router';
import { devRoutes } from './dev-routes.ts';
import { edition } from './edition.ts';
import { buildRoutes } from './routes.ts';

// The condition sits here, not in buildRoutes, so production builds drop the dev routes entirely.
const routes = buildRoutes({ edition, devRoutes: import.meta.env.DEV ? devRoutes : [] });

// BASE_URL is vite's `base` ('/console/'); the router wants it without the trailing slash.
export const router = createBrowserRouter(routes, { basename: import.meta.env.BASE_URL.replace(/\/$/, '') });
