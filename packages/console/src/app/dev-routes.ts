import type { RouteObject } from 'react-router';

/** Development-only routes (spec §2.1); router.ts leaves them out of production builds. */
export const devRoutes: RouteObject[] = [
  {
    path: '__internal__/import-error',
    // Rejects like a page chunk that failed to download, to exercise the error boundary.
    lazy: () => Promise.reject(new Error('Simulated failure to import a page chunk')),
  },
];
