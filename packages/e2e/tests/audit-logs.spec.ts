import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn, submitSignIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-audit-logs-${name}.png`, fullPage: true });
}

/** Each test makes its own data: a random suffix keeps its names apart from every other test's. */
const suffix = () => randomBytes(4).toString('hex');

/** Signs in on the first page; the test then makes its data and goes to the audit logs with `showAuditLogs`. */
async function signIn(page: Page): Promise<ManagementApi> {
  await openSignedIn(page, consolePath('get-started'));
  await waitForShell(page);
  return managementApiAs(page);
}

/** Through the sidebar, as a user would: no reload, and the list is read after the test's own writes. */
async function showAuditLogs(page: Page, linkName = 'Audit logs'): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: linkName }).click();
  await expect(page).toHaveURL(new RegExp(`${consolePath('audit-logs')}$`));
}

/** A full page load takes a while on a busy machine: wait for the app, not the fixed five seconds. */
const afterLoad = { timeout: 20_000 };

function logTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Audit logs' });
}

/** Types into a filter's combobox and picks the option with that name, as a keyboard-and-mouse user would. */
async function pickOption(page: Page, filter: string, text: string, option: string | RegExp) {
  const box = page.getByRole('combobox', { name: filter });
  await box.fill(text);
  await page.getByRole('listbox', { name: filter }).getByRole('option', { name: option }).click();
}

/** A failed sign-in of `username` to the default tenant's SPA app, in a browser of its own. */
async function failSignIn(browser: Browser, baseURL: string, clientId: string, redirectUri: string, username: string) {
  const context = await browser.newContext();
  try {
    const visitor = await context.newPage();
    const params = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 'e2e',
      code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
      code_challenge_method: 'S256',
    });
    await visitor.goto(`${baseURL}/oidc/auth?${params}`);
    await submitSignIn(visitor, username, 'not-the-password');
    await expect(visitor.getByRole('alert')).toHaveText('The username or password is incorrect.');
  } finally {
    await context.close();
  }
}

test.describe('audit logs', () => {
  // Sign-in, API setup, several page loads and axe runs on a shared two-core machine.
  test.beforeEach(() => test.slow());

  test('an admin write is found by its key and opens with a before/after diff; the filters survive a reload', async ({
    page,
  }) => {
    const api = await signIn(page);
    const id = suffix();
    const role = await api.createRole({ name: `Auditor ${id}`, description: 'Before the rename' });
    await api.patch(`/roles/${role.id}`, {
      name: `Renamed auditor ${id}`,
      description: 'After the rename',
    });
    await showAuditLogs(page);

    await pickOption(page, 'Log key', 'role upd', 'Admin.Role.Updated');
    await expect(page).toHaveURL(/logKey=Admin\.Role\.Updated/);
    await page.getByRole('combobox', { name: 'Result' }).selectOption({ label: 'Success' });
    await expect(page).toHaveURL(/result=success/);
    const rows = logTable(page).getByRole('row').filter({ hasText: 'Admin.Role.Updated' });
    await expect(rows.first()).toBeVisible();
    await expect(logTable(page).getByRole('row').filter({ hasText: 'Admin.Role.Created' })).toHaveCount(0);
    await snap(page, 'list-filtered');

    // The URL holds the filters: a reload shows the same list with the same choices.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Log key' })).toHaveValue('Admin.Role.Updated', afterLoad);
    await expect(page.getByRole('combobox', { name: 'Result' })).toHaveValue('success');
    await expect(rows.first()).toBeVisible();

    // The export takes the same filters: only successful role updates, ours among them.
    await page.getByRole('button', { name: 'Export' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export as JSON' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^audit-logs-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile((await download.path()) ?? '', 'utf8')) as {
      key: string;
      payload: { result: string; entity?: { id: string } };
    }[];
    expect(exported.length).toBeGreaterThan(0);
    expect(new Set(exported.map((entry) => `${entry.key} ${entry.payload.result}`))).toEqual(
      new Set(['Admin.Role.Updated Success']),
    );
    expect(exported.some((entry) => entry.payload.entity?.id === role.id)).toBe(true);

    // The newest update is ours: the entry shows what changed, field by field.
    // The row's first link opens the entry (its actor and subject link to their own pages).
    await rows.first().getByRole('link').first().click();
    await expect(page).toHaveURL(/\/audit-logs\/[0-9a-z]+$/i);
    await expectHeading(page, 'Admin.Role.Updated');
    const changes = page.getByRole('table', { name: 'Changes' });
    const nameRow = changes.getByRole('row', { name: /^name\b/ });
    await expect(nameRow).toContainText('Changed');
    await expect(nameRow).toContainText(`Auditor ${id}`);
    await expect(nameRow).toContainText(`Renamed auditor ${id}`);
    const descriptionRow = changes.getByRole('row', { name: /^description\b/ });
    await expect(descriptionRow).toContainText('Before the rename');
    await expect(descriptionRow).toContainText('After the rename');
    // The subject by its name, linked to the role's page (issue 40, item 2).
    await expect(page.getByRole('link', { name: `Renamed auditor ${id}` })).toBeVisible();
    await snap(page, 'entry');

    // Back returns to the filtered list.
    await page.getByRole('link', { name: 'Back to audit logs' }).click();
    await expect(page).toHaveURL(/logKey=Admin\.Role\.Updated/);
    await expect(page).toHaveURL(/result=success/);
  });

  test('a failed sign-in is found by application, user and result error', async ({ page, browser, baseURL }) => {
    const api = await signIn(page);
    const id = suffix();
    const user = await api.post<{ id: string }>('/users', { username: `audited_${id}`, password: `Pass-${id}-word` });
    const redirectUri = `${baseURL}/e2e-audit-callback`;
    const app = await api.post<{ id: string }>('/applications', {
      name: `Audit app ${id}`,
      type: 'SPA',
      oidcClientMetadata: { redirectUris: [redirectUri] },
    });
    await failSignIn(browser, baseURL ?? '', app.id, redirectUri, `audited_${id}`);
    await showAuditLogs(page);

    await pickOption(page, 'Application', `Audit app ${id}`, new RegExp(`Audit app ${id}`));
    await expect(page).toHaveURL(new RegExp(`applicationId=${app.id}`));
    await expect(page.getByRole('combobox', { name: 'Application' })).toHaveValue(`Audit app ${id}`);
    await page.getByRole('combobox', { name: 'Result' }).selectOption({ label: 'Error' });
    const failed = logTable(page).getByRole('row').filter({ hasText: 'Interaction.SignIn.Submit' });
    await expect(failed).toHaveCount(1);
    await expect(failed.getByText('Failed')).toBeVisible();

    await pickOption(page, 'User', `audited_${id}`, new RegExp(`audited_${id}`));
    await expect(page).toHaveURL(new RegExp(`userId=${user.id}`));
    await expect(failed).toHaveCount(1);

    // No success for this app: the other result shows the empty state.
    await page.getByRole('combobox', { name: 'Result' }).selectOption({ label: 'Success' });
    await expect(page.getByText('No log entry matches these filters.')).toBeVisible();

    // Clearing the application keeps the other filters; 'Clear filters' drops them all.
    await page.getByRole('button', { name: 'Clear Application' }).click();
    await expect(page).not.toHaveURL(/applicationId=/);
    await expect(page).toHaveURL(/userId=/);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(new RegExp(`${consolePath('audit-logs')}$`));
  });

  test('a time range in the future matches nothing, and an inverted one says why', async ({ page }) => {
    await openSignedIn(page, consolePath('audit-logs?from=2999-01-01T00:00'));
    await expect(page.getByText('No log entry matches these filters.')).toBeVisible(afterLoad);
    await page.getByLabel('To', { exact: true }).fill('2998-01-01T10:00');
    await expect(page).toHaveURL(/to=2998-01-01T10%3A00|to=2998-01-01T10:00/);
    await expect(page.getByRole('alert')).toHaveText('The start of the time range must be before its end.');
  });
});
