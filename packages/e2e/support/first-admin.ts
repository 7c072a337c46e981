import { expect, type Page } from '@playwright/test';
import { submitSignIn } from './session.ts';

/** First run on a fresh server: the welcome page creates the first admin, who ends up signed in. */
export async function createFirstAdmin(page: Page, serverUrl: string, username: string, password: string) {
  await page.goto(`${serverUrl}/console/welcome`);
  await page.getByRole('button', { name: 'Create the first account' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create account and sign in' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/console') && !url.pathname.endsWith('/callback'));
}

/** Opens `url` (a console page) and signs in on the issuer's page; ends on that page. */
export async function openSignedInAt(page: Page, url: string, username: string, password: string) {
  await page.goto(url);
  await page.waitForURL(/\/interaction\//);
  await submitSignIn(page, username, password);
  await expect(page).toHaveURL(url);
}
