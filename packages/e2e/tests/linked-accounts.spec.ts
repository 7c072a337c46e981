import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { createAccount, openSignedInAt } from '../support/accounts.ts';
import { waitForCode } from '../support/mail.ts';
import { startFreshServer } from '../support/server.ts';
import { submitSignIn } from '../support/session.ts';

/**
 * Issue 42: the cloud profile's linked accounts. An email linked with the code read from the local mail sink; a
 * social account linked through the 600×640 popup, with another Gatehouse issuer (this server's default tenant) as
 * the provider; then a sign-in to the console with that social account. On a server of its own: the spec adds a
 * social connector to the console's own sign-in page, which the other specs must not meet.
 */
test.skip(edition !== 'cloud', 'Linked accounts exist only in the cloud edition (EDITION=cloud).');
test.describe.configure({ mode: 'serial' });

const suffix = randomBytes(3).toString('hex');
const account = {
  username: `linker_${suffix}`,
  password: 'linker-Correct-horse-7',
  email: `linker-${suffix}@example.com`,
};
const river = { username: `river_${suffix}`, password: 'River-Stone-Pass-42' };
const connectorId = 'gatehouse-id';

let server: Awaited<ReturnType<typeof startFreshServer>>;
let profileUrl: string;

type CliResult = { clientId: string; clientSecret: string; tokenEndpoint: string; resource: string };

/** The admin CLI's `m2m create` through the running server's socket (support/server.ts's servers run PGlite). */
function createMachineApp(tenant: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(join(server.dataDir, 'cli.sock'));
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
    });
    socket.on('end', () => {
      const reply = JSON.parse(buffer) as { ok: boolean; result?: CliResult; error?: string };
      if (reply.ok && reply.result) resolve(reply.result);
      else reject(new Error(reply.error ?? 'm2m create failed'));
    });
    socket.on('error', reject);
    socket.write(`${JSON.stringify({ command: 'm2m create', args: { tenant, name: `linked accounts ${tenant}` } })}\n`);
  });
}

/** A tenant's management API as a machine app of it (client credentials), from the test runner. */
async function managementApi(tenant: string) {
  const app = await createMachineApp(tenant);
  const tokenResponse = await fetch(app.tokenEndpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: app.resource, scope: 'all' }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.url}/m/${tenant}/api${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  // Mail goes to the local sink; the provider is this server itself, on a loopback address the cloud refuses by default.
  server = await startFreshServer({ mail: true, env: { OUTBOUND_PRIVATE_ADDRESSES: 'allow' } });
  profileUrl = `${server.url}/console/profile`;
  // The provider: the default tenant's issuer, with a web application that returns to the console's landing page
  // (linking) and to the admin tenant's fixed social callback (signing in), and one person.
  const provider = await managementApi('default');
  const client = await provider<{ id: string }>('POST', '/applications', {
    name: 'Console social sign-in',
    type: 'Traditional',
    oidcClientMetadata: {
      redirectUris: [`${server.url}/console/handle-social`, `${server.url}/callback/social/admin/${connectorId}`],
    },
  });
  const secret = await provider<{ value: string }>('POST', `/applications/${client.id}/secrets`, { name: 'console' });
  await provider('POST', '/users', {
    username: river.username,
    password: river.password,
    primaryEmail: `${river.username}@idp.test`,
  });
  // The console's own sign-in (the admin tenant) gets the connector and offers it.
  const consoleTenant = await managementApi('admin');
  await consoleTenant('POST', '/connectors', {
    connectorId: 'oidc',
    id: connectorId,
    config: { issuer: `${server.url}/oidc`, clientId: client.id, clientSecret: secret.value },
    metadata: { target: 'gatehouse', name: { en: 'Gatehouse ID' } },
  });
  await consoleTenant('PATCH', '/sign-in-exp', { socialSignInConnectorTargets: ['gatehouse'] });

  const page = await browser.newPage({ baseURL: server.url });
  await createAccount(page, server.url, account.username, account.password);
  await page.close();
});

