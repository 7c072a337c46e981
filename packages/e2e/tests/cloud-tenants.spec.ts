import type { Page } from '@playwright/test';
import { adminCredentials, edition } from '../playwright.config.ts';
import { createAccount } from '../support/accounts.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { sessionToken } from '../support/management-api.ts';
import { submitSignIn } from '../support/session.ts';
import { chooseAppearance, chooseLanguage, waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * Issue 8, the cloud console core: a new account's onboarding, the create-tenant modal and the switcher, and the
 * invitation acceptance page's error screens. Everything here exists only in the cloud edition.
 */
test.skip(edition !== 'cloud', 'Tenants, onboarding and invitations exist only in the cloud edition (EDITION=cloud).');

const password = 'cloud-tenants-horse-1';
const screenshotDir = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/pw-cloudcore';

const switcher = (page: Page) => page.getByTestId('tenant-switcher');

test.describe('cloud tenants', () => {
  test.describe.configure({ mode: 'serial' });
  const username = `owner_${Date.now().toString(36)}`;
  let firstTenantId = '';

  test('a new account onboards, creates tenants from the switcher and switches between them', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await createAccount(page, baseURL ?? '', username, password);

    // Spec §2.4: onboarding is not done, so the signed-in index sends the account there.
    await page.goto('/console');
    await page.waitForURL(/\/console\/onboarding\/create-tenant$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Create your first tenant' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect(page.getByLabel('Tenant name')).toHaveAttribute('placeholder', 'My project');
    await expectNoSeriousViolations(page, 'onboarding');
    // Forced light: a dark system preference does not change it.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expectNoSeriousViolations(page, 'onboarding (dark system)');
    await page.emulateMedia({ colorScheme: 'light' });

    const invitationBodies: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/tenants\/[^/]+\/invitations$/.test(new URL(request.url()).pathname)) {
        invitationBodies.push(request.postDataJSON());
      }
    });

    await page.getByLabel('Tenant name').fill('Acme dev');
    await page.getByRole('radio', { name: 'West US' }).check();
    const emails = page.getByLabel('Invite collaborators');
    await emails.fill('not-an-email');
    await emails.press('Space');
    await expect(page.getByText('Not a valid email address: not-an-email')).toBeVisible();
    await emails.fill('friend@example.com');
    await emails.press('Enter');
    await expect(page.getByText('friend@example.com', { exact: true })).toBeVisible();
    await page.screenshot({ path: `${screenshotDir}/onboarding.png`, fullPage: true });
    await page.getByRole('button', { name: 'Create', exact: true }).click();

    await page.waitForURL(/\/console\/(?!onboarding)[0-9a-z]+\/get-started$/);
    firstTenantId = new URL(page.url()).pathname.split('/')[2] ?? '';
    await waitForShell(page);
    await expect(switcher(page)).toContainText('Acme dev');
    await expect(switcher(page)).toContainText('Development');
    // Only the valid chip was sent, as a collaborator.
    expect(invitationBodies).toEqual([{ invitee: ['friend@example.com'], roleName: 'collaborator' }]);

    // Onboarding done: it sends the account back to its tenant.
    await page.goto('/console/onboarding');
    await page.waitForURL(new RegExp(`/console/${firstTenantId}/get-started$`));

    // A second tenant from the switcher's create modal.
    await switcher(page).click();
    await expectNoSeriousViolations(page, 'switcher (light)');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create tenant' });
    await dialog.getByRole('button', { name: 'Create tenant' }).click();
    await expect(dialog.getByText('Enter a tenant name.')).toBeVisible();
    await dialog.getByLabel('Tenant name').fill('Second dev');
    await expect(dialog.getByRole('radio', { name: /Development/ })).toBeChecked();
    await dialog.getByRole('button', { name: 'Create tenant' }).click();
    await expect(page.getByText('Tenant “Second dev” created.')).toBeVisible();
    await expect(switcher(page)).toContainText('Second dev');
    const secondTenantId = new URL(page.url()).pathname.split('/')[2] ?? '';
    expect(secondTenantId).not.toBe(firstTenantId);

    // Switching back with the keyboard: the panel lists both, the current one checked.
    await switcher(page).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(`tenant-${secondTenantId}`)).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Escape');
    await expect(switcher(page)).toBeFocused();
    // Opening a tenant saves it as the default (the account's custom data); '/' below reads what was saved.
    const savedDefault = page.waitForResponse(
      (response) =>
        response.request().method() === 'PATCH' &&
        response.url().endsWith('/api/me/custom-data') &&
        (response.request().postData() ?? '').includes(`"defaultTenantId":"${firstTenantId}"`),
    );
    await switcher(page).click();
    await page.getByTestId(`tenant-${firstTenantId}`).click();
    await page.waitForURL(new RegExp(`/console/${firstTenantId}/`));
    await expect(switcher(page)).toContainText('Acme dev');
    expect((await savedDefault).ok()).toBe(true);

    // The opened tenant became the default one: '/' goes there.
    await page.goto('/console');
    await page.waitForURL(new RegExp(`/console/${firstTenantId}/get-started$`));
    await waitForShell(page);

    // Issue 26: deleting a tenant lands on another one; nothing of the deleted tenant is read again (no error toast).
    await page.goto(`/console/${secondTenantId}/tenant-settings/settings`);
    await waitForShell(page);
    await page.getByRole('button', { name: 'Delete tenant' }).click();
    const deleteDialog = page.getByRole('alertdialog', { name: 'Delete this tenant?' });
    await deleteDialog.getByLabel('Type Second dev to confirm').fill('Second dev');
    const readsAfterDelete: string[] = [];
    const deleted = page.waitForResponse(
      (response) =>
        response.request().method() === 'DELETE' && response.url().endsWith(`/api/tenants/${secondTenantId}`),
    );
    page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().includes(secondTenantId)) readsAfterDelete.push(request.url());
    });
    await deleteDialog.getByRole('button', { name: 'Delete tenant' }).click();
    expect((await deleted).status()).toBe(204);
    await page.waitForURL(new RegExp(`/console/${firstTenantId}/`));
    await expect(page.getByRole('status').filter({ hasText: 'Tenant “Second dev” deleted.' })).toBeVisible();
    await expect(switcher(page)).toContainText('Acme dev');
    await waitForShell(page);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(readsAfterDelete).toEqual([]);

    await chooseAppearance(page, 'Dark');
    await switcher(page).click();
    await expectNoSeriousViolations(page, 'switcher (dark)');
    await page.keyboard.press('Escape');
    await chooseAppearance(page, 'Light');

    await chooseLanguage(page, 'Language', 'العربية', 'ar');
    await switcher(page).click();
    await page.screenshot({ path: `${screenshotDir}/switcher-ar.png` });
    await page.keyboard.press('Escape');
  });

  test('the invitation page: not found, and the mismatch screen for another account', async ({ page, browser }) => {
    test.setTimeout(90_000);
    test.skip(!firstTenantId, 'needs the tenant of the first test');
    // The owner signs in again (a fresh page has no session) and invites an address that is not the admin's.
    await page.goto('/console/profile');
    await page.waitForURL(/\/interaction\//);
    await submitSignIn(page, username, password);
    await page.waitForURL(/\/console\/profile/);
    const response = await page.request.post(`/api/tenants/${firstTenantId}/invitations`, {
      headers: { Authorization: `Bearer ${await sessionToken(page)}` },
      data: { invitee: ['invitee-elsewhere@example.com'], roleName: 'collaborator' },
    });
    expect(response.status(), await response.text()).toBe(201);
    const [invitation] = (await response.json()) as { id: string }[];
    expect(invitation?.id).toBeTruthy();

    // Another browser context: the e2e admin opens the link; the sign-up screen comes first (spec §2.4).
    const other = await browser.newContext();
    try {
      const admin = await other.newPage();
      await admin.goto(`/console/accept/${invitation?.id}`);
      await admin.waitForURL(/\/interaction\//);
      await admin.getByRole('link', { name: 'I already have an account' }).click();
      await submitSignIn(admin, adminCredentials.username, adminCredentials.password);
      await admin.waitForURL(new RegExp(`/console/accept/${invitation?.id}$`));
      await expect(admin.getByRole('heading', { level: 1, name: 'Your account email does not match' })).toBeVisible();
      await expect(admin.getByTestId('current-account')).toContainText(/\S/);
      await expect(admin.getByRole('button', { name: 'Switch account' })).toBeVisible();
      await expectNoSeriousViolations(admin, 'invitation mismatch');

      await admin.goto('/console/accept/no-such-invitation');
      await expect(admin.getByRole('heading', { level: 1, name: 'Invitation not found' })).toBeVisible();
    } finally {
      await other.close();
    }
  });
});
