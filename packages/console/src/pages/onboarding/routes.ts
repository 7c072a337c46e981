import { type RouteObject, replace } from 'react-router';

/** Spec §2.6: '/onboarding' goes to its one step, the create-tenant page. */
export const onboardingRoutes: RouteObject[] = [
  {
    path: 'onboarding',
    children: [
      { index: true, loader: () => replace('/onboarding/create-tenant') },
      {
        path: 'create-tenant',
        lazy: async () => ({ Component: (await import('./OnboardingPage.tsx')).OnboardingPage }),
      },
    ],
  },
];
