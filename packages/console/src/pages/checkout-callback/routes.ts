import { CHECKOUT_CALLBACK_PATH } from '@gatehouse/schemas';
import type { RouteObject } from 'react-router';
import { loadNamespace } from '../../i18n/index.ts';

/** Spec §2.1/§2.8: '/checkout-success-callback' (cloud only, tenant-less), where the payment provider returns. */
export const checkoutCallbackRoutes: RouteObject[] = [
  {
    path: CHECKOUT_CALLBACK_PATH.slice(1),
    lazy: async () => {
      const [page] = await Promise.all([import('./CheckoutCallbackPage.tsx'), loadNamespace('plans')]);
      return { Component: page.CheckoutCallbackPage };
    },
  },
];
