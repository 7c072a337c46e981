import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import {
  type Browser,
  type BrowserContext,
  type CDPSession,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { openSignedInAt } from '../support/accounts.ts';
import { seriousViolations } from '../support/axe.ts';
import { managementApiAs } from '../support/management-api.ts';
import { startAuthorization } from '../support/oidc.ts';
import { type FreshServer, startFreshServer } from '../support/server.ts';
import { submitSignIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';

/**
 * Passkeys (WebAuthn, docs/areas/passkeys.md) on the real sign-in pages, with Chromium's virtual authenticator (CDP):
 * as the second factor (set up under the Mandatory policy, then asked for, then gone from the device), as a way to
 * sign in alone, the offer after a password sign-in, the identifier field's autofill, and the console's switch.
 *
 * WebAuthn refuses an IP address as relying-party ID, and the suite's shared server runs on 127.0.0.1, where passkeys
 * are (by design) not offered: this spec runs a server of its own whose PUBLIC_URL is `http://localhost:<port>` and
 * browses it there (http://localhost is a secure context). The pages' axe checks (light and dark) and Arabic are here:
 * the sweep reads the console, not these pages. `E2E_SCREENSHOTS` (a folder): the passkey pages are saved there in
 * light and dark, 1280 and 390 pixels wide, English and Arabic.
 */
const screenshots = process.env.E2E_SCREENSHOTS;
const admin = { username: 'passkey_admin', password: 'Passkey-admin-horse-5' };
const password = 'Passkey-user-lamp-48';
const callbackPath = '/passkeys-e2e/callback';
const colours = { rules: ['color-contrast', 'link-in-text-block'] };
const arabicScript = /\p{Script=Arabic}/u;

let server: FreshServer;
let adminContext: BrowserContext;
let adminPage: Page;
let api: Awaited<ReturnType<typeof managementApiAs>>;
let app: { id: string };
let redirectUri: string;

test.beforeAll(async ({ browser }, testInfo) => {
  testInfo.setTimeout(180_000); // A fresh data directory (migrations, seeding) on a loaded 2-core machine.
  server = await startFreshServer({
    publicHost: 'localhost',
    env: { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password, PWNED_PASSWORDS_URL: 'off' },
  });
  redirectUri = `${server.url}${callbackPath}`;
  adminContext = await browser.newContext({ baseURL: server.url });
  adminPage = await adminContext.newPage();
  await openSignedInAt(adminPage, `${server.url}/console/mfa`, admin.username, admin.password);
  await waitForShell(adminPage);
  api = await managementApiAs(adminPage);
  app = await api.post<{ id: string }>('/applications', {
    name: 'Passkeys e2e',
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [redirectUri] },
  });
  // The sign-in pages follow the system's colour scheme (for the dark checks and shots).
  const { color } = await api.get<{ color: Record<string, unknown> }>('/sign-in-exp');
  await api.patch('/sign-in-exp', { color: { ...color, isDarkModeEnabled: true } });
});

test.afterAll(async () => {
  await adminContext?.close();
  await server?.stop();
});

type Authenticator = { cdp: CDPSession; authenticatorId: string };
type Credential = { credentialId: string; rpId?: string; isResidentCredential: boolean };

/** A browser of its own (a user's device) on the spec's server, with a virtual platform authenticator. */
async function device(browser: Browser) {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, body: 'signed in' }));
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const authenticator: Authenticator = { cdp, authenticatorId };
  return { context, page, authenticator };
}

async function credentialsOf({ cdp, authenticatorId }: Authenticator): Promise<Credential[]> {
  return ((await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: Credential[] })
    .credentials;
}

/**
 * Clicks a passkey button and waits for the server's answer to what the browser sent (a POST to `path`): not a
 * refusal. A refusal says so at once instead of a wait for the application that never comes.
 */
async function answerWithPasskey(page: Page, button: Locator, path: string): Promise<void> {
  const answered = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith(path),
    { timeout: 15_000 },
  );
  await button.click();
  expect((await answered).status(), `the server accepts the passkey (POST …${path})`).toBeLessThan(400);
}

