import type { RouteObject } from 'react-router';
import { requireSession } from '../../auth/require-session.ts';
import { loadNamespace } from '../../i18n/index.ts';
import { linkedAccountsProfileRoutes } from './linked-accounts/routes.ts';

/**
 * Spec §2.1/§2.12: the tenant-less profile page and its password sub-routes, which open as dialogs over it. The
 * path is a static segment, so in cloud it ranks above '/:tenantId' and is never read as a tenant id.
 */
export const profileRoutes: RouteObject[] = [
  {
    path: 'profile',
    loader: requireSession,
    lazy: async () => {
      // Page chunk and its strings download in parallel, so the page never suspends on translations.
      const [{ ProfilePage }] = await Promise.all([import('./ProfilePage.tsx'), loadNamespace('profile')]);
      return { Component: ProfilePage };
    },
    children: [
      {
        path: 'verify-password',
        lazy: async () => ({ Component: (await import('./password/VerifyPasswordModal.tsx')).VerifyPasswordModal }),
      },
      {
        path: 'change-password',
        lazy: async () => ({ Component: (await import('./password/ChangePasswordModal.tsx')).ChangePasswordModal }),
      },
      ...linkedAccountsProfileRoutes,
    ],
  },
];
