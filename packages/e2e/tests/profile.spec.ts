import { crc32, deflateSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { createAccount, openSignedInAt } from '../support/accounts.ts';
import { startFreshServer } from '../support/server.ts';
import { submitSignIn } from '../support/session.ts';

/** A real PNG (solid colour) of `size`×`size` pixels, so the server's type sniffing sees an image. */
function png(size: number, [red, green, blue]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: size }, () => [red, green, blue]).flat()),
  ]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const first = { username: 'profile_admin', password: 'first-Horse-battery-7' };
const changed = { username: 'ada_lovelace', password: 'second-Staple-lamp-42' };
/** The account's credentials as the tests change them (the username changes in OSS only). */
const account = { ...first };

// Name, username and password of this spec's admin change, so it runs on a server of its own.
let server: Awaited<ReturnType<typeof startFreshServer>>;
let profileUrl: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  server = await startFreshServer();
  profileUrl = `${server.url}/console/profile`;
  const page = await browser.newPage();
  await createAccount(page, server.url, first.username, first.password);
  await page.close();
});

test.afterAll(async () => {
  await server?.stop();
});

/** The value cell of a settings row, found by its label. */
function rowValue(page: Page, label: string) {
  return page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
}

async function openProfile(page: Page, username: string, password: string) {
  await openSignedInAt(page, profileUrl, username, password);
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
}

test('sets the name, whose action reads "Set name" while there is none', async ({ page }) => {
  await openProfile(page, account.username, account.password);
  await expect(page).toHaveTitle('Profile - Gatehouse');
  await expect(rowValue(page, 'Name')).toHaveText('Not set');
  await page.getByRole('button', { name: 'Set name' }).click();

  const dialog = page.getByRole('dialog', { name: 'Set name' });
  await dialog.getByLabel('Name').fill('  Ada Lovelace ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowValue(page, 'Name')).toHaveText('Ada Lovelace');
  await expect(page.getByRole('button', { name: 'Set name' })).toHaveCount(0);

  await page.reload();
  await expect(rowValue(page, 'Name')).toHaveText('Ada Lovelace');
  await expect(page.getByRole('button', { name: 'Change name' })).toHaveText('Change');
});

test('refuses a bad username without saving it, then saves a good one', async ({ page }) => {
  test.skip(edition !== 'oss', 'Only OSS accounts change their username (spec §6).');
  await openProfile(page, account.username, account.password);
  await expect(rowValue(page, 'Username')).toHaveText(first.username);
  await page.getByRole('button', { name: 'Change username' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change username' });
  const field = dialog.getByLabel('Username');
  const patches: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && new URL(request.url()).pathname === '/api/me') patches.push(request.url());
  });

  await field.fill('1ada');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByTestId('username-error')).toHaveText(
    'A username starts with a letter or an underscore and has only letters, digits and underscores.',
  );
  await field.fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByTestId('username-error')).toHaveText('Username is required.');
  expect(patches, 'nothing was sent to the server').toEqual([]);

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.reload();
  await expect(rowValue(page, 'Username')).toHaveText(first.username);

  await page.getByRole('button', { name: 'Change username' }).click();
  await dialog.getByLabel('Username').fill(changed.username);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  await expect(rowValue(page, 'Username')).toHaveText(changed.username);
  account.username = changed.username;
});

test('has no username to change in cloud', async ({ page }) => {
  test.skip(edition !== 'cloud', 'The cloud profile has no username row (spec §2.12).');
  await openProfile(page, account.username, account.password);
  await expect(rowValue(page, 'Name')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Settings' }).getByRole('term')).toHaveText(['Avatar', 'Name']);
});

test('uploads an avatar and refuses oversized and non-image files', async ({ page }) => {
  await openProfile(page, account.username, account.password);
  const avatarCell = rowValue(page, 'Avatar');
  await expect(avatarCell.getByRole('img')).toHaveText('A'); // the initial of the name until there is an image

  await page.getByRole('button', { name: 'Change avatar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change avatar' });
  const fileInput = dialog.locator('input[type=file]');

  await fileInput.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(600 * 1024, 1) });
  await expect(dialog.getByRole('alert')).toHaveText('The file is too large. The maximum size is 500 KB.');
  await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(dialog.getByRole('alert')).toHaveText('Unsupported file type. Allowed types: svg, png, jpeg, ico.');

  await fileInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(16, [97, 57, 246]) });
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  const image = avatarCell.locator('img');
  await expect(image).toHaveAttribute('src', new RegExp(`^${server.url}/user-assets/`));
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(16);

  await page.reload();
  await expect(rowValue(page, 'Avatar').locator('img')).toHaveAttribute('src', /\/user-assets\//);

  // Removing it brings the initial back.
  await page.getByRole('button', { name: 'Change avatar' }).click();
  await dialog.getByRole('button', { name: 'Remove image' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowValue(page, 'Avatar').getByRole('img')).toHaveText('A');
});

