import { tenantOrganizationId } from '@gatehouse/schemas';
import type { OidcClient, RefreshState, User, UserManager } from 'oidc-client-ts';
import { type ConsoleConfig, loadConsoleConfig } from './console-config.ts';
import { oidcSettings } from './oidc-settings.ts';
import type { RedirectTarget } from './redirect-target.ts';
import type { SignInRedirectOptions } from './sign-in-redirect.ts';
import { beginSignIn, clearTokenCache, tokenCachePrefix } from './sign-in-start.ts';
import { type CachedToken, parseCachedToken, readStoredUser, type StoredUser } from './stored-user.ts';

/** Which token a request carries: an API resource's, or a tenant's organization token (cloud management API). */
export type TokenTarget = { kind: 'resource'; resource?: string } | { kind: 'organization'; tenantId: string };
/** A token this close to expiry is renewed before use, so a request never leaves with a dying one. */
const renewBeforeExpirySeconds = 30;

/** Never settles: the browser is leaving the page, and nothing after the call should run. */
const leaving = () => new Promise<never>(() => undefined);

/**
 * The OIDC client (17 kB gzip) is loaded only to sign in, refresh or sign out: a page whose stored tokens are fresh
 * reads them from storage through `stored-user.ts`.
 */
type Oidc = {
  manager: UserManager;
  client: OidcClient;
  config: ConsoleConfig;
  isOAuthError: (error: unknown) => boolean;
};
let oidc: Promise<Oidc> | undefined;

function loadOidc(): Promise<Oidc> {
  oidc ??= Promise.all([loadConsoleConfig(), import('oidc-client-ts')]).then(([config, library]) => {
    const settings = {
      ...oidcSettings(config),
      userStore: new library.WebStorageStateStore({ store: sessionStorage }),
    };
    return {
      manager: new library.UserManager(settings),
      client: new library.OidcClient(settings),
      config,
      isOAuthError: (error) => error instanceof library.ErrorResponse,
    };
  });
  oidc.catch(() => {
    oidc = undefined;
  });
  return oidc;
}

/** The OIDC client of the admin tenant's issuer (authorization code + PKCE), configured by the server. */
export async function userManager(): Promise<UserManager> {
  return (await loadOidc()).manager;
}

/** A signed-in user whose session can still be used (a valid access token or a refresh token). */
export async function currentUser(): Promise<StoredUser | null> {
  const user = readStoredUser(await loadConsoleConfig());
  if (!user) return null;
  // As oidc-client-ts's `expired`: a token without an expiry never expires.
  const expired = user.expires_at !== undefined && user.expires_at <= Date.now() / 1000;
  return !expired || user.refresh_token ? user : null;
}

/** The session cannot continue (refresh token spent or revoked, unknown resource): sign in afresh. */
export class SessionExpiredError extends Error {
  constructor(cause?: unknown) {
    super('session expired', { cause });
    this.name = 'SessionExpiredError';
  }
}

/**
 * Only the provider's refusal ends the session (an OAuth error answer: invalid_grant, invalid_target, access_denied).
 * A network failure, a timeout or the page leaving mid-request (a full navigation aborts the fetch) does not: ending
 * the session there would sign the user out of the page they are going to.
 */
function refreshFailure(error: unknown, isOAuthError: Oidc['isOAuthError']): Error {
  if (isOAuthError(error)) return new SessionExpiredError(error);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Tokens for the other APIs, kept beside the user in sessionStorage: a reload reuses them instead
 * of spending (and rotating) the refresh token again.
 */
const tokenCacheKey = (resource: string) => `${tokenCachePrefix}${resource}`;
/** Organization tokens sit beside them; the prefix cannot clash with a resource indicator (a URL or URN). */
const organizationCacheKey = (tenantId: string) => `${tokenCachePrefix}organization:${tenantId}`;

function cachedToken(resource: string): CachedToken | undefined {
  return cachedAt(tokenCacheKey(resource));
}

function cachedAt(key: string): CachedToken | undefined {
  try {
    return parseCachedToken(JSON.parse(sessionStorage.getItem(key) ?? 'null'));
  } catch {
    return undefined;
  }
}

const fresh = (expiresAt: number | undefined, margin = renewBeforeExpirySeconds) =>
  expiresAt !== undefined && expiresAt - margin > Date.now() / 1000;

/** The token for `resource` if the stored session already holds one valid for `margin` seconds more. */
function storedToken(config: ConsoleConfig, resource: string, margin = renewBeforeExpirySeconds) {
  const user = readStoredUser(config);
  if (!user) return { user: null, token: undefined };
  if (resource === config.resource) {
    return { user, token: fresh(user.expires_at, margin) ? user.access_token : undefined };
  }
  const cached = cachedToken(resource);
  return { user, token: cached && fresh(cached.expiresAt, margin) ? cached.token : undefined };
}

/**
 * Refresh tokens rotate, so two refreshes with the same one must never overlap: not in this tab
 * (a promise chain) and not across tabs of the origin (a Web Lock). Inside the lock the
 * stored session is read again, since another tab may have refreshed meanwhile.
 */
let localQueue: Promise<unknown> = Promise.resolve();
function exclusively<T>(work: () => Promise<T>): Promise<T> {
  const run = localQueue.then(() =>
    typeof navigator !== 'undefined' && navigator.locks
      ? navigator.locks.request('gatehouse-token-refresh', work)
      : work(),
  );
  localQueue = run.catch(() => undefined);
  return run;
}

/** Redeems the refresh token for `resource`, storing the rotated refresh token and the new access token. */
function refreshFor(resource: string, margin = renewBeforeExpirySeconds): Promise<string> {
  return exclusively(async () => {
    const { manager, client, config, isOAuthError } = await loadOidc();
    const { token } = storedToken(config, resource, margin);
    if (token) return token;
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
      throw refreshFailure(error, isOAuthError);
    }
    // Signed out meanwhile: do not bring the session back.
    if (!(await manager.getUser())) throw new SessionExpiredError();
    const expiresAt = response.expires_at ?? Math.floor(Date.now() / 1000) + 60;
    user.refresh_token = response.refresh_token ?? user.refresh_token;
    if (resource === config.resource) {
      user.access_token = response.access_token;
      user.expires_at = expiresAt;
    } else {
      sessionStorage.setItem(tokenCacheKey(resource), JSON.stringify({ token: response.access_token, expiresAt }));
    }
    await manager.storeUser(user);
    return response.access_token;
  });
}

