import { OidcClient, type RefreshState, type User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { type ConsoleConfig, loadConsoleConfig } from './console-config.ts';
import { type RedirectTarget, saveRedirectTarget } from './redirect-target.ts';

/**
 * Spec §6: the profile, email, offline access (refresh tokens) and `all` on the APIs. The access
 * token of the sign-in is for the management API; tokens for other resources (the 'me' API) are
 * obtained with the refresh token.
 */
const scope = 'openid profile email offline_access all';
/** A token this close to expiry is renewed before use, so a request never leaves with a dying one. */
const renewBeforeExpirySeconds = 30;

/** Never settles: the browser is leaving the page, and nothing after the call should run. */
const leaving = () => new Promise<never>(() => undefined);

type Session = { manager: UserManager; client: OidcClient; config: ConsoleConfig };
let session: Promise<Session> | undefined;

function loadSession(): Promise<Session> {
  session ??= loadConsoleConfig().then((config) => {
    const settings = {
      authority: config.issuer,
      client_id: config.clientId,
      redirect_uri: `${window.location.origin}/console/callback`,
      post_logout_redirect_uri: `${window.location.origin}/console`,
      response_type: 'code',
      scope,
      prompt: 'login consent',
      // Resource indicators (RFC 8707): the grant covers both APIs; the code redeems for the management API.
      resource: [config.resource, config.meResource],
      extraTokenParams: { resource: config.resource },
      userStore: new WebStorageStateStore({ store: window.sessionStorage }),
      // Renewal goes through `accessTokenFor`, one refresh at a time: refresh tokens rotate, so two
      // concurrent refreshes would spend the same token and the second would fail.
      automaticSilentRenew: false,
    };
    return { manager: new UserManager(settings), client: new OidcClient(settings), config };
  });
  return session;
}

/** The OIDC client of the admin tenant's issuer (authorization code + PKCE), configured by the server. */
export async function userManager(): Promise<UserManager> {
  return (await loadSession()).manager;
}

/** A signed-in user whose session can still be used (a valid access token or a refresh token). */
export async function currentUser(): Promise<User | null> {
  const user = await (await userManager()).getUser();
  if (!user) return null;
  return !user.expired || user.refresh_token ? user : null;
}

/** The session cannot continue (refresh token spent or revoked, unknown resource): sign in afresh. */
export class SessionExpiredError extends Error {
  constructor(cause?: unknown) {
    super('session expired', { cause });
    this.name = 'SessionExpiredError';
  }
}

const otherTokens = new Map<string, { token: string; expiresAt: number }>();
let refreshing: Promise<unknown> = Promise.resolve();

const fresh = (expiresAt: number | undefined) =>
  expiresAt !== undefined && expiresAt - renewBeforeExpirySeconds > Date.now() / 1000;

/** Redeems the refresh token for `resource`; one at a time, storing the rotated refresh token. */
function refreshFor(resource: string): Promise<string> {
  const run = refreshing.then(async () => {
    const { manager, client, config } = await loadSession();
    const user = await manager.getUser();
    const refreshToken = user?.refresh_token;
    if (!user || !refreshToken) throw new SessionExpiredError();
    let response: Awaited<ReturnType<OidcClient['useRefreshToken']>>;
    try {
      // RefreshState is a plain record (the class is not exported at runtime).
      const state: RefreshState = {
        refresh_token: refreshToken,
        id_token: user.id_token,
        session_state: user.session_state,
        scope: user.scope,
        profile: user.profile,
      };
      // biome-ignore lint/correctness/useHookAtTopLevel: oidc-client-ts's method, not a React hook.
      response = await client.useRefreshToken({ state, resource, timeoutInSeconds: 20 });
    } catch (error) {
      // invalid_grant (spent, revoked or expired refresh token) and invalid_target end the session.
      throw new SessionExpiredError(error);
    }
    const expiresAt = response.expires_at ?? Math.floor(Date.now() / 1000) + 60;
    user.refresh_token = response.refresh_token ?? user.refresh_token;
    if (resource === config.resource) {
      user.access_token = response.access_token;
      user.expires_at = expiresAt;
    } else {
      otherTokens.set(resource, { token: response.access_token, expiresAt });
    }
    await manager.storeUser(user);
    return response.access_token;
  });
  refreshing = run.catch(() => undefined);
  return run;
}

/**
 * A bearer token for `resource` (the management API by default), renewed with the refresh token
 * when it is about to expire. Undefined when nobody is signed in.
 */
export async function accessTokenFor(resource?: string): Promise<string | undefined> {
  const { manager, config } = await loadSession();
  const target = resource ?? config.resource;
  const user = await manager.getUser();
  if (!user) return undefined;
  if (target === config.resource && fresh(user.expires_at)) return user.access_token;
  const cached = otherTokens.get(target);
  if (cached && fresh(cached.expiresAt)) return cached.token;
  return refreshFor(target);
}

export async function accessToken(): Promise<string | undefined> {
  return accessTokenFor();
}

/** The 'me' API's resource indicator, for the API layer. */
export async function meResource(): Promise<string> {
  return (await loadSession()).config.meResource;
}

export type SignInOptions = { signUp?: boolean };

/** Keeps where the visitor wanted to go (spec §2.4) and leaves for the sign-in (or sign-up) page. */
export async function startSignIn(target: RedirectTarget, options: SignInOptions = {}): Promise<never> {
  saveRedirectTarget(target);
  const manager = await userManager();
  await manager.removeUser();
  otherTokens.clear();
  await manager.signinRedirect(options.signUp ? { extraQueryParams: { interaction_mode: 'signUp' } } : undefined);
  return leaving();
}

/** Signs in again and comes back to the current page (spec §4: session errors). */
export function restartSignIn(): Promise<never> {
  const { pathname, search, hash } = window.location;
  return startSignIn({ pathname, search, hash });
}

let callback: Promise<User> | undefined;

/** Redeems the code once: React StrictMode and re-renders must not redeem it twice. */
export function completeSignIn(): Promise<User> {
  callback ??= userManager().then((m) => m.signinRedirectCallback());
  return callback;
}

/**
 * Ends the console session and the OIDC session at the provider (RP-initiated logout), which then
 * sends the browser back to the console. Never settles: the page is leaving.
 */
export async function signOut(): Promise<never> {
  const manager = await userManager();
  const user = await manager.getUser();
  otherTokens.clear();
  // Revoke the refresh token first (it is read from the stored user), so it cannot outlive the session.
  if (user?.refresh_token) await manager.revokeTokens(['refresh_token']).catch(() => undefined);
  await manager.removeUser();
  await manager.signoutRedirect({ id_token_hint: user?.id_token });
  return leaving();
}
