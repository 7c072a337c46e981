import { type RouteObject, replace } from 'react-router';
import { requireSession } from '../auth/require-session.ts';
import { AppLoading } from '../components/AppLoading/AppLoading.tsx';
import { NotFound } from '../components/NotFound/NotFound.tsx';
import type { ConsoleArea } from '../components/routing/area.ts';
import { loadNamespace } from '../i18n/index.ts';
import { acceptInvitationRoutes } from '../pages/accept-invitation/routes.ts';
import { callbackRoutes } from '../pages/callback/routes.ts';
import { checkoutCallbackRoutes } from '../pages/checkout-callback/routes.ts';
import { onboardingRoutes } from '../pages/onboarding/routes.ts';
import { handleSocialRoutes } from '../pages/profile/linked-accounts/routes.ts';
import { profileRoutes } from '../pages/profile/routes.ts';
import { socialDemoCallbackRoutes } from '../pages/social-demo-callback/routes.ts';
import { welcomeRoutes } from '../pages/welcome/routes.ts';
import { AppShell } from './AppShell.tsx';
import { areasOf, availableSidebarItems, consoleAreas } from './areas.ts';
import type { Edition } from './edition.ts';
import { RootErrorBoundary } from './RootFallbacks.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import { firstSidebarPath } from './sidebar.ts';
import { tenantPath } from './tenant.ts';

/** Never shown, as the loader redirects first; it tells the router this leaf renders nothing on purpose. */
const Redirecting = () => null;

export type RouteOptions = {
  edition: Edition;
  devRoutes: readonly RouteObject[];
  /** The registered areas; tests pass their own. */
  areas?: readonly ConsoleArea[];
};

/** Everything under one tenant; each area folder brings its own route objects. */
function tenantRoutes({ edition, devRoutes, areas = consoleAreas }: RouteOptions): RouteObject[] {
  const available = availableSidebarItems(edition, areas);
  return [
    {
      // Pathless, so a failing page renders its error inside the shell and the sidebar stays usable.
      ErrorBoundary: RouteErrorBoundary,
      children: [
        {
          index: true,
          // Replace, so Back never returns to the index (which would only redirect again). In-app links point at
          // the landing page itself (useLandingPath), because a client-side visit here would replace their page.
          loader: ({ params }) => replace(tenantPath(edition, params.tenantId, firstSidebarPath(edition, available))),
          Component: Redirecting,
        },
        ...areasOf(edition, areas).flatMap((area) => area.routes),
        ...devRoutes,
        { path: '*', Component: NotFound },
      ],
    },
  ];
}

/**
 * Tenant-less pages of spec §2.1: the sign-in callback, the first-run welcome, the profile (its own session) and the
 * demo social connector's callback.
 */
const tenantlessRoutes: RouteObject[] = [
  ...callbackRoutes,
  ...welcomeRoutes,
  ...profileRoutes,
  ...socialDemoCallbackRoutes,
];

/** OSS routes sit directly under the basename; cloud routes under '/{tenantId}' (spec §2.1). */
export function buildRoutes(options: RouteOptions): RouteObject[] {
  const root = { path: '/', ErrorBoundary: RootErrorBoundary, HydrateFallback: AppLoading };
  if (options.edition === 'oss') {
    return [
      {
        ...root,
        children: [
          ...tenantlessRoutes,
          { loader: requireSession, Component: AppShell, children: tenantRoutes(options) },
        ],
      },
    ];
  }
  return [
    {
      ...root,
      children: [
        ...tenantlessRoutes,
        // The social linking popup's landing page (cloud only), outside the tenant list's loading screen.
        ...handleSocialRoutes,
        {
          // Spec §2.4/§4: signed in, then the tenant list (logo loading screen) before any of these renders.
          loader: async (args) => {
            await loadNamespace('tenants');
            return requireSession(args);
          },
          // Lazy, so the OSS bundle (which builds these routes only for the cloud edition) carries none of it.
          lazy: async () => ({ Component: (await import('../cloud/layout/CloudRoot.tsx')).CloudRoot }),
          children: [
            {
              index: true,
              lazy: async () => ({ Component: (await import('../cloud/layout/SignedInIndex.tsx')).SignedInIndex }),
            },
            ...onboardingRoutes,
            ...acceptInvitationRoutes,
            ...checkoutCallbackRoutes,
            {
              path: ':tenantId',
              lazy: async () => ({ Component: (await import('../cloud/tenants/TenantRoute.tsx')).TenantRoute }),
              children: tenantRoutes(options),
            },
          ],
        },
      ],
    },
  ];
}
