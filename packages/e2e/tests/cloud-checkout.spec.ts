import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { createAccount } from '../support/accounts.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { sessionToken } from '../support/management-api.ts';
import { chooseLanguage, waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * Issue 9, the console side of checkout: the plan picker a Production tenant opens, the sandbox provider's page, and
 * the checkout-success callback page (success, timeout, forged state, cancel). One account and one tab for the whole
 * file: the console session lives in the tab's session storage, like the stored checkout copy.
 */
test.skip(edition !== 'cloud', 'Plans and checkout exist only in the cloud edition (EDITION=cloud).');

const password = 'cloud-checkout-horse-1';
const screenshotDir = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/pw-checkout';
const storageKey = 'gatehouse:checkout-session';
const pickerTitle = 'Choose a plan for your production tenant';

/** Arabic strings of the create modal and the picker, read from the console's own locale files. */
function arabic(namespace: string): Record<string, Record<string, string>> {
  const file = join(import.meta.dirname, '..', '..', 'console', 'src', 'i18n', 'locales', 'ar', `${namespace}.json`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

const switcher = (page: Page) => page.getByTestId('tenant-switcher');
const picker = (page: Page) => page.getByRole('dialog', { name: pickerTitle });
const planCard = (page: Page, id: 'Free' | 'Pro202411'): Locator => picker(page).getByTestId(`plan-${id}`);

/** Switcher → create tenant → a Production tenant's name → the plan picker. */
async function openPlanPicker(page: Page, name: string) {
  await switcher(page).click();
  await page.getByRole('button', { name: 'Create tenant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create tenant' });
  await dialog.getByLabel('Tenant name').fill(name);
  await dialog.getByRole('radio', { name: /Production/ }).check();
  await dialog.getByRole('button', { name: 'Create tenant' }).click();
  await expect(picker(page)).toBeVisible();
}

/** Chooses Pro in the picker and waits for the sandbox provider's page. */
async function startProCheckout(page: Page, name: string) {
  await openPlanPicker(page, name);
  await planCard(page, 'Pro202411').getByRole('button', { name: 'Select Pro' }).click();
  await page.waitForURL(/\/sandbox-payments\/checkout\/[^/]+$/);
}

async function tenantNames(page: Page): Promise<string[]> {
  const token = await sessionToken(page);
  const response = await page.request.get('/api/tenants', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { name: string }[]).map((tenant) => tenant.name);
}

test.describe('cloud checkout', () => {
  test.describe.configure({ mode: 'serial' });
  let page: Page;
  let browserRef: Browser;

  test.beforeAll(async ({ browser }, testInfo) => {
    test.setTimeout(90_000);
    browserRef = browser;
    const baseURL = testInfo.project.use.baseURL ?? '';
    page = await (await browserRef.newContext({ baseURL })).newPage();
    await createAccount(page, baseURL, `buyer_${Date.now().toString(36)}`, password);
    // A first (development) tenant through onboarding, so the shell and its switcher show.
    await page.goto('/console');
    await page.waitForURL(/\/console\/onboarding\/create-tenant$/);
    await page.getByLabel('Tenant name').fill('Buyer dev');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/console\/(?!onboarding)[0-9a-z]+\/get-started$/);
    await waitForShell(page);
  });

  test.afterAll(async () => {
    await page?.context().close();
  });

  test('Production offers Free and Pro; paying for Pro creates the tenant on Pro and moves into it', async () => {
    test.setTimeout(60_000);
    await openPlanPicker(page, 'Buyer prod');
    // Spec §2.9/§9: Free then Pro, each with its monthly price; Pro is the most popular, with all its features a
    // link away (a new tab).
    await expect(
      picker(page)
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading') }),
    ).toHaveCount(2);
    await expect(planCard(page, 'Free').getByRole('heading', { name: 'Free' })).toBeVisible();
    await expect(planCard(page, 'Free')).toContainText('$0.00');
    await expect(planCard(page, 'Free')).toContainText('Monthly active users: \u206850,000\u2069');
    await expect(planCard(page, 'Free')).not.toContainText('Most popular');
    await expect(planCard(page, 'Free').getByRole('link')).toHaveCount(0);
    await expect(planCard(page, 'Pro202411').getByRole('heading', { name: 'Pro' })).toBeVisible();
    await expect(planCard(page, 'Pro202411')).toContainText('$16.00');
    await expect(planCard(page, 'Pro202411')).toContainText('Most popular');
    await expect(planCard(page, 'Pro202411')).toContainText('Multi-factor authentication');
    // "View all features" links to the operator's pricing page (VITE_PRICING_URL), unset in the default build.
    await expect(planCard(page, 'Pro202411').getByRole('link', { name: /View all features/ })).toHaveCount(0);
    await expectNoSeriousViolations(page, 'plan picker (light)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expectNoSeriousViolations(page, 'plan picker (dark)');
    await page.emulateMedia({ colorScheme: 'light' });

    // Closing the picker returns to the create modal with its fields kept.
    await page.keyboard.press('Escape');
    const createDialog = page.getByRole('dialog', { name: 'Create tenant' });
    await expect(createDialog.getByLabel('Tenant name')).toHaveValue('Buyer prod');
    await createDialog.getByRole('button', { name: 'Create tenant' }).click();

    await planCard(page, 'Pro202411').getByRole('button', { name: 'Select Pro' }).click();
    await page.waitForURL(/\/sandbox-payments\/checkout\/[^/]+$/, { timeout: 10_000 });
    const stored = await page.evaluate((key) => sessionStorage.getItem(key), storageKey);
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ state: expect.stringMatching(/^[A-Za-z0-9]{6}$/) });
    await page.getByRole('button', { name: 'Pay' }).click();

    // Back on the console: the success toast names the plan, the new tenant is the current one, on Pro.
    await expect(page.getByText('Plan upgraded to “Pro”.')).toBeVisible({ timeout: 15_000 });
    await page.waitForURL(/\/console\/[0-9a-z]+\/[a-z-]+$/);
    await waitForShell(page);
    await expect(switcher(page)).toContainText('Buyer prod');
    await expect(switcher(page)).toContainText('Production');
    await switcher(page).click();
    const tenantId = new URL(page.url()).pathname.split('/')[2] ?? '';
    await expect(page.getByTestId(`tenant-${tenantId}`)).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId(`tenant-${tenantId}`)).toContainText('Pro');
    await page.keyboard.press('Escape');
    expect(await page.evaluate((key) => sessionStorage.getItem(key), storageKey)).toBeNull();
  });

  test('an unpaid checkout ends with the subscription check timeout, back at the root', async () => {
    await startProCheckout(page, 'Unpaid prod');
    const stored = JSON.parse((await page.evaluate((key) => sessionStorage.getItem(key), storageKey)) ?? '{}');
    // Spec §9: the 10-second timer, not an early give-up. The page's clock is moved instead of waiting ten seconds
    // (issue 36); the polls still go to the server, one a second of the page's time.
    await page.clock.install();
    // The ten seconds start with the first poll (console src/cloud/checkout/watch-checkout.ts sets its timer first).
    const firstPoll = page.waitForRequest(/\/api\/checkout-session\//);
    await page.goto(`/console/checkout-success-callback?state=${stored.state}`);
    await firstPoll;
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeVisible();
    await page.clock.runFor(9_000);
    await expect(page.getByRole('status').filter({ hasText: 'Loading' }), 'still checking at 9 s').toBeVisible();
    await expect(page.getByText(/^Subscription check timed out\./)).toHaveCount(0);
    await page.clock.runFor(1_500);
    await expect(page.getByText(/^Subscription check timed out\./)).toBeVisible();
    await expect(page).not.toHaveURL(/checkout-success-callback/);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), storageKey)).toBeNull();
    expect(await tenantNames(page)).not.toContain('Unpaid prod');
  });

  test('a forged state goes to the root without a toast and leaves the stored checkout alone', async () => {
    const genuine = JSON.stringify({ state: 'Genuin', sessionId: 'cs_genuine' });
    await page.evaluate(([key, value]) => sessionStorage.setItem(key, value), [storageKey, genuine] as const);
    await page.goto('/console/checkout-success-callback?state=Forged');
    await page.waitForURL((url) => !url.pathname.endsWith('/checkout-success-callback'));
    await waitForShell(page);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByText(/Successfully|Subscription check/)).toHaveCount(0);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), storageKey)).toBe(genuine);
    await page.evaluate((key) => sessionStorage.removeItem(key), storageKey);
  });

  test('cancelling on the provider page comes back without a tenant; Free creates one at once', async () => {
    test.setTimeout(45_000);
    await startProCheckout(page, 'Cancelled prod');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/console/') && !url.pathname.includes('checkout'), {
      timeout: 15_000,
    });
    await waitForShell(page);
    await expect(page.getByText(/^Plan upgraded to/)).toHaveCount(0);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), storageKey)).toBeNull();
    expect(await tenantNames(page)).not.toContain('Cancelled prod');

    // Free: no checkout, the tenant is created and opened straight away.
    await openPlanPicker(page, 'Free prod');
    await planCard(page, 'Free').getByRole('button', { name: 'Select Free' }).click();
    await expect(page.getByText('Tenant “Free prod” created.')).toBeVisible();
    await expect(switcher(page)).toContainText('Free prod');
    expect(await tenantNames(page)).toContain('Free prod');
  });

  test('the plan picker in Arabic', async () => {
    const tenants = arabic('tenants');
    const plans = arabic('plans');
    await chooseLanguage(page, 'Language', 'العربية', 'ar');
    await switcher(page).click();
    await page.getByRole('button', { name: tenants.switcher?.create }).click();
    const dialog = page.getByRole('dialog', { name: tenants.create?.title });
    await dialog.getByLabel(tenants.create?.name ?? '').fill('مشروع الإنتاج');
    await dialog.getByRole('radio', { name: new RegExp(tenants.create?.production_title ?? '') }).check();
    await dialog.getByRole('button', { name: tenants.create?.submit }).click();
    const arabicPicker = page.getByRole('dialog', { name: plans.picker?.title });
    await expect(arabicPicker).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(arabicPicker).toContainText(plans.picker?.most_popular ?? '');
    await expectNoSeriousViolations(page, 'plan picker (ar)');
    await page.screenshot({ path: `${screenshotDir}/plan-picker-ar.png` });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await chooseLanguage(page, 'اللغة', 'English', 'en');
  });
});