/**
 * A bearer token for `resource` (the management API by default), renewed with the refresh token
 * when it is about to expire. Undefined when nobody is signed in. `minValiditySeconds` renews it earlier: a popup
 * that starts with a copy of this tab's sessionStorage (social linking) must find a token it can use without
 * refreshing, since its refresh would rotate the refresh token this tab still holds.
 */
export async function accessTokenFor(
  resource?: string,
  minValiditySeconds = renewBeforeExpirySeconds,
): Promise<string | undefined> {
  const config = await loadConsoleConfig();
  const target = resource ?? config.resource;
  const { user, token } = storedToken(config, target, minValiditySeconds);
  if (!user) return undefined;
  return token ?? refreshFor(target, minValiditySeconds);
}

/**
 * The organization token of a tenant (cloud): the refresh token redeemed with `organization_id=t-{tenantId}`, no
 * resource and no scope, so it carries every tenant permission the member holds (spec §6). Cached per tenant like
 * the 'me' token, and refreshed inside the same lock as every other redemption.
 */
export async function organizationAccessToken(tenantId: string): Promise<string | undefined> {
  if (!readStoredUser(await loadConsoleConfig())) return undefined;
  const cached = cachedAt(organizationCacheKey(tenantId));
  if (cached && fresh(cached.expiresAt)) return cached.token;
  return exclusively(async () => {
    const { manager, client, isOAuthError } = await loadOidc();
    const user = await manager.getUser();
    const again = cachedAt(organizationCacheKey(tenantId));
    if (again && fresh(again.expiresAt)) return again.token;
    const refreshToken = user?.refresh_token;
    if (!user || !refreshToken) throw new SessionExpiredError();
    let response: Awaited<ReturnType<OidcClient['useRefreshToken']>>;
    try {
      // No scope in the state: the request then names none, and the token gets every permission the member holds.
      const state: RefreshState = {
        refresh_token: refreshToken,
        id_token: user.id_token,
        session_state: user.session_state,
        profile: user.profile,
      };
      // biome-ignore lint/correctness/useHookAtTopLevel: oidc-client-ts's method, not a React hook.
      response = await client.useRefreshToken({
        state,
        extraTokenParams: { organization_id: tenantOrganizationId(tenantId) },
        timeoutInSeconds: 20,
      });
    } catch (error) {
      throw refreshFailure(error, isOAuthError);
    }
    if (!(await manager.getUser())) throw new SessionExpiredError();
    const entry: CachedToken = {
      token: response.access_token,
      expiresAt: response.expires_at ?? Math.floor(Date.now() / 1000) + 60,
      ...(response.scope === undefined ? {} : { scope: response.scope }),
    };
    sessionStorage.setItem(organizationCacheKey(tenantId), JSON.stringify(entry));
    // Organization grants do not rotate the refresh token; store one if the server ever sends it.
    if (response.refresh_token && response.refresh_token !== refreshToken) {
      user.refresh_token = response.refresh_token;
      await manager.storeUser(user);
    }
    return entry.token;
  });
}

/** The permissions the cached organization token of a tenant carries, or undefined when none is cached. */
export function organizationTokenScopes(tenantId: string): string[] | undefined {
  const cached = cachedAt(organizationCacheKey(tenantId));
  return cached ? (cached.scope ?? '').split(' ').filter(Boolean) : undefined;
}

/** Spec §4 tenant access: the token holds scopes the member lost; only this tenant's organization token goes. */
export function clearOrganizationToken(tenantId: string): void {
  sessionStorage.removeItem(organizationCacheKey(tenantId));
}

/** The bearer token of a request's target. */
export function tokenFor(target: TokenTarget): Promise<string | undefined> {
  return target.kind === 'organization' ? organizationAccessToken(target.tenantId) : accessTokenFor(target.resource);
}

export async function accessToken(): Promise<string | undefined> {
  return accessTokenFor();
}

/** The 'me' API's resource indicator, for the API layer. */
export async function meResource(): Promise<string> {
  return (await loadConsoleConfig()).meResource;
}

export type SignInOptions = SignInRedirectOptions;

/**
 * Keeps where the visitor wanted to go (spec §2.4) and leaves for the sign-in (or sign-up) page. The request is the
 * OIDC client's own (sign-in-redirect.ts), built without loading it.
 */
export async function startSignIn(target: RedirectTarget, options: SignInOptions = {}): Promise<never> {
  await beginSignIn(await loadConsoleConfig(), target, options);
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
  clearTokenCache();
  // Revoke the refresh token first (it is read from the stored user), so it cannot outlive the session.
  if (user?.refresh_token) await manager.revokeTokens(['refresh_token']).catch(() => undefined);
  await manager.removeUser();
  await manager.signoutRedirect({ id_token_hint: user?.id_token });
  return leaving();
}
