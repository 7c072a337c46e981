import { expect, type Locator, type Page } from '@playwright/test';

/** The spec's sidebar (§2.3) in order: the shell may show fewer items, never another order. */
export const specSidebarOrder = [
  'get_started',
  'dashboard',
  'applications',
  'sign_in_experience',
  'mfa',
  'security',
  'connectors',
  'enterprise_sso',
  'api_resources',
  'roles',
  'organization_template',
  'organizations',
  'users',
  'signing_keys',
  'customize_jwt',
  'webhooks',
  'audit_logs',
  'tenant_settings',
] as const;

/** The shell's one navigation landmark; found by role alone, as its name changes with the language. */
export function sidebar(page: Page): Locator {
  return page.getByRole('navigation');
}

/** The sidebar's internal items, by key, in the order shown. */
export async function sidebarItemKeys(page: Page): Promise<string[]> {
  const links = sidebar(page).locator('[data-sidebar-item]');
  await expect(links.first()).toBeVisible();
  return links.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-sidebar-item') ?? ''));
}

export function userMenuButton(page: Page): Locator {
  return page.getByRole('button', { name: /^(Account menu|Kontomenü|قائمة الحساب)$/ });
}

/** Opens the user menu and a submenu with the keyboard, as a keyboard user would. */
export async function openUserSubmenu(page: Page, name: string | RegExp): Promise<void> {
  await userMenuButton(page).focus();
  await page.keyboard.press('ArrowDown');
  await page.getByRole('menuitem', { name }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu', { name })).toBeVisible();
}

/** Picks a language from the user menu and waits until the page uses it. */
export async function chooseLanguage(page: Page, menuLabel: string | RegExp, language: string, tag: string) {
  await openUserSubmenu(page, menuLabel);
  await page.getByRole('menuitemradio', { name: language }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', tag);
  await expect(page.getByRole('menu')).toHaveCount(0);
}

export async function chooseAppearance(page: Page, mode: 'Sync with system' | 'Light' | 'Dark') {
  await openUserSubmenu(page, 'Appearance');
  await page.getByRole('menuitemradio', { name: mode }).click();
  await expect(page.getByRole('menu')).toHaveCount(0);
}

/**
 * Waits until the shell shows its account and no token is being redeemed. A reload in the middle of a token refresh
 * would lose the rotated refresh token, which is a real race but not what these tests are about. The console redeems
 * tokens one at a time under the Web Lock `gatehouse-token-refresh` (console src/auth/session.ts), so the lock says
 * exactly when one is in flight; waiting for the network to be quiet cost half a second each time (issue 36).
 */
export async function waitForShell(page: Page): Promise<void> {
  await expect(userMenuButton(page)).toBeVisible();
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const { held = [], pending = [] } = await navigator.locks.query();
          return [...held, ...pending].filter((lock) => lock.name === 'gatehouse-token-refresh').length;
        }),
      { message: 'no token refresh in flight' },
    )
    .toBe(0);
}
