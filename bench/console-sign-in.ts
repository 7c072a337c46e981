// A scripted console sign-in over plain HTTP, as the console and its browser do it (authorization code + PKCE at the
// admin tenant's provider, the password form of the sign-in page, the code redeemed for tokens with a refresh token).
// The refresh-grant bench needs one signed-in session per concurrent connection, and a browser per session would
// measure the browser. The server's tests walk the same steps with expectations (test/support/oidc-flow.ts).
import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID, issuerPath, managementResourceIndicator } from '@gatehouse/schemas';

export type ConsoleTokens = { access_token: string; refresh_token: string };

/** The management API of the default tenant: the console's first resource. */
export const defaultManagementResource = managementResourceIndicator(DEFAULT_TENANT_ID);

function cookieJar() {
  const cookies = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const value = pair.slice(index + 1).trim();
      if (value) cookies.set(pair.slice(0, index).trim(), value);
      else cookies.delete(pair.slice(0, index).trim());
    }
    return response;
  };
}

/** The console's token endpoint at `base`. */
export const consoleTokenEndpoint = (base: string) => `${base}${issuerPath(ADMIN_TENANT_ID)}/token`;

/** Signs `username` in to the console at `base` and returns its tokens (refresh token included). */
export async function signInToConsole(base: string, username: string, password: string): Promise<ConsoleTokens> {
  const fetchWithCookies = cookieJar();
  const redirectUri = `${base}/console/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: 'admin-console',
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid profile offline_access all',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    resource: defaultManagementResource,
  });
  const started = await fetchWithCookies(`${base}${issuerPath(ADMIN_TENANT_ID)}/auth?${params}`);
  const signInPage = new URL(started.headers.get('location') ?? '', base).toString();
  if (!signInPage.includes('/interaction/')) throw new Error(`no sign-in page (${started.status})`);
  let response = await fetchWithCookies(`${signInPage}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ identifier: username, password }),
  });
  for (let hops = 0; hops < 10; hops++) {
    const location = new URL(response.headers.get('location') ?? '', base);
    if (!response.headers.get('location')) throw new Error(`sign-in stopped at ${response.status} (hop ${hops})`);
    if (location.toString().startsWith(redirectUri)) {
      const code = location.searchParams.get('code');
      if (!code) throw new Error(`no code: ${location.search}`);
      const tokens = await fetch(consoleTokenEndpoint(base), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: 'admin-console',
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
          resource: defaultManagementResource,
        }),
      });
      const body = (await tokens.json()) as ConsoleTokens;
      if (!tokens.ok || !body.refresh_token)
        throw new Error(`code redemption: ${tokens.status} ${JSON.stringify(body)}`);
      return body;
    }
    response = await fetchWithCookies(location.toString());
  }
  throw new Error('too many redirects');
}
