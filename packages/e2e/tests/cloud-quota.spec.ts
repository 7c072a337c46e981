import { expect, type Page, test } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { createAccount } from '../support/accounts.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { sessionToken } from '../support/management-api.ts';
import { chooseAppearance, chooseLanguage, waitForShell } from '../support/shell.ts';

/**
 * Issue 9, quota in the console: a Production tenant on Free holds 3 applications; the 4th is refused by the server
 * (403 subscription.quota_exceeded) and the console shows the quota modal instead of a toast, naming Applications,
 * with an upgrade link to the subscription tab. The overdue notice has no public way to produce an open invoice yet,
 * so the console's unit and component tests cover it (src/cloud/notices).
 */
test.skip(edition !== 'cloud', 'Plans and quotas exist only in the cloud edition (EDITION=cloud).');

const password = 'quota-correct-horse-1';
const suffix = Date.now().toString(36);
const screenshotDir = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/pw-quota';

const quotaModal = (page: Page) => page.getByRole('dialog').filter({ has: page.getByTestId('quota-exceeded-modal') });

async function fillTraditionalApp(page: Page, tenantId: string, name: string) {
  await page.goto(`/console/${tenantId}/applications/create`);
  await expect(page.getByRole('heading', { level: 1, name: 'Create application' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('radio', { name: /^Traditional web app/ }).check();
  await page.getByLabel('Application name').fill(name);
  await page.getByRole('textbox', { name: 'Redirect URI 1' }).fill('https://web.example.com/callback');
}

test('a Free tenant at its application limit: the quota modal instead of a toast, nothing created, upgrade link', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await createAccount(page, baseURL ?? '', `quota_${suffix}`, password);
  await page.goto('/console');
  await page.waitForURL(/\/console\/onboarding\/create-tenant$/);
  await page.getByLabel('Tenant name').fill(`Quota dev ${suffix}`);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.waitForURL(/\/console\/(?!onboarding)[0-9a-z]+\/get-started$/);
  await waitForShell(page);

  // A Production tenant on the Free plan, through the cloud API as the signed-in user.
  const created = await page.request.post('/api/tenants', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: { name: `Quota prod ${suffix}`, tag: 'production' },
  });
  expect(created.ok(), `POST /api/tenants: ${await created.text()}`).toBe(true);
  const tenant = (await created.json()) as { id: string; planId: string };
  expect(tenant.planId, 'a new Production tenant starts on Free').toBe('Free');

  // Two applications through the management API with the console's organization token for that tenant.
  await page.goto(`/console/${tenant.id}/applications`);
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible({ timeout: 20_000 });
  const orgToken = await sessionToken(page, tenant.id);
  for (const name of ['Quota one', 'Quota two']) {
    const response = await page.request.post(`/m/${tenant.id}/api/applications`, {
      headers: { Authorization: `Bearer ${orgToken}` },
      data: { name, type: 'SPA', oidcClientMetadata: { redirectUris: ['https://spa.example.com/callback'] } },
    });
    expect(response.ok(), `POST applications ${name}: ${await response.text()}`).toBe(true);
  }

  // The third through the console; the successful write refreshes quota and usage (GET /api/tenants, spec §4).
  await fillTraditionalApp(page, tenant.id, 'Quota three');
  const refresh = page.waitForRequest((request) => request.method() === 'GET' && /\/api\/tenants$/.test(request.url()));
  await page.getByRole('button', { name: 'Create application' }).click();
  await expect(page.getByText('Application “Quota three” created.')).toBeVisible();
  await refresh;

  // The fourth is refused: the modal names Applications with the usage and the plan; no toast says it instead.
  await fillTraditionalApp(page, tenant.id, 'Quota four');
  await page.getByRole('button', { name: 'Create application' }).click();
  const modal = quotaModal(page);
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('heading', { name: 'Plan limit reached' })).toBeVisible();
  await expect(modal).toContainText('The Free plan does not allow more. Nothing was saved.');
  await expect(modal).toContainText('Applications: 3 of 3 used on the Free plan');
  await expect(page.getByRole('alert').filter({ hasText: 'Exceeded quota limit.' }), 'no error toast').toHaveCount(0);
  await expect(modal.getByRole('link', { name: 'Upgrade plan' })).toBeFocused();
  await expectNoSeriousViolations(page, 'quota modal (light)');
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/${tenant.id}/applications/create$`));

  // Dark: the same refusal again, closed with the close button.
  await chooseAppearance(page, 'Dark');
  await page.getByRole('button', { name: 'Create application' }).click();
  await expect(modal).toBeVisible();
  await expectNoSeriousViolations(page, 'quota modal (dark)');
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toHaveCount(0);
  await chooseAppearance(page, 'Light');

  // Nothing was created by the refusals: the list still shows the three applications.
  await page.goto(`/console/${tenant.id}/applications`);
  const table = page.getByRole('table', { name: 'My applications' });
  await expect(table.getByRole('row').filter({ hasText: /Quota (one|two|three)/ })).toHaveCount(3);
  await expect(table.getByText('Quota four')).toHaveCount(0);

  // Arabic (right to left): the modal in the user's language, then its upgrade link to the subscription tab.
  await fillTraditionalApp(page, tenant.id, 'Quota four');
  await chooseLanguage(page, 'Language', 'العربية', 'ar');
  await page.locator('main button[type="submit"]').click();
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('التطبيقات');
  await page.screenshot({ path: `${screenshotDir}/quota-modal-ar.png` });
  await modal.getByTestId('quota-upgrade').click();
  await expect(page).toHaveURL(new RegExp(`/console/${tenant.id}/tenant-settings/subscription$`));
  await expect(modal).toHaveCount(0);
  await expect(
    page.locator('a[aria-current="page"][href$="/tenant-settings/subscription"]'),
    'the tab is open',
  ).toBeVisible({
    timeout: 20_000,
  });

  // And the server agrees: exactly these three.
  const list = await page.request.get(`/m/${tenant.id}/api/applications?page=1&page_size=20`, {
    headers: { Authorization: `Bearer ${await sessionToken(page, tenant.id)}` },
  });
  const names = ((await list.json()) as { name: string }[]).map((app) => app.name).sort();
  expect(names, 'the applications of the tenant').toEqual(['Quota one', 'Quota three', 'Quota two']);
});