/** Waits until `page` is at the application's redirect URI with an authorization code (and the given state). */
async function reachedApp(page: Page, state: string): Promise<void> {
  await page.waitForURL(
    (url) =>
      url.href.startsWith(redirectUri) && url.searchParams.has('code') && url.searchParams.get('state') === state,
  );
}

/** The application's authorization request (prompt=login: the provider's session does not answer it). */
async function authorize(page: Page, state: string, extra: Record<string, string> = {}) {
  return startAuthorization(page, {
    clientId: app.id,
    redirectUri,
    state,
    extra: { prompt: 'login', ...extra },
  });
}

/** Redeems the code on `page`'s URL (PKCE) and answers the ID token's claims. */
async function idTokenClaims(page: Page, verifier: string): Promise<Record<string, unknown>> {
  const code = new URL(page.url()).searchParams.get('code') ?? '';
  const response = await page.request.post(`${server.url}/oidc/token`, {
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: app.id,
      code_verifier: verifier,
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const { id_token: idToken } = (await response.json()) as { id_token: string };
  return JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** On the Arabic first screen: the identifier and password, by their fields (the labels are Arabic). */
async function submitSignInByFields(page: Page, username: string) {
  await page.locator('#identifier').fill(username);
  await page.locator('#password').fill(password);
  await page.locator('form:not(.passkey) button[type="submit"]').first().click();
}

/** Every axe rule in light, then the colour rules in dark. */
async function expectAccessible(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page), `${label}, light`).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await seriousViolations(page, colours), `${label}, dark`).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** With `E2E_SCREENSHOTS`: the page in light and dark, at 1280 and 390 pixels wide; then back to light, 1280. */
async function shoot(page: Page, name: string): Promise<void> {
  if (!screenshots) return;
  mkdirSync(screenshots, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `${screenshots}/passkeys-${name}-${colorScheme}-${width}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
}

const newUser = async (prefix: string) => {
  const username = `${prefix}_${randomBytes(3).toString('hex')}`;
  const user = await api.post<{ id: string }>('/users', { username, password });
  return { id: user.id, username };
};

test('MFA with a passkey: set up under the Mandatory policy, asked for at the next sign-in, refused once gone', async ({
  browser,
}) => {
  test.setTimeout(90_000); // Five password sign-ins (Argon2id) and four axe runs on a loaded 2-core machine.
  await api.patch('/sign-in-exp', {
    mfa: { factors: ['Totp', 'WebAuthn', 'BackupCode'], policy: 'Mandatory' },
    passkeySignIn: { enabled: false },
  });
  const user = await newUser('mfa_passkey');
  const { context, page, authenticator } = await device(browser);
  try {
    // Set up: the password, then "Create a passkey" (the authenticator app offered below it; no skipping under
    // Mandatory), then the backup codes.
    await authorize(page, 'enrol');
    await submitSignIn(page, user.username, password);
    await expect(page.getByRole('heading', { level: 1, name: 'Create a passkey' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('This account needs a second step to sign in.');
    await expect(page.getByRole('button', { name: 'Skip for now' })).toHaveCount(0);
    const create = page.getByRole('button', { name: 'Create a passkey' });
    await expect(create).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Or set up an authenticator app instead' })).toBeVisible();
    await expectAccessible(page, 'enrol page');
    await shoot(page, 'enrol-en');
    await answerWithPasskey(page, create, '/mfa/enroll-passkey');
    await expect(page.getByRole('heading', { level: 1, name: 'Save your backup codes' })).toBeVisible();
    const codes = await page.getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await reachedApp(page, 'enrol');
    const credentials = await credentialsOf(authenticator);
    expect(credentials, 'one passkey on the device').toHaveLength(1);
    expect(credentials[0]).toMatchObject({ rpId: 'localhost', isResidentCredential: true });

    // The next sign-in asks for it after the password.
    await authorize(page, 'verify');
    await submitSignIn(page, user.username, password);
    await expect(page.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
    const usePasskey = page.getByRole('button', { name: 'Use your passkey' });
    await expect(usePasskey).toBeVisible();
    await expect(page.getByRole('link', { name: 'Use a backup code instead' })).toBeVisible();
    await expectAccessible(page, 'verify page');
    await shoot(page, 'verify-en');
    await answerWithPasskey(page, usePasskey, '/mfa/passkey');
    await reachedApp(page, 'verify');

    // The same page in Arabic: right to left, its words translated; the passkey answers there too.
    await authorize(page, 'verify-ar', { ui_locales: 'ar' });
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await submitSignInByFields(page, user.username);
    await expect(page.getByRole('heading', { level: 1, name: 'التحقق بخطوتين' })).toBeVisible();
    const usePasskeyAr = page.locator('form.passkey button[type="submit"]');
    await expect(usePasskeyAr).toBeVisible();
    await shoot(page, 'verify-ar');
    await expect(usePasskeyAr, 'the passkey button in Arabic').toHaveText(arabicScript);
    await answerWithPasskey(page, usePasskeyAr, '/mfa/passkey');
    await reachedApp(page, 'verify-ar');

    // The passkey gone from the device: the page says so, and the user takes another way they hold.
    await authenticator.cdp.send('WebAuthn.clearCredentials', { authenticatorId: authenticator.authenticatorId });
    await authorize(page, 'gone');
    await submitSignIn(page, user.username, password);
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    // The browser finds no passkey of this account: the request fails before it reaches the server.
    await expect(page.getByRole('alert')).toHaveText(
      'The passkey request was cancelled or timed out, or this device has no passkey for this account.',
    );
    await shoot(page, 'verify-error-en');
    await expect(page.getByRole('button', { name: 'Use your passkey' }), 'it can be tried again').toBeVisible();
    await page.getByRole('link', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await reachedApp(page, 'gone');
  } finally {
    await context.close();
  }

  // The enrol page in Arabic, for a user who has no factor yet.
  const arabic = await newUser('mfa_passkey_ar');
  const other = await device(browser);
  try {
    await authorize(other.page, 'enrol-ar', { ui_locales: 'ar' });
    await expect(other.page.locator('html')).toHaveAttribute('dir', 'rtl');
    await submitSignInByFields(other.page, arabic.username);
    const createAr = other.page.locator('form.passkey button[type="submit"]');
    await expect(createAr).toBeVisible();
    await shoot(other.page, 'enrol-ar');
    await expect(other.page.getByRole('heading', { level: 1 }), 'the enrol page in Arabic').toHaveText(arabicScript);
    await expect(createAr).toHaveText(arabicScript);
  } finally {
    await other.context.close();
  }
});

test('passkey sign-in: offered after a password, created, then signing in with it alone; unverified is refused', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  await api.patch('/sign-in-exp', {
    mfa: { factors: [], policy: 'UserControlled' },
    passkeySignIn: { enabled: true, showPasskeyButton: true, allowAutofill: false },
  });
  const user = await newUser('passkey_signin');
  const { context, page, authenticator } = await device(browser);
  try {
    // The password sign-in of a user without a passkey ends at the offer; "Create a passkey" ends at the app.
    await authorize(page, 'offer');
    // The first screen's button, for anyone (it asks the browser for any passkey of this site).
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    await expectAccessible(page, 'first screen with the passkey button');
    await shoot(page, 'first-screen-en');
    await expect(page.getByLabel('Username or email')).toHaveAttribute('autocomplete', 'username');
    await submitSignIn(page, user.username, password);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in faster next time' })).toBeVisible();
    const create = page.getByRole('button', { name: 'Create a passkey' });
    await expect(create).toBeVisible();
    await expect(page.getByRole('button', { name: 'Not now' })).toBeVisible();
    await expectAccessible(page, 'offer page');
    await shoot(page, 'offer-en');
    await answerWithPasskey(page, create, '/passkey/offer');
    await reachedApp(page, 'offer');
    expect(await credentialsOf(authenticator)).toHaveLength(1);

    // No password: the first screen's button, the device's passkey, and the application has a code for this user.
    const verifier = await authorize(page, 'passkey');
    await answerWithPasskey(page, page.getByRole('button', { name: 'Sign in with a passkey' }), '/passkey');
    await reachedApp(page, 'passkey');
    const claims = await idTokenClaims(page, verifier);
    expect(claims.sub, 'the passkey named the user').toBe(user.id);

    // The device does not verify its user (no PIN, no biometric): passkey sign-in requires it. The browser itself
    // refuses to answer such a request; a client that asks without the requirement gets an answer the server refuses.
    await authenticator.cdp.send('WebAuthn.setUserVerified', {
      authenticatorId: authenticator.authenticatorId,
      isUserVerified: false,
    });
    await authorize(page, 'unverified');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The passkey request was cancelled or timed out, or this device has no passkey for this account.',
    );
    await page.evaluate(() => {
      const get = navigator.credentials.get.bind(navigator.credentials);
      navigator.credentials.get = (options?: CredentialRequestOptions) => {
        if (options?.publicKey) options.publicKey.userVerification = 'discouraged';
        return get(options);
      };
    });
    const refused = page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/passkey'),
    );
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    expect((await refused).status(), 'the server refused the unverified answer').toBe(401);
    await expect(page.getByRole('alert')).toHaveText(
      'That passkey could not be used. Try again, or sign in another way.',
    );
    expect(new URL(page.url()).href.startsWith(redirectUri), 'not signed in').toBe(false);
    await expect(page.getByLabel('Username or email'), 'the other ways are still there').toBeVisible();
  } finally {
    await context.close();
  }
});

test('the offer: "Not now" ends at the app, and this browser is not offered again', async ({ browser }) => {
  test.setTimeout(60_000);
  await api.patch('/sign-in-exp', {
    mfa: { factors: [], policy: 'UserControlled' },
    passkeySignIn: { enabled: true, showPasskeyButton: true, allowAutofill: false },
  });
  const first = await newUser('offer_declined');
  const second = await newUser('offer_second');
  const { context, page } = await device(browser);
  const offers: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().includes('/passkey/offer')) offers.push(frame.url());
  });
  try {
    await authorize(page, 'decline');
    await submitSignIn(page, first.username, password);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in faster next time' })).toBeVisible();
    await page.getByRole('button', { name: 'Not now' }).click();
    await reachedApp(page, 'decline');
    expect(offers).toHaveLength(1);

    // The same user, then another one without a passkey, in the same browser: straight to the app.
    await authorize(page, 'again');
    await submitSignIn(page, first.username, password);
    await reachedApp(page, 'again');
    // Another account in this browser (the provider signs the first one out on the way): not offered either.
    await authorize(page, 'another');
    await submitSignIn(page, second.username, password);
    await reachedApp(page, 'another');
    expect(offers, 'offered once in this browser').toHaveLength(1);
  } finally {
    await context.close();
  }

  // The offer in Arabic, in another browser (this one declined it).
  const arabic = await device(browser);
  try {
    await authorize(arabic.page, 'offer-ar', { ui_locales: 'ar' });
    await expect(arabic.page.locator('html')).toHaveAttribute('dir', 'rtl');
    await submitSignInByFields(arabic.page, second.username);
    const createAr = arabic.page.locator('form.passkey button[type="submit"]');
    await expect(createAr).toBeVisible();
    await shoot(arabic.page, 'offer-ar');
    await expect(arabic.page.getByRole('heading', { level: 1 }), 'the offer in Arabic').toHaveText(arabicScript);
    await expect(createAr).toHaveText(arabicScript);
  } finally {
    await arabic.context.close();
  }
});

test('autofill: the identifier field offers passkeys, and the page asks for the options as it loads', async ({
  browser,
}) => {
  await api.patch('/sign-in-exp', {
    mfa: { factors: [], policy: 'UserControlled' },
    passkeySignIn: { enabled: true, showPasskeyButton: true, allowAutofill: true },
  });
  const { context, page } = await device(browser);
  try {
    // Chromium's conditional UI (the autofill's list of passkeys) cannot be driven by Playwright: the page's request
    // for it is what is checked.
    const optionsRequest = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/passkey/options'),
      { timeout: 10_000 },
    );
    await authorize(page, 'autofill');
    await expect(page.getByLabel('Username or email')).toHaveAttribute('autocomplete', 'username webauthn');
    const response = await (await optionsRequest).response();
    expect(response?.status()).toBe(200);
    const options = (await response?.json()) as { challenge?: string; rpId?: string; userVerification?: string };
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.challenge).toMatch(/^[\w-]{16,}$/);
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('console: the MFA page turns passkeys on, and it stays on after a reload', async () => {
  await api.patch('/sign-in-exp', { mfa: { factors: ['Totp'], policy: 'UserControlled' } });
  await adminPage.goto(`${server.url}/console/mfa`);
  await waitForShell(adminPage);
  const passkeys = adminPage.getByRole('switch', { name: /^Passkeys \(WebAuthn\)/ });
  await expect(passkeys).not.toBeChecked();
  await passkeys.click();
  await adminPage.getByRole('button', { name: 'Save changes' }).click();
  await expect(adminPage.getByRole('status').filter({ hasText: 'MFA settings saved.' })).toBeVisible();
  await expect(adminPage.getByRole('region', { name: 'Unsaved changes' })).toHaveCount(0);
  await adminPage.reload();
  await waitForShell(adminPage);
  await expect(passkeys).toBeChecked();
  const saved = await api.get<{ mfa: { factors: string[] } }>('/sign-in-exp');
  expect(saved.mfa.factors).toEqual(expect.arrayContaining(['Totp', 'WebAuthn']));
});

test('console profile: the admin adds a passkey after proving the password, sees it listed, and removes it', async () => {
  test.setTimeout(60_000);
  const cdp = await adminContext.newCDPSession(adminPage);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  try {
    await adminPage.goto(`${server.url}/console/profile`);
    const section = adminPage.getByRole('region', { name: 'Two-step verification' });
    await expect(section.getByText('No passkeys yet.')).toBeVisible();

    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const verify = adminPage.getByRole('dialog', { name: 'Verify your password' });
    await verify.getByLabel('Current password').fill('not-the-password');
    await verify.getByRole('button', { name: 'Continue' }).click();
    await expect(verify.getByText('The password is incorrect.')).toBeVisible();
    await verify.getByLabel('Current password').fill(admin.password);
    await verify.getByRole('button', { name: 'Continue' }).click();

    const naming = adminPage.getByRole('dialog', { name: 'Name your passkey' });
    // Drawn from the user agent ("Chrome on Linux"; headless Chromium calls itself HeadlessChrome).
    await expect(naming.getByLabel('Name')).toHaveValue(/Linux/);
    await naming.getByLabel('Name').fill('Work laptop');
    await naming.getByRole('button', { name: 'Save' }).click();
    await expect(adminPage.getByRole('status').filter({ hasText: 'Passkey “Work laptop” added.' })).toBeVisible();
    await expect(section.getByText('Work laptop')).toBeVisible();
    const held = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(held.credentials, 'the device holds the new passkey, for this site').toHaveLength(1);
    expect(held.credentials[0]?.rpId).toBe('localhost');

    await section.getByRole('button', { name: 'Remove passkey “Work laptop”' }).click();
    const confirm = adminPage.getByRole('alertdialog', { name: 'Remove passkey' });
    await expect(
      confirm.getByText('You will no longer be able to sign in with the passkey “Work laptop”.'),
    ).toBeVisible();
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(confirm).toBeHidden();
    const again = adminPage.getByRole('dialog', { name: 'Verify your password' });
    await again.getByLabel('Current password').fill(admin.password);
    await again.getByRole('button', { name: 'Continue' }).click();
    await expect(adminPage.getByRole('status').filter({ hasText: 'Passkey “Work laptop” removed.' })).toBeVisible();
    await expect(section.getByText('No passkeys yet.')).toBeVisible();
    expect(await seriousViolations(adminPage), 'the profile passes axe').toEqual([]);
  } finally {
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await cdp.detach();
  }
});
