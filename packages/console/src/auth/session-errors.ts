import { restartSignIn, signOut } from './session.ts';

/** Shows the spec's 'got it' alert for `auth.forbidden` (§6, §8); registered by the shell, which owns the modals. */
type ForbiddenAlert = () => Promise<unknown>;
let forbiddenAlert: ForbiddenAlert | undefined;

export function registerForbiddenAlert(alert: ForbiddenAlert): () => void {
  forbiddenAlert = alert;
  return () => {
    if (forbiddenAlert === alert) forbiddenAlert = undefined;
  };
}

// Many requests fail together when a session ends; only the first one acts.
let leaving: Promise<never> | undefined;

/** Spec §4: a 401, or a session the refresh token cannot renew, starts a fresh sign-in back to this page. */
export function handleSessionExpired(): Promise<never> {
  leaving ??= restartSignIn();
  return leaving;
}

/** Spec §6: lost permissions sign the user out, after the 'got it' alert when the code is `auth.forbidden`. */
export async function handleForbidden(withAlert: boolean): Promise<never> {
  if (leaving) return leaving;
  const alert = forbiddenAlert;
  leaving = (async () => {
    if (withAlert && alert) await alert();
    return signOut();
  })();
  return leaving;
}
