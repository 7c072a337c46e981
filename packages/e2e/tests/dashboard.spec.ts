import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn, submitSignIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-dashboard-${name}.png`, fullPage: true });
}

/** Where the end user's browser is sent back after signing in: a path of the server that has no page (404). */
const appCallback = (baseURL: string) => new URL('/dashboard-e2e/callback', baseURL).toString();

async function openDashboard(page: Page, query = ''): Promise<ManagementApi> {
  await openSignedIn(page, consolePath(`dashboard${query}`));
  await waitForShell(page);
  await expectHeading(page, 'Dashboard');
  return managementApiAs(page);
}

/** The number a dashboard tile shows (its value, digits only), once loaded. */
async function tileValue(page: Page, testId: string): Promise<number> {
  const value = page.getByTestId(`${testId}-value`);
  await expect(value, `${testId} has loaded`).toHaveText(/\d/);
  return Number((await value.innerText()).replace(/\D/g, ''));
}

/** The chart's text alternative: the table of days, visually hidden but read by assistive technology. */
function seriesTable(page: Page, title: RegExp | string): Locator {
  return page.getByRole('table', { name: title });
}

/**
 * A real end-user sign-in to the tenant under test, in a browser of its own: an SPA of the tenant starts the
 * authorization (code + PKCE), the user types their password on the tenant's sign-in page, and the browser is sent
 * back to the app. That sign-in is what the dashboard counts.
 */
async function signInToTenantApp(
  browser: Browser,
  callbackUrl: string,
  clientId: string,
  username: string,
  password: string,
) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const verifier = randomBytes(32).toString('base64url');
    const params = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: callbackUrl,
      scope: 'openid profile',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'dashboard-e2e',
      prompt: 'login consent',
    });
    await page.goto(`/oidc/auth?${params}`);
    await page.waitForURL(/\/interaction\//);
    // The app's page is not there: the browser's request to the callback is the end of the flow.
    const callback = page.waitForRequest((request) => request.url().startsWith(callbackUrl));
    await submitSignIn(page, username, password);
    const code = new URL((await callback).url()).searchParams.get('code');
    expect(code, 'the app receives an authorization code').toBeTruthy();
  } finally {
    await context.close();
  }
}

test.describe('dashboard', () => {
  // Two sign-ins, a reload and axe twice: more than the default 30 s on a busy machine.
  test.describe.configure({ timeout: 120_000 });

  test('counts a new user and their sign-in after a reload, and draws the daily chart', async ({
    page,
    browser,
    baseURL,
  }) => {
    const api = await openDashboard(page);
    const callbackUrl = appCallback(baseURL ?? '');
    const before = {
      total: await tileValue(page, 'total-users'),
      today: await tileValue(page, 'new-users-today'),
      week: await tileValue(page, 'new-users-7-days'),
      dau: await tileValue(page, 'dau'),
      mau: await tileValue(page, 'mau'),
    };

    const id = randomBytes(4).toString('hex');
    const password = `Dash-board-${id}-9`;
    await api.post('/users', { username: `dash_${id}`, password });
    const app = await api.post<{ id: string }>('/applications', {
      name: `Dashboard SPA ${id}`,
      type: 'SPA',
      oidcClientMetadata: { redirectUris: [callbackUrl] },
    });
    await signInToTenantApp(browser, callbackUrl, app.id, `dash_${id}`, password);

    await page.reload();
    await waitForShell(page);
    expect(await tileValue(page, 'total-users'), 'the new user is counted').toBeGreaterThanOrEqual(before.total + 1);
    expect(await tileValue(page, 'new-users-today')).toBeGreaterThanOrEqual(before.today + 1);
    expect(await tileValue(page, 'new-users-7-days')).toBeGreaterThanOrEqual(before.week + 1);
    const dau = await tileValue(page, 'dau');
    expect(dau, 'their sign-in makes them active today').toBeGreaterThanOrEqual(before.dau + 1);
    expect(await tileValue(page, 'mau')).toBeGreaterThanOrEqual(before.mau + 1);

    // The chart and its text alternative: 30 days by default, 14 after the toggle; today is the last row.
    await expect(page.getByTestId('dau-chart').locator('canvas')).toBeVisible();
    const thirty = seriesTable(page, 'Daily active users, last 30 days');
    await expect(thirty.getByRole('row')).toHaveCount(31);
    await expect(thirty.getByRole('row').last().getByRole('cell')).toHaveText(String(dau));
    await snap(page, '30-days');

    // Issue 26: a legend names the line; focusing the chart shows today's tooltip, the arrow keys move it, and
    // hovering shows the day under the pointer.
    await expect(page.getByTestId('dau-legend')).toHaveText('Active users');
    await page.getByRole('group', { name: /^Daily active users chart/ }).focus();
    const tooltip = page.getByTestId('dau-tooltip');
    await expect(tooltip).toContainText(`Active users${dau}`);
    const today = await tooltip.textContent();
    await page.keyboard.press('ArrowLeft');
    await expect(tooltip).not.toHaveText(today ?? '');
    await page.getByTestId('dau-chart').hover();
    await expect(tooltip).toBeVisible();

    await page.getByRole('button', { name: '14 days' }).click();
    await expect(page.getByRole('button', { name: '14 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/[?&]range=14/);
    const fourteen = seriesTable(page, 'Daily active users, last 14 days');
    await expect(fourteen.getByRole('row'), 'a header row and 14 days').toHaveCount(15);
    await expect(page.getByTestId('dau-chart').locator('canvas')).toBeVisible();
    await page.reload();
    await waitForShell(page);
    await expect(page.getByRole('button', { name: '14 days' }), 'the range survives a reload').toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await snap(page, '14-days');
  });
});