test.afterAll(async () => {
  await server?.stop();
});

/** The value cell of a profile row, found by its label. */
function rowValue(page: Page, label: string) {
  return page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
}

async function openProfile(page: Page) {
  await openSignedInAt(page, profileUrl, account.username, account.password);
  await expect(page.getByRole('heading', { level: 2, name: 'Linked accounts' })).toBeVisible();
}

test('links an email with the code mailed to it', async ({ page }) => {
  await openProfile(page);
  await expect(rowValue(page, 'Email')).toHaveText('Not set');
  await page.getByRole('button', { name: 'Link email' }).click();
  await expect(page).toHaveURL(/\/console\/profile\/link-email$/);

  const verify = page.getByRole('dialog', { name: 'Verify your password' });
  await verify.getByLabel('Current password').fill(account.password);
  await verify.getByRole('button', { name: 'Continue' }).click();
  const linkDialog = page.getByRole('dialog', { name: 'Link email' });
  await linkDialog.getByLabel('New email address').fill(account.email);
  await linkDialog.getByRole('button', { name: 'Send code' }).click();

  const codeDialog = page.getByRole('dialog', { name: 'Enter the code' });
  await expect(page).toHaveURL(/\/console\/profile\/verification-code$/);
  await expect(codeDialog.getByTestId('code-sent-to')).toHaveText(`Code sent to: ${account.email}`);
  await codeDialog.getByLabel('Verification code').fill(await waitForCode(account.email));
  await codeDialog.getByRole('button', { name: 'Verify' }).click();

  await expect(page.getByText(`Email address “${account.email}” saved.`)).toBeVisible();
  await expect(page).toHaveURL(/\/console\/profile$/);
  await expect(rowValue(page, 'Email')).toHaveText(account.email);
  await expect(page.getByRole('button', { name: 'Change email' })).toHaveText('Change');
});

test('links a social account through the popup, then signs in to the console with it', async ({ page, browser }) => {
  test.setTimeout(60_000);
  await openProfile(page);
  await expect(rowValue(page, 'Gatehouse ID')).toHaveText('Not connected');

  // The popup's features, as the page asks for them (Playwright gives every page of a context its viewport).
  await page.evaluate(() => {
    const open = window.open.bind(window);
    const seen: string[] = [];
    Object.assign(window, { openedWith: seen });
    window.open = (url, target, features) => {
      seen.push(String(features));
      return open(url, target, features);
    };
  });
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect Gatehouse ID' }).click();
  const popup = await popupOpened;
  expect(await page.evaluate(() => (window as unknown as { openedWith: string[] }).openedWith)).toEqual([
    expect.stringMatching(/^popup,width=600,height=640,/),
  ]);
  // At the provider (its own sign-in page), then back to the console's landing page, which links and closes.
  await submitSignIn(popup, river.username, river.password);
  await popup.waitForEvent('close', { timeout: 20_000 });

  await expect(page.getByText('Social account “Gatehouse ID” added.')).toBeVisible();
  await expect(rowValue(page, 'Gatehouse ID')).toHaveText(`${river.username}@idp.test`);

  // Another browser signs in to the console with the social account only.
  const context = await browser.newContext();
  try {
    const other = await context.newPage();
    await other.goto(profileUrl);
    await other.waitForURL(/\/interaction\/admin\//);
    await other.getByRole('link', { name: /Continue with Gatehouse ID/ }).click();
    await submitSignIn(other, river.username, river.password);
    await expect(other).toHaveURL(profileUrl, { timeout: 20_000 });
    // The linked account, not a new one made from the provider's profile.
    await expect(rowValue(other, 'Email')).toHaveText(account.email);
  } finally {
    await context.close();
  }

  // Disconnecting asks first.
  await page.getByRole('button', { name: 'Disconnect Gatehouse ID' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Social account “Gatehouse ID” removed.')).toBeVisible();
  await expect(rowValue(page, 'Gatehouse ID')).toHaveText('Not connected');
});