test('changes the password after verifying the current one, and signs in with it', async ({ page }) => {
  await openProfile(page, account.username, account.password);
  await expect(rowValue(page, 'Password')).toHaveText('********');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(`${profileUrl}/verify-password`);

  const verify = page.getByRole('dialog', { name: 'Verify your password' });
  await verify.getByRole('button', { name: 'Continue' }).click();
  await expect(verify.getByTestId('password-error')).toHaveText('Current password is required.');
  await verify.getByLabel('Current password').fill('not-my-password');
  await verify.getByRole('button', { name: 'Continue' }).click();
  await expect(verify.getByTestId('password-error')).toHaveText('The password is incorrect.');
  await verify.getByLabel('Current password').fill(first.password);
  await verify.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(`${profileUrl}/change-password`);

  const change = page.getByRole('dialog', { name: 'Change password' });
  await change.getByLabel('New password').fill('abc');
  await change.getByLabel('Confirm password').fill('abd');
  await change.getByRole('button', { name: 'Save' }).click();
  await expect(change.getByTestId('password-error')).toHaveText(
    'The password must have at least 8 characters. The password is mostly a sequence such as abc or 123.',
  );
  await expect(change.getByTestId('confirm-error')).toHaveText('The passwords do not match.');
  // Mostly the user's own name: the policy's user-info rule.
  await change.getByLabel('New password').fill('AdaLovelace1');
  await change.getByLabel('Confirm password').fill('AdaLovelace1');
  await change.getByRole('button', { name: 'Save' }).click();
  await expect(change.getByTestId('password-error')).toHaveText(
    "The password is mostly made of the account's name, username or email.",
  );

  await change.getByLabel('New password').fill(changed.password);
  await change.getByLabel('Confirm password').fill(changed.password);
  await change.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible();
  await expect(page).toHaveURL(profileUrl);
  await expect(change).toBeHidden();

  // Sign out from the console; the old password no longer opens it, the new one does.
  await page.goto(`${server.url}/console`);
  if (edition === 'cloud') {
    // A cloud account without a tenant lands on onboarding (spec §2.4), which has no user menu: drop the console
    // session instead. Every sign-in asks for the password again (prompt=login), so the check below still holds.
    await expect(page.getByRole('heading', { level: 1, name: 'Create your first tenant' })).toBeVisible();
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${server.url}/console`);
  } else {
    await page.getByRole('button', { name: 'Account menu' }).click();
    // The menu names the account once the console has its 'me' token: signing out mid-refresh would race it.
    await expect(page.getByText('Ada Lovelace', { exact: true })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
  }
  await page.waitForURL(/\/interaction\//);
  // Straight to the profile: leaving the console while it fetches its first tokens could spend a refresh token.
  await page.goto(profileUrl);
  await page.waitForURL(/\/interaction\//);
  await submitSignIn(page, account.username, first.password);
  await expect(page.getByRole('alert')).toHaveText('The username or password is incorrect.');
  await submitSignIn(page, account.username, changed.password);
  await expect(page).toHaveURL(profileUrl);
  await expect(rowValue(page, 'Name')).toHaveText('Ada Lovelace');
  account.password = changed.password;
});

test('speaks Arabic right to left, in dark mode too', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('gatehouse:language', 'ar'));
  await openSignedInAt(page, profileUrl, account.username, account.password);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'إعدادات الحساب' })).toBeVisible();
  await expect(rowValue(page, 'الاسم')).toHaveText('Ada Lovelace');
  await expect(page.getByRole('button', { name: 'تغيير كلمة المرور' })).toBeVisible();
  await context.close();
});
