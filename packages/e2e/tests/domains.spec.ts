import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { seriousViolations } from '../support/axe.ts';
import { consolePath } from '../support/console.ts';
import { openSignedIn } from '../support/session.ts';
import { chooseAppearance, chooseLanguage, waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the test then saves what it saw there.
async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/domains-${name}.png`, fullPage: true });
}

/**
 * Spec §2.2 tenant-settings 'domains' against the real server. Its DNS checks use the system resolver here (no
 * DNS_SERVERS in the e2e server), where `.example` names never resolve: the domain stays Pending verification
 * (or, without a reachable resolver, keeps its status with a DNS failure message). The state machine itself is
 * covered by the server tests with a local DNS server.
 */
test.describe('tenant custom domain (cloud)', () => {
  test.skip(edition !== 'cloud', 'Tenant settings exist in the cloud edition only (spec §2.2).');

  test('add a domain (validation, Enter), see its records and status, delete it after confirming', async ({ page }) => {
    test.slow();
    await openSignedIn(page, consolePath('tenant-settings/domains'));
    await waitForShell(page);
    await expect(
      page.getByRole('navigation', { name: 'Tenant settings sections' }).getByRole('link', { name: 'Domains' }),
    ).toHaveAttribute('aria-current', 'page', { timeout: 20_000 });
    const field = page.getByRole('textbox', { name: 'Domain' });
    await expect(field).toBeVisible();
    await snap(page, 'empty');

    await field.fill('https://auth.acme.example');
    await field.blur();
    await expect(page.getByText(/Enter only the host name/)).toBeVisible();
    // Valid syntax, refused by the server (an IP address): the reason shows under the field.
    await field.fill('10.0.0.1');
    await field.press('Enter');
    await expect(page.getByText(/This domain cannot be used/)).toBeVisible();
    await field.fill('Auth.ACME.example');
    await field.press('Enter');

    await expect(page.getByTestId('domain-name')).toHaveText('auth.acme.example', { timeout: 20_000 });
    await expect(page.getByTestId('domain-status')).toContainText(/Pending verification|Error/);
    const records = page.getByRole('table', { name: 'DNS records' });
    // The e2e server's PUBLIC_URL is an IP address, so routing is an A record to it rather than a CNAME.
    const routing = records.getByRole('row').filter({ has: page.locator('code', { hasText: /^A$/ }) });
    await expect(routing).toContainText('auth.acme.example');
    await expect(routing).toContainText('127.0.0.1');
    await expect(records.getByRole('row', { name: /TXT/ })).toContainText('_gatehouse-challenge.auth.acme.example');
    await expect(records.getByRole('button', { name: 'Copy the value of the TXT record' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Check now' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, 'pending-light-en');

    try {
      await chooseAppearance(page, 'Dark');
      expect(await seriousViolations(page)).toEqual([]);
      await snap(page, 'pending-dark-en');
      await chooseLanguage(page, 'Language', 'العربية', 'ar');
      await expect(page.getByRole('table', { name: 'سجلات DNS' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await snap(page, 'pending-dark-ar');
    } finally {
      if ((await page.locator('html').getAttribute('lang')) === 'ar')
        await chooseLanguage(page, 'اللغة', 'English', 'en');
      await chooseAppearance(page, 'Sync with system');
    }

    await page.getByRole('button', { name: 'Delete domain' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete the custom domain?' });
    await dialog.getByRole('button', { name: 'Delete domain' }).click();
    await expect(page.getByRole('textbox', { name: 'Domain' })).toBeVisible();
  });
});
