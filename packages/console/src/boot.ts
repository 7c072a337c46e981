/**
 * The page's first script (index.html), kept tiny: a visitor who arrives signed out goes to the sign-in page without
 * downloading the console (spec §2.4, as the console's require-session loader would send them); everyone else gets the
 * console (main.tsx). The HTML's loading screen shows meanwhile. Whenever this cannot decide, or the signed-out start
 * fails, the console runs and decides (its own sign-in, the welcome page, the error pages).
 */
import { hasSecureCrypto } from './app/secure-context.ts';

/**
 * Console paths that never require a session: the sign-in callback, the first-run welcome page and the demo social
 * connector's callback (routes.ts).
 */
const withoutSession = /^(callback|welcome|social-demo-callback)\/*$/i;

/** oidc-client-ts's key of a signed-in user in sessionStorage (stored-user.ts), whatever the issuer. */
function hasStoredUser(): boolean {
  try {
    return Object.keys(sessionStorage).some((key) => key.startsWith('oidc.user:'));
  } catch {
    return true; // Storage disabled: the console decides (and shows what goes wrong).
  }
}

function needsSignIn(): boolean {
  const base = import.meta.env.BASE_URL; // '/console/'
  const { pathname } = window.location;
  if (!hasSecureCrypto() || hasStoredUser()) return false;
  if (pathname !== base.slice(0, -1) && !pathname.startsWith(base)) return false;
  return !withoutSession.test(pathname.slice(base.length));
}

const startConsole = () => import('./main.tsx');

if (needsSignIn()) {
  import('./auth/sign-in-start.ts')
    .then(({ signInWithoutConsole }) => signInWithoutConsole())
    .then(
      (leaving) => (leaving ? undefined : startConsole()),
      () => startConsole(),
    );
} else {
  void startConsole();
}
