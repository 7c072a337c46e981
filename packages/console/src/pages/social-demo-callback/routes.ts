import { SOCIAL_DEMO_CALLBACK_PATH } from '@gatehouse/schemas';
import type { RouteObject } from 'react-router';
import { loadNamespace } from '../../i18n/index.ts';

/**
 * Spec §2.1/§2.11: '/social-demo-callback' (tenant-less), where a demo social connector returns. It needs no session:
 * it only says the round trip worked.
 */
export const socialDemoCallbackRoutes: RouteObject[] = [
  {
    path: SOCIAL_DEMO_CALLBACK_PATH.slice(1),
    lazy: async () => {
      const [page] = await Promise.all([import('./SocialDemoCallbackPage.tsx'), loadNamespace('connectors')]);
      return { Component: page.SocialDemoCallbackPage };
    },
  },
];
