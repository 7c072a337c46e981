import { adminCredentials, edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { startFreshServer } from '../support/server.ts';
import { submitSignIn } from '../support/session.ts';
import { userMenuButton, waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

test.describe('signing in to the console', () => {
  test('a wrong password shows the error and keeps the user on the sign-in page', async ({ page }) => {
    await page.goto(consolePath('get-started'));
    await page.waitForURL(/\/interaction\//);
    await submitSignIn(page, adminCredentials.username, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('The username or password is incorrect.');
    await expect(page.getByLabel('Username or email')).toHaveValue(adminCredentials.username);

    await page.getByLabel('Password').fill(adminCredentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectHeading(page, 'Get started');
  });

  test('repeated failures lock the identifier and say for how long', async ({ page }) => {
    await page.goto(consolePath('get-started'));
    await page.waitForURL(/\/interaction\//);
    for (let attempt = 0; attempt < 5; attempt++) {
      await submitSignIn(page, 'lockout_target', `wrong-${attempt}`);
      await expect(page.getByRole('alert')).toHaveText('The username or password is incorrect.');
    }
    await submitSignIn(page, 'lockout_target', 'wrong-again');
    await expect(page.getByRole('alert')).toHaveText(/Too many failed attempts\. Try again in 1[45] minutes\./);
    // The lock is per identifier: the admin still signs in.
    await submitSignIn(page, adminCredentials.username, adminCredentials.password);
    await expectHeading(page, 'Get started');
  });

  test('an empty form is refused with a message', async ({ page }) => {
    await page.goto(consolePath());
    await page.waitForURL(/\/interaction\//);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Enter your username or email and your password.');
  });
});

test.describe('first run', () => {
  test('welcome creates the first admin, who lands in the console signed in', async ({ page }) => {
    test.skip(edition === 'cloud', 'the cloud edition has sign-up instead of a first-run welcome');
    const server = await startFreshServer();
    try {
      await page.goto(`${server.url}${consolePath('get-started')}`);
      await expect(page).toHaveURL(`${server.url}/console/welcome`);
      await expectHeading(page, 'Welcome to Gatehouse');
      await page.getByRole('button', { name: 'Create the first account' }).click();

      await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Gatehouse' })).toBeVisible();
      const password = page.getByLabel('Password', { exact: true });
      const confirm = page.getByLabel('Confirm password');
      await page.getByLabel('Username').fill('first_admin');
      // Issue 40 item 16: a short password is refused at the password field, and nothing typed is lost.
      await password.fill('short');
      await confirm.fill('short');
      await page.getByRole('button', { name: 'Create account and sign in' }).click();
      await expect(page.getByRole('alert')).toHaveText('Use at least 8 characters.');
      await expect(password).toHaveAccessibleDescription('Use at least 8 characters.');
      await expect(password).toBeFocused();
      await expect(page.getByLabel('Username')).toHaveValue('first_admin');
      await expect(password).toHaveValue('short');
      await expect(confirm).toHaveValue('short');

      await password.fill('correct-horse-1');
      await confirm.fill('correct-horse-2');
      await page.getByRole('button', { name: 'Create account and sign in' }).click();
      await expect(page.getByRole('alert')).toHaveText('The passwords do not match.');
      await expect(confirm).toHaveAccessibleDescription('The passwords do not match.');

      await page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
      await page.getByLabel('Confirm password').fill('correct-horse-1');
      await page.getByRole('button', { name: 'Create account and sign in' }).click();
      await expect(page).toHaveURL(`${server.url}${consolePath('get-started')}`);
      await expectHeading(page, 'Get started');

      // With an admin, welcome has nothing to offer any more.
      await page.goto(`${server.url}/console/welcome`);
      await expect(page).not.toHaveURL(/\/welcome$/);

      // Sign out ends the provider's session too: the next visit asks for the password again. First the console's
      // first requests (the account, its 'me' token) must end: a sign-out racing them can stall (seen once in CI).
      await waitForShell(page);
      await userMenuButton(page).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(/\/interaction\//);

      // A deep link (path, query and hash) survives the sign-in.
      const deepLink = `${consolePath('does-not-exist')}?tab=2#part`;
      await page.goto(`${server.url}${deepLink}`);
      await page.waitForURL(/\/interaction\//);
      await submitSignIn(page, 'first_admin', 'correct-horse-1');
      await expect(page).toHaveURL(`${server.url}${deepLink}`);
      await expectHeading(page, 'Page not found');
    } finally {
      await server.stop();
    }
  });
});
