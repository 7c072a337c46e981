import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) {
    await page.screenshot({ path: `${screenshots}/${edition}-sign-in-experience-${name}.png`, fullPage: true });
  }
}

type SignInExperience = {
  tenantId: string;
  id: string;
  color: { primaryColor: string };
  signInMode: string;
  supportWebsiteUrl: string | null;
  passwordPolicy: { rejects: { words: string[] } };
  signIn: { methods: { identifier: string }[] };
};

/**
 * The tests change the default tenant's sign-in experience, which the other specs sign in through: each puts back
 * what it found, through the API, whatever happened.
 */
let api: ManagementApi | undefined;
let original: SignInExperience | undefined;

async function openArea(page: Page, tab = ''): Promise<ManagementApi> {
  await openSignedIn(page, consolePath(tab ? `sign-in-experience/${tab}` : 'sign-in-experience'));
  await waitForShell(page);
  api = await managementApiAs(page);
  original = await api.get<SignInExperience>('/sign-in-exp');
  await expectHeading(page, 'Sign-in experience');
  return api;
}

test.afterEach(async () => {
  if (api && original) {
    const { tenantId: _tenantId, id: _id, ...settings } = original;
    await api.patch('/sign-in-exp', settings);
  }
  api = undefined;
  original = undefined;
});

const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Sign-in experience sections' }).getByRole('link', { name, exact: true });
const saveBar = (page: Page) => page.getByRole('region', { name: 'Unsaved changes' });
const primaryColor = (page: Page) => page.getByRole('textbox', { name: 'Primary color', exact: true });
const previewFrame = (page: Page) => page.getByTitle('Preview of the sign-in page');

/** Counts the saves the page sends, so a refused form can be shown to have sent nothing. */
function countSaves(page: Page): () => number {
  let saves = 0;
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && /\/api\/sign-in-exp$/.test(new URL(request.url()).pathname)) saves++;
  });
  return () => saves;
}

test.describe('sign-in experience', () => {
  test('edits on every tab are saved together and kept after a reload', async ({ page }) => {
    const api = await openArea(page);
    await expect(page, 'the area opens on branding').toHaveURL(/\/sign-in-experience\/branding$/);
    const color = `#${randomBytes(3).toString('hex').toUpperCase()}`;
    const website = `https://support.example.com/${randomBytes(4).toString('hex')}`;
    const word = `gatehouse${randomBytes(3).toString('hex')}`;

    await primaryColor(page).fill(color);
    await expect(saveBar(page)).toBeVisible();

    await tab(page, 'Sign-up and sign-in').click();
    await expect(page, 'switching tabs does not ask about unsaved changes').toHaveURL(/\/sign-up-and-sign-in$/);
    await page.getByRole('radio', { name: /^Sign in only/ }).check();

    await tab(page, 'Content').click();
    await page.getByRole('textbox', { name: 'Support website URL' }).fill(website);

    await tab(page, 'Password policy').click();
    await page.getByRole('textbox', { name: 'Word 1' }).fill(word);
    await snap(page, 'password-policy');

    // Leaving the area asks first; staying keeps the edits.
    await page.getByRole('link', { name: 'Applications', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(/\/password-policy$/);

    await saveBar(page).getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Sign-in experience saved.')).toBeVisible();
    await expect(saveBar(page)).toHaveCount(0);

    const saved = await api.get<SignInExperience>('/sign-in-exp');
    expect(saved.color.primaryColor).toBe(color);
    expect(saved.signInMode).toBe('SignIn');
    expect(saved.supportWebsiteUrl).toBe(website);
    expect(saved.passwordPolicy.rejects.words).toContain(word);

    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Word 1' })).toHaveValue(word);
    await tab(page, 'Content').click();
    await expect(page.getByRole('textbox', { name: 'Support website URL' })).toHaveValue(website);
    await tab(page, 'Sign-up and sign-in').click();
    await expect(page.getByRole('radio', { name: /^Sign in only/ })).toBeChecked();
    await tab(page, 'Branding').click();
    await expect(primaryColor(page)).toHaveValue(color);
    await snap(page, 'branding');
  });

  test('a bad colour is refused beside the field and nothing is saved', async ({ page }) => {
    const saves = countSaves(page);
    const api = await openArea(page, 'branding');
    await primaryColor(page).fill('#12');
    await saveBar(page).getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('color.primaryColor-error')).toHaveText('Enter a hex color such as #6139F6 or #63F.');
    await expect(primaryColor(page)).toBeFocused();
    expect(saves(), 'nothing was sent').toBe(0);
    expect((await api.get<SignInExperience>('/sign-in-exp')).color.primaryColor).toBe(original?.color.primaryColor);
  });

  test('a rule across fields refused by the server is shown at the sign-in methods', async ({ page }) => {
    const api = await openArea(page, 'sign-up-and-sign-in');
    await page.getByRole('combobox', { name: 'Sign-up identifier' }).selectOption('username');
    const before = await api.get<SignInExperience>('/sign-in-exp');
    // Usernames sign up, but the username sign-in method goes: the server refuses the whole.
    await page.getByRole('button', { name: 'Remove Username' }).click();
    await tab(page, 'Branding').click();
    await saveBar(page).getByRole('button', { name: 'Save changes' }).click();
    await expect(page, 'the tab of the refused field opens').toHaveURL(/\/sign-up-and-sign-in$/);
    await expect(page.getByTestId('signInMethods-error')).toBeVisible();
    await expect(page.getByText('Sign-in experience saved.')).toHaveCount(0);
    expect((await api.get<SignInExperience>('/sign-in-exp')).signIn).toEqual(before.signIn);
  });

  test('the live preview shows the unsaved changes in the chosen screen, theme and language', async ({ page }) => {
    await openArea(page, 'branding');
    const frame = previewFrame(page);
    await expect(frame).toHaveAttribute('src', /^\/sign-in-preview\/[^/]+\/[\w-]+\?screen=sign_in&lang=\w/);
    const first = await frame.getAttribute('src');

    await primaryColor(page).fill('#0A7D3E');
    await expect.poll(() => frame.getAttribute('src'), 'a new preview address after the change').not.toBe(first);

    await page.getByRole('combobox', { name: 'Screen', exact: true }).selectOption('register');
    await page.getByRole('combobox', { name: 'Theme', exact: true }).selectOption('dark');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('de');
    // The preview is named for an application (issue 40, item 10): `&app=` follows.
    await expect(frame).toHaveAttribute('src', /screen=register&lang=de&theme=dark(&app=[\w-]+)?$/);
    await page.getByRole('combobox', { name: 'Device', exact: true }).selectOption('mobile');
    await expect.poll(async () => (await frame.boundingBox())?.width ?? 0).toBeLessThanOrEqual(360);
    await snap(page, 'preview');
  });
});
