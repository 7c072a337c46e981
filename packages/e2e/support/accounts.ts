import { expect, type Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { waitForCode } from './mail.ts';
import { submitSignIn } from './session.ts';

/**
 * A console account on a fresh server, signed in afterwards: in OSS the welcome page creates the first admin; in
 * cloud anyone signs up from the sign-in page.
 */
export async function createAccount(page: Page, serverUrl: string, username: string, password: string) {
  if (edition === 'oss') {
    await page.goto(`${serverUrl}/console/welcome`);
    await page.getByRole('button', { name: 'Create the first account' }).click();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create account and sign in' }).click();
  } else {
    await page.goto(`${serverUrl}/console/profile`);
    await page.waitForURL(/\/interaction\//);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
  }
  await page.waitForURL((url) => url.pathname.startsWith('/console') && !url.pathname.endsWith('/callback'));
}

/** Opens `url` (a console page) and signs in on the issuer's page; ends on that page. */
export async function openSignedInAt(page: Page, url: string, username: string, password: string) {
  await page.goto(url);
  await page.waitForURL(/\/interaction\//);
  await submitSignIn(page, username, password);
  // Password check (Argon2id), code redemption and the 'me' token: seconds on a loaded CI machine, so more than
  // expect's 5 s (the other sign-in helpers wait with waitForURL, bounded by the test's timeout).
  await expect(page).toHaveURL(url, { timeout: 20_000 });
}

/**
 * The sign-up's 'Verify your email' page, which a console account typing an email meets when the server can send mail
 * (issue 39 item 6): the code mailed to `email` (its `count`-th code mail), then on to the console.
 */
export async function enterSignUpCode(page: Page, email: string, count = 1) {
  await expect(page.getByRole('heading', { level: 1, name: 'Verify your email' })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Verification code').fill(await waitForCode(email, count));
  await page.getByRole('button', { name: 'Continue' }).click();
}
