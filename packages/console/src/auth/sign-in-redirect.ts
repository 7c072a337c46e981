import type { ConsoleConfig } from './console-config.ts';
import { oidcSettings } from './oidc-settings.ts';

/**
 * The start of the sign-in (authorization code + PKCE) without the OIDC client, so a signed-out visitor reaches the
 * sign-in page without downloading it (boot.ts). It does what oidc-client-ts's `UserManager.signinRedirect` does with
 * the console's settings: the pending sign-in is stored where and as the client keeps it (`WebStorageStateStore` on
 * localStorage, `oidc.` prefix, `SigninState.toStorageString`), so the callback page's `signinRedirectCallback` redeems
 * it. `sign-in-redirect.test.ts` checks the request against the client's own and has the client read the state back,
 * so a change of that format fails a test instead of every sign-in.
 */

/** oidc-client-ts's defaults: its state store's key prefix and `staleStateAgeInSeconds`. */
const statePrefix = 'oidc.';
const staleStateAgeSeconds = 900;

const epochSeconds = () => Math.floor(Date.now() / 1000);

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join(
    '',
  );
}

/** RFC 7636 S256: base64url of the SHA-256 of the verifier. */
async function codeChallenge(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** As the client's `clearStaleState`: pending sign-ins older than its limit, or unreadable, are removed. */
function clearStaleStates(storage: Storage): void {
  const cutoff = epochSeconds() - staleStateAgeSeconds;
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
  for (const key of keys) {
    if (!key?.startsWith(statePrefix)) continue;
    let created: unknown;
    try {
      const state: unknown = JSON.parse(storage.getItem(key) ?? 'null');
      created = typeof state === 'object' && state !== null && 'created' in state ? state.created : undefined;
    } catch {
      created = undefined;
    }
    if (typeof created !== 'number' || created <= cutoff) storage.removeItem(key);
  }
}

/** The authorization endpoint from the issuer's discovery document, as the client's MetadataService finds it. */
async function authorizationEndpoint(authority: string): Promise<string> {
  const url = `${authority}${authority.endsWith('/') ? '' : '/'}.well-known/openid-configuration`;
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const metadata: unknown = await response.json();
  const endpoint =
    typeof metadata === 'object' && metadata !== null && 'authorization_endpoint' in metadata
      ? metadata.authorization_endpoint
      : undefined;
  if (typeof endpoint !== 'string') throw new Error(`${url}: no authorization_endpoint`);
  return endpoint;
}

export type SignInRedirectOptions = { signUp?: boolean };

/** Stores a pending sign-in and returns the authorization request's URL (the sign-in page, or sign-up). */
export async function signInRequestUrl(
  config: ConsoleConfig,
  { signUp = false }: SignInRedirectOptions = {},
  storage: Storage = window.localStorage,
): Promise<string> {
  const settings = oidcSettings(config);
  const url = new URL(await authorizationEndpoint(settings.authority));
  const id = randomHex(16);
  const verifier = randomHex(48);
  const { client_id, redirect_uri, scope = 'openid', extraTokenParams } = settings;
  const params: [string, string][] = [
    ['client_id', client_id],
    ['redirect_uri', redirect_uri],
    ['response_type', 'code'],
    ['scope', scope],
    ['state', id],
    ['code_challenge', await codeChallenge(verifier)],
    ['code_challenge_method', 'S256'],
    ...[settings.resource ?? []].flat().map((resource): [string, string] => ['resource', resource]),
    ...(settings.prompt ? [['prompt', settings.prompt] as [string, string]] : []),
    ...(signUp ? [['interaction_mode', 'signUp'] as [string, string]] : []),
  ];
  for (const [key, value] of params) url.searchParams.append(key, value);
  clearStaleStates(storage);
  const state = {
    id,
    created: epochSeconds(),
    request_type: 'si:r',
    code_verifier: verifier,
    authority: settings.authority,
    client_id,
    redirect_uri,
    scope,
    extraTokenParams,
  };
  storage.setItem(`${statePrefix}${id}`, JSON.stringify(state));
  return url.href;
}

/** Leaves for the sign-in page (or the sign-up screen). */
export async function redirectToSignIn(config: ConsoleConfig, options: SignInRedirectOptions = {}): Promise<void> {
  window.location.assign(await signInRequestUrl(config, options));
}
