import { type RouteObject, redirect } from 'react-router';
import { takeRedirectTarget } from '../../auth/redirect-target.ts';
import { accessTokenFor, completeSignIn, meResource } from '../../auth/session.ts';
import { Loading } from '../../components/Loading.tsx';

export const callbackRoutes: RouteObject[] = [
  {
    // Spec §2.4: the sign-in lands here; the redirect sends the user to the stored target or the root.
    path: 'callback',
    loader: async () => {
      await completeSignIn();
      // Fetch the 'me' token now, before any page loads: a navigation while that first refresh is in
      // flight would lose the rotated refresh token and end the session.
      await accessTokenFor(await meResource()).catch(() => undefined);
      return redirect(takeRedirectTarget(import.meta.env.BASE_URL.replace(/\/$/, '')));
    },
    Component: Loading,
  },
];
