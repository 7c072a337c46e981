import { type User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { loadConsoleConfig } from './console-config.ts';
import { saveRedirectTarget } from './redirect-target.ts';

/** Spec §6: the console asks for the profile, offline access and the management API (`all`). */
const scope = 'openid profile email offline_access all';

let manager: Promise<UserManager> | undefined;

/** The OIDC client of the admin tenant's issuer (authorization code + PKCE), configured by the server. */
export function userManager(): Promise<UserManager> {
  manager ??= loadConsoleConfig().then(
    (config) =>
      new UserManager({
        authority: config.issuer,
        client_id: config.clientId,
        redirect_uri: `${window.location.origin}/console/callback`,
        post_logout_redirect_uri: `${window.location.origin}/console`,
        response_type: 'code',
        scope,
        prompt: 'login consent',
        // Resource indicators (RFC 8707): the access token is for the tenant's management API.
        extraQueryParams: { resource: config.resource },
        extraTokenParams: { resource: config.resource },
        userStore: new WebStorageStateStore({ store: window.sessionStorage }),
        automaticSilentRenew: true,
      }),
  );
  return manager;
}

export async function currentUser(): Promise<User | null> {
  const user = await (await userManager()).getUser();
  return user && !user.expired ? user : null;
}

export async function accessToken(): Promise<string | undefined> {
  return (await currentUser())?.access_token;
}

/** Keeps where the visitor wanted to go (spec §2.4) and leaves for the sign-in page. */
export async function startSignIn(target: { pathname: string; search: string; hash: string }): Promise<void> {
  saveRedirectTarget(target);
  await (await userManager()).signinRedirect();
}

let callback: Promise<User> | undefined;

/** Redeems the code once: React StrictMode and re-renders must not redeem it twice. */
export function completeSignIn(): Promise<User> {
  callback ??= userManager().then((m) => m.signinRedirectCallback());
  return callback;
}

export async function signOut(): Promise<void> {
  const m = await userManager();
  await m.removeUser();
}
