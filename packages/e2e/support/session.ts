import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ORGANIZATION_ROLES_SCOPE, ORGANIZATIONS_SCOPE, tenantOrganizationId } from '@gatehouse/schemas';
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import { adminCredentials, edition } from '../playwright.config.ts';

/** On the issuer's sign-in page: types the credentials and submits, as a user would. */
export async function submitSignIn(page: Page, username: string, password: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: /^Sign in to / })).toBeVisible();
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  // Exact: a tenant with passkey sign-in has "Sign in with a passkey" too.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** What the server publishes for the console before sign-in (`/api/.well-known/console`). */
type ConsoleConfig = {
  edition: 'oss' | 'cloud';
  issuer: string;
  clientId: string;
  resource: string;
  meResource: string;
};

/** The scopes the console asks for (console src/auth/session.ts), per edition. */
const ossScope = 'openid profile email offline_access all';
const cloudScope = `${ossScope} ${ORGANIZATIONS_SCOPE} ${ORGANIZATION_ROLES_SCOPE} create:tenant manage:tenant:self`;

/**
 * The e2e admin's provider session, one per Playwright worker: signed in once through the sign-in form's own
 * endpoint, and kept as Playwright storage state (the provider's session cookie) in `.tmp/e2e-auth/`. Each test opens
 * a request context from that state and gets a grant of its own (no password, no Argon2), so tests never share
 * refresh tokens, and a test that signs out ends only its own grant. A context per test: a kept-alive socket that the
 * server closed while idle between tests would otherwise reset the next request.
 */
let consoleConfig: Promise<ConsoleConfig> | undefined;

async function readConsoleConfig(baseURL: string): Promise<ConsoleConfig> {
  const api = await request.newContext({ baseURL });
  try {
    const response = await api.get('/api/.well-known/console');
    expect(response.ok(), 'the console configuration is served').toBe(true);
    return (await response.json()) as ConsoleConfig;
  } finally {
    await api.dispose();
  }
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** The first `action` of a form on an HTML page (the sign-in page has one form). */
function formAction(html: string): string | undefined {
  const match = /<form[^>]*\saction="([^"]+)"/.exec(html);
  return match?.[1]?.replaceAll('&amp;', '&');
}

/**
 * Runs the console's authorization request (code + PKCE, both APIs as resources) through the server, following its
 * redirects. Without `prompt=login`, the worker's provider session answers it; when that session is missing (the first
 * test of a worker, or a password change ended it), the sign-in form is posted with the admin's credentials.
 */
async function consoleGrant(api: APIRequestContext, config: ConsoleConfig) {
  const { verifier, challenge } = pkce();
  const redirectUri = new URL('/console/callback', config.issuer).toString();
  const params = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: config.edition === 'cloud' ? cloudScope : ossScope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    // Not `login`: the worker's session answers. `consent` is what makes the provider keep offline_access (OIDC Core).
    prompt: 'consent',
  });
  params.append('resource', config.resource);
  params.append('resource', config.meResource);
  let url = new URL(`${config.issuer}/auth?${params}`);
  let signedIn = false;
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.toString().startsWith(redirectUri)) break;
    const response = await api.get(url.toString(), { maxRedirects: 0 });
    const location = response.headers().location;
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const action = response.status() === 200 ? formAction(await response.text()) : undefined;
    if (!action || signedIn || !url.pathname.startsWith('/interaction/')) {
      throw new Error(`the console sign-in stopped at ${url} (HTTP ${response.status()})`);
    }
    signedIn = true;
    const posted = await api.post(new URL(action, url).toString(), {
      form: { identifier: adminCredentials.username, password: adminCredentials.password },
      maxRedirects: 0,
    });
    const next = posted.headers().location;
    if (!next) throw new Error(`the sign-in form answered ${posted.status()} without a redirect`);
    url = new URL(next, url);
  }
  const code = url.searchParams.get('code');
  if (!code) throw new Error(`no authorization code: ${url}`);
  const token = await api.post(`${config.issuer}/token`, {
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: config.clientId,
      code_verifier: verifier,
      resource: config.resource,
    },
  });
  expect(token.ok(), `the code is redeemed: ${await token.text()}`).toBe(true);
  return (await token.json()) as {
    access_token: string;
    refresh_token?: string;
    id_token?: string;
    scope?: string;
    expires_in: number;
    token_type: string;
  };
}

/** The claims of a JWT's payload (the ID token's, as oidc-client-ts keeps them in `profile`). */
const claimsOf = (jwt: string | undefined) =>
  jwt
    ? (JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>)
    : {};

type TokenAnswer = { access_token: string; refresh_token?: string; expires_in: number; scope?: string };

/** Redeems `refreshToken` at the issuer as the console does (src/auth/session.ts), with `extra` parameters. */
async function redeem(
  api: APIRequestContext,
  config: ConsoleConfig,
  refreshToken: string,
  extra: Record<string, string>,
) {
  const response = await api.post(`${config.issuer}/token`, {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: config.clientId, ...extra },
  });
  expect(response.ok(), `the refresh token is redeemed: ${await response.text()}`).toBe(true);
  return (await response.json()) as TokenAnswer;
}

