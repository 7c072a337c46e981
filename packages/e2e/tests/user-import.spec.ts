import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-user-import-${name}.png`, fullPage: true });
}

/** Each test makes its own users: a random prefix keeps their usernames apart from every other test's. */
const prefix = () => `imp_${randomBytes(4).toString('hex')}`;

type User = { id: string; username: string | null; primaryEmail: string | null; name: string | null };

async function openUsers(page: Page): Promise<ManagementApi> {
  await openSignedIn(page, consolePath('users'));
  await waitForShell(page);
  return managementApiAs(page);
}

const usersMatching = (api: ManagementApi, text: string) =>
  api.get<User[]>(`/users?search=${encodeURIComponent(`%${text}%`)}&page_size=100`);

function importDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Import users' });
}

/** Opens the dialog and chooses a CSV file with the given lines. */
async function chooseCsv(page: Page, lines: readonly string[]): Promise<Locator> {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = importDialog(page);
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('File').setInputFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${lines.join('\n')}\n`),
  });
  return dialog;
}

test.describe('user import and export', () => {
  test('imports a CSV with one bad row: the report names its line, the good users are in the list', async ({
    page,
  }) => {
    const api = await openUsers(page);
    const p = prefix();
    const dialog = await chooseCsv(page, [
      'Login,Email,Full name',
      `${p}_ann,${p}_ann@example.com,Ann Import`,
      `${p}_bad,not-an-email,Bad Row`,
      `${p}_ben,${p}_ben@example.com,Ben Import`,
    ]);
    await expect(dialog.getByText('people.csv: CSV, 3 columns.')).toBeVisible();
    // The headers were guessed; the full name column is mapped by hand.
    await expect(dialog.getByRole('combobox', { name: 'User field for column Login' })).toHaveValue('username');
    await expect(dialog.getByRole('combobox', { name: 'User field for column Email' })).toHaveValue('primaryEmail');
    await dialog.getByRole('combobox', { name: 'User field for column Full name' }).selectOption('name');
    await snap(page, 'mapping');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    await expect(dialog.getByText('Import finished.')).toBeVisible();
    await expect(dialog.getByTestId('import-created')).toHaveText('2');
    await expect(dialog.getByTestId('import-failed')).toHaveText('1');
    const report = dialog.getByRole('table', { name: 'Rows with errors' });
    const errorRow = report.getByRole('row').filter({ hasText: 'Email address' });
    await expect(errorRow, 'the bad row is reported with its file line').toContainText('3');
    await expect(errorRow).toContainText('Invalid string');
    await expect(dialog.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('value', '3');
    await snap(page, 'report');
    await page.emulateMedia({ colorScheme: 'dark' });
    await snap(page, 'report-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // The footer's Close (the header's × is named Close too).
    await dialog.getByText('Close', { exact: true }).click();

    await page.getByRole('searchbox').fill(p);
    await page.getByRole('searchbox').press('Enter');
    const list = page.getByRole('table', { name: 'User management' });
    await expect(list.getByRole('row').filter({ hasText: 'Ann Import' })).toBeVisible();
    await expect(list.getByRole('row').filter({ hasText: 'Ben Import' })).toBeVisible();
    await expect(list.getByRole('row').filter({ hasText: 'Bad Row' })).toHaveCount(0);
    const saved = await usersMatching(api, p);
    expect(saved.map((user) => user.username).sort()).toEqual([`${p}_ann`, `${p}_ben`]);
  });

  test('a dry run checks the file and saves nothing; a clean check can then be imported', async ({ page }) => {
    const api = await openUsers(page);
    const p = prefix();
    const dialog = await chooseCsv(page, ['username,name', `${p}_cat,Cat Dry`]);
    await dialog.getByRole('checkbox', { name: /Dry run/ }).check();
    await dialog.getByRole('button', { name: 'Check file' }).click();
    await expect(dialog.getByText('Check finished: nothing was saved.')).toBeVisible();
    await expect(dialog.getByTestId('import-created')).toHaveText('1');
    expect(await usersMatching(api, p), 'a dry run writes nothing').toEqual([]);

    await dialog.getByRole('button', { name: 'Import now' }).click();
    await expect(dialog.getByText('Import finished.')).toBeVisible();
    expect((await usersMatching(api, p)).map((user) => user.name)).toEqual(['Cat Dry']);
  });

  test('exports the filtered list as CSV and as JSON', async ({ page }) => {
    const api = await openUsers(page);
    const p = prefix();
    for (const name of ['one', 'two']) await api.post('/users', { username: `${p}_${name}`, name: `Export ${name}` });
    await page.getByRole('searchbox').fill(p);
    await page.getByRole('searchbox').press('Enter');
    await expect(
      page.getByRole('table', { name: 'User management' }).getByRole('row').filter({ hasText: 'Export two' }),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Export' }).click();
    await snap(page, 'export-menu');
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export as CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile(await csv.path(), 'utf8');
    const lines = text.trim().split('\n');
    expect(lines[0]).toMatch(/^id,username,primaryEmail,/);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[1])
        .sort(),
      'only the users the search shows',
    ).toEqual([`${p}_one`, `${p}_two`]);

    await page.getByRole('button', { name: 'Export' }).click();
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export as JSON' }).click(),
    ]);
    const users = JSON.parse(await readFile(await json.path(), 'utf8')) as User[];
    expect(users.map((user) => user.name).sort()).toEqual(['Export one', 'Export two']);
  });
});
