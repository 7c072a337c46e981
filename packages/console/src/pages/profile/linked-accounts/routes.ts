import { HANDLE_SOCIAL_PATH } from '@gatehouse/schemas';
import type { RouteObject } from 'react-router';
import { requireSession } from '../../../auth/require-session.ts';
import { loadNamespace } from '../../../i18n/index.ts';

/**
 * The linked email's steps under '/profile' (spec §2.1: link-email, then verification-code), dialogs over the page
 * like the password's. Declared in both editions as the spec lists them; outside the cloud they lead back to the page.
 */
export const linkedAccountsProfileRoutes: RouteObject[] = [
  {
    path: 'link-email',
    lazy: async () => ({ Component: (await import('./LinkEmailModal.tsx')).LinkEmailModal }),
  },
  {
    path: 'verification-code',
    lazy: async () => ({ Component: (await import('./VerificationCodeModal.tsx')).VerificationCodeModal }),
  },
];

/** Spec §2.1: '/handle-social' (tenant-less, cloud only), the social linking popup's landing page. */
export const handleSocialRoutes: RouteObject[] = [
  {
    path: HANDLE_SOCIAL_PATH.slice(1),
    loader: requireSession,
    lazy: async () => {
      const [page] = await Promise.all([import('./HandleSocialPage.tsx'), loadNamespace('profile')]);
      return { Component: page.HandleSocialPage };
    },
  },
];
