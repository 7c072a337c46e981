import { type LoaderFunctionArgs, redirect } from 'react-router';
import { loadConsoleConfig } from './console-config.ts';
import { currentUser, startSignIn } from './session.ts';

/**
 * Loader of every signed-in route (spec §2.4): without a session the visitor's target is kept and
 * they go to sign-in, or to the welcome page while no admin exists yet.
 */
export async function requireSession({ request }: LoaderFunctionArgs): Promise<null> {
  if (await currentUser()) return null;
  const config = await loadConsoleConfig({ refresh: true });
  if (!config.adminExists) throw redirect('/welcome');
  const url = new URL(request.url);
  // Spec §2.4: a sign_up flag or an invitation link opens the sign-up screen instead of sign-in.
  const signUp = url.searchParams.has('sign_up') || /\/accept\/[^/]+\/?$/.test(url.pathname);
  await startSignIn({ pathname: url.pathname, search: url.search, hash: window.location.hash }, { signUp });
  // The browser is leaving for the sign-in page; nothing renders meanwhile.
  return new Promise<never>(() => undefined);
}
