import { type RouteObject, redirect } from 'react-router';
import { takeRedirectTarget } from '../../auth/redirect-target.ts';
import { completeSignIn } from '../../auth/session.ts';
import { Loading } from '../../components/Loading.tsx';

export const callbackRoutes: RouteObject[] = [
  {
    // Spec §2.4: the sign-in lands here; the redirect sends the user to the stored target or the root.
    path: 'callback',
    loader: async () => {
      await completeSignIn();
      return redirect(takeRedirectTarget(import.meta.env.BASE_URL.replace(/\/$/, '')));
    },
    Component: Loading,
  },
];
