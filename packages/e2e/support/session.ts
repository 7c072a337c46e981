import { expect, type Page } from '@playwright/test';
import { adminCredentials } from '../playwright.config.ts';

/** On the issuer's sign-in page: types the credentials and submits, as a user would. */
export async function submitSignIn(page: Page, username: string, password: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Gatehouse' })).toBeVisible();
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens a console path and signs in as the e2e admin when asked to; ends on that path. */
export async function openSignedIn(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForURL(/\/interaction\//);
  await submitSignIn(page, adminCredentials.username, adminCredentials.password);
  await page.waitForURL((url) => url.pathname.startsWith('/console') && !url.pathname.endsWith('/callback'));
}