const expiresAt = (answer: { expires_in: number }) => Math.floor(Date.now() / 1000) + answer.expires_in;

/**
 * Gives `page` a console session of its own as the e2e admin, as if it had just come back from the sign-in page and
 * fetched its first tokens: the tokens of a fresh grant are put where oidc-client-ts and the console keep them
 * (sessionStorage, the formats `stored-user.ts` pins) before the console's scripts run. The 'me' token (and in cloud
 * the default tenant's organization token) come with it, so a page that the test leaves at once never has a refresh
 * in flight: refresh tokens rotate, and a navigation that aborts a refresh loses the rotated token (the provider then
 * ends the grant). Only once per tab: after a sign-out the tab stays signed out.
 */
export async function giveConsoleSession(page: Page): Promise<void> {
  const baseURL = test.info().project.use.baseURL ?? '';
  consoleConfig ??= readConsoleConfig(baseURL);
  const config = await consoleConfig;
  const statePath = join(
    test.info().project.outputDir,
    '..',
    'e2e-auth',
    `${edition}-worker-${test.info().parallelIndex}.json`,
  );
  mkdirSync(dirname(statePath), { recursive: true });
  const api = await request.newContext({ baseURL, ...(existsSync(statePath) ? { storageState: statePath } : {}) });
  try {
    await fillConsoleSession(page, api, config);
    await api.storageState({ path: statePath });
  } finally {
    await api.dispose();
  }
}

async function fillConsoleSession(page: Page, api: APIRequestContext, config: ConsoleConfig): Promise<void> {
  const tokens = await consoleGrant(api, config);
  const storage: Record<string, string> = {};
  let refreshToken = tokens.refresh_token ?? '';
  const me = await redeem(api, config, refreshToken, { resource: config.meResource });
  refreshToken = me.refresh_token ?? refreshToken;
  storage[`gatehouse:token:${config.meResource}`] = JSON.stringify({
    token: me.access_token,
    expiresAt: expiresAt(me),
  });
  if (config.edition === 'cloud') {
    const organization = await redeem(api, config, refreshToken, { organization_id: tenantOrganizationId('default') });
    refreshToken = organization.refresh_token ?? refreshToken;
    storage['gatehouse:token:organization:default'] = JSON.stringify({
      token: organization.access_token,
      expiresAt: expiresAt(organization),
      ...(organization.scope === undefined ? {} : { scope: organization.scope }),
    });
  }
  storage[`oidc.user:${config.issuer}:${config.clientId}`] = JSON.stringify({
    id_token: tokens.id_token,
    session_state: null,
    access_token: tokens.access_token,
    refresh_token: refreshToken,
    token_type: tokens.token_type,
    scope: tokens.scope,
    profile: claimsOf(tokens.id_token),
    expires_at: expiresAt(tokens),
  });
  await setTabSession(page, storage);
}

/**
 * Init scripts pile up on a page: each session given to a tab is numbered, and the tab takes one only once and only
 * if it is newer than the one it holds. `entries: undefined` gives the tab no session (its console then signs in
 * through the form), even after a test cleared sessionStorage.
 */
async function setTabSession(page: Page, entries: Record<string, string> | undefined): Promise<void> {
  const number = (grantsGiven.get(page) ?? 0) + 1;
  grantsGiven.set(page, number);
  await page.addInitScript(
    ({ entries, number }) => {
      // Init scripts run in every frame too: a framed page (the sign-in preview) gets no console session, and a frame
      // the browser blocked has no storage to write.
      if (window !== window.top) return;
      if (Number(sessionStorage.getItem('e2e:session-grant') ?? 0) >= number) return;
      if (!entries) {
        for (const key of Object.keys(sessionStorage)) {
          if (key.startsWith('oidc.') || key.startsWith('gatehouse:token:')) sessionStorage.removeItem(key);
        }
      }
      sessionStorage.setItem('e2e:session-grant', String(number));
      for (const [key, value] of Object.entries(entries ?? {})) sessionStorage.setItem(key, value);
    },
    { entries, number },
  );
}

const grantsGiven = new WeakMap<Page, number>();

/**
 * For a tab kept across tests (support/test.ts), after its storage was cleared: the sessions given to it so far stay
 * spent, so its next page load is signed out until the next test gives it a session of its own.
 */
export async function retireTabSessions(page: Page): Promise<void> {
  await page.evaluate(
    (number) => sessionStorage.setItem('e2e:session-grant', String(number)),
    grantsGiven.get(page) ?? 0,
  );
}

/**
 * Opens a console path signed in as the e2e admin; ends on that path. By default the page gets a grant of the worker's
 * session (no sign-in form); `viaForm` signs in on the issuer's page as a user would, for tests whose subject is that.
 */
export async function openSignedIn(page: Page, path: string, options: { viaForm?: boolean } = {}): Promise<void> {
  if (options.viaForm) await setTabSession(page, undefined);
  else await giveConsoleSession(page);
  await page.goto(path);
  if (options.viaForm) {
    await page.waitForURL(/\/interaction\//);
    await submitSignIn(page, adminCredentials.username, adminCredentials.password);
  }
  await page.waitForURL((url) => url.pathname.startsWith('/console') && !url.pathname.endsWith('/callback'));
}
