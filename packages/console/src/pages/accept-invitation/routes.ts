import type { RouteObject } from 'react-router';

/** Spec §2.1/§2.7: '/accept/{invitationId}', signed in first (the sign-up screen opens for it, require-session.ts). */
export const acceptInvitationRoutes: RouteObject[] = [
  {
    path: 'accept/:invitationId',
    lazy: async () => ({ Component: (await import('./AcceptInvitationPage.tsx')).AcceptInvitationPage }),
  },
];
