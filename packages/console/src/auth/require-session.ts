import { type LoaderFunctionArgs, redirect } from 'react-router';
import { loadConsoleConfig } from './console-config.ts';
import { currentUser, startSignIn } from './session.ts';
import { signInRequestOf } from './sign-in-start.ts';

/**
 * Loader of every signed-in route (spec §2.4): without a session the visitor's target is kept and
 * they go to sign-in, or to the welcome page while no admin exists yet. boot.ts does the same for a visitor who
 * arrives signed out, before the console is downloaded.
 */
export async function requireSession({ request }: LoaderFunctionArgs): Promise<null> {
  if (await currentUser()) return null;
  const config = await loadConsoleConfig({ refresh: true });
  if (!config.adminExists) throw redirect('/welcome');
  // Spec §2.4: a sign_up flag or an invitation link opens the sign-up screen instead of sign-in.
  const { target, options } = signInRequestOf(new URL(request.url), window.location.hash);
  await startSignIn(target, options);
  // The browser is leaving for the sign-in page; nothing renders meanwhile.
  return new Promise<never>(() => undefined);
}
