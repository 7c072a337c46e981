import { type ConsoleConfig, loadConsoleConfig } from './console-config.ts';
import { type RedirectTarget, saveRedirectTarget } from './redirect-target.ts';
import { redirectToSignIn, type SignInRedirectOptions } from './sign-in-redirect.ts';
import { storedUserKey } from './stored-user.ts';

/**
 * Starting a sign-in, shared by the console (require-session.ts, session.ts) and the signed-out start (boot.ts), which
 * runs it without the console: nothing here loads React, the router or the OIDC client.
 */

/** The prefix of the per-API tokens session.ts caches beside the user in sessionStorage. */
export const tokenCachePrefix = 'gatehouse:token:';

export function clearTokenCache(): void {
  for (const key of Object.keys(sessionStorage)) if (key.startsWith(tokenCachePrefix)) sessionStorage.removeItem(key);
}

/**
 * Where a visitor without a session wanted to go (spec §2.4), and whether to open the sign-up screen instead of
 * sign-in: a sign_up flag or an invitation link.
 */
export function signInRequestOf(url: URL, hash: string): { target: RedirectTarget; options: SignInRedirectOptions } {
  const signUp = url.searchParams.has('sign_up') || /\/accept\/[^/]+\/?$/.test(url.pathname);
  return { target: { pathname: url.pathname, search: url.search, hash }, options: { signUp } };
}

/** Keeps the target, forgets any session of this tab, and leaves for the sign-in (or sign-up) page. */
export async function beginSignIn(
  config: ConsoleConfig,
  target: RedirectTarget,
  options: SignInRedirectOptions = {},
): Promise<void> {
  saveRedirectTarget(target);
  sessionStorage.removeItem(storedUserKey(config));
  clearTokenCache();
  await redirectToSignIn(config, options);
}

/**
 * boot.ts's signed-out start, as the console's require-session loader does it. False when the console has to decide
 * (no admin yet: the welcome page); true once the browser is leaving for the sign-in page.
 */
export async function signInWithoutConsole(): Promise<boolean> {
  const config = await loadConsoleConfig({ refresh: true });
  if (!config.adminExists) return false;
  const { target, options } = signInRequestOf(new URL(window.location.href), window.location.hash);
  await beginSignIn(config, target, options);
  return true;
}
