import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { expectNoSeriousViolations, seriousViolations } from '../support/axe.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * The console's security page: the lockout (`sentinelPolicy`) and the email blocklist (`emailBlocklistPolicy`) of the
 * sign-in experience, saved from the page and read back through the API. What the server does with them (locking an
 * account, refusing an address at sign-up) is the server tests'. The default tenant's settings are put back after:
 * other specs sign in there.
 */
const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the test then saves what it saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-security-${name}.png`, fullPage: true });
}

type Settings = {
  sentinelPolicy: { maxAttempts?: number; lockoutDuration?: number };
  emailBlocklistPolicy: {
    blockDisposableAddresses?: boolean;
    blockSubaddressing?: boolean;
    customBlocklist?: string[];
    customAllowlist?: string[];
  };
};

const colours = { rules: ['color-contrast', 'link-in-text-block'] };

test('security: the lockout and the email blocklist are saved from the console; a malformed line is refused', async ({
  page,
}) => {
  test.slow(); // Three saves, reloads and axe runs on a shared two-core machine.
  await openSignedIn(page, consolePath('security'));
  await waitForShell(page);
  await expectHeading(page, 'Security');
  const api = await managementApiAs(page);
  const original = await api.get<Settings>('/sign-in-exp');
  const attempts = page.getByRole('spinbutton', { name: /^Failed attempts before lockout/ });
  const duration = page.getByRole('spinbutton', { name: /^Lockout duration \(minutes\)/ });
  const disposable = page.getByRole('switch', { name: /^Block disposable email addresses/ });
  const blocklist = page.getByRole('textbox', { name: /^Custom blocklist/ });
  const allowlist = page.getByRole('textbox', { name: /^Allowlist/ });
  const save = page.getByRole('button', { name: 'Save changes' });
  const saved = page.getByRole('status').filter({ hasText: 'Security settings saved.' });
  const saveBar = page.getByRole('region', { name: 'Unsaved changes' });
  try {
    // Start from the defaults: no lockout set, no list, no switch on.
    await api.patch('/sign-in-exp', { sentinelPolicy: {}, emailBlocklistPolicy: {} });
    await page.reload();
    await expect(attempts, 'an unset lockout shows the default').toHaveValue('5');
    await expect(duration).toHaveValue('15');
    await expect(page.getByText(/counted per account/)).toBeVisible();
    await expect(page.getByText(/The allowlist wins over every other rule/)).toBeVisible();

    // Three failed attempts lock an account: saved, kept after a reload, and what the API answers.
    await attempts.fill('3');
    await save.click();
    await expect(saved).toBeVisible();
    await expect(saveBar).toHaveCount(0);
    await page.reload();
    await expect(attempts).toHaveValue('3');
    await expect(duration).toHaveValue('15');
    expect((await api.get<Settings>('/sign-in-exp')).sentinelPolicy).toEqual({ maxAttempts: 3, lockoutDuration: 15 });

    // Disposable addresses blocked, mailinator's domain listed, one of its addresses allowed; entries are trimmed.
    await disposable.check();
    await blocklist.fill('@mailinator.com\n\n   mailinator.net  \nspammer@example.com');
    await allowlist.fill('boss@mailinator.com');
    await save.click();
    await expect(saved).toBeVisible();
    await expect(saveBar).toHaveCount(0);
    await page.reload();
    await expect(disposable).toBeChecked();
    await expect(blocklist).toHaveValue('@mailinator.com\nmailinator.net\nspammer@example.com');
    await expect(allowlist).toHaveValue('boss@mailinator.com');
    expect((await api.get<Settings>('/sign-in-exp')).emailBlocklistPolicy).toEqual({
      blockDisposableAddresses: true,
      blockSubaddressing: false,
      customBlocklist: ['@mailinator.com', 'mailinator.net', 'spammer@example.com'],
      customAllowlist: ['boss@mailinator.com'],
    });
    await snap(page, 'saved');

    // A malformed line: its message names the line, the field says so, and nothing is sent.
    let patches = 0;
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/sign-in-exp')) patches += 1;
    });
    await blocklist.fill('@mailinator.com\nnot a domain');
    await save.click();
    const message = 'Line 2: “not a domain” is not an address, an @domain or a domain.';
    await expect(page.getByTestId('emailBlocklistPolicy.customBlocklist-error')).toHaveText(message);
    await expect(blocklist).toHaveAttribute('aria-invalid', 'true');
    await expect(blocklist).toHaveAccessibleDescription(new RegExp(message));
    await expect(blocklist).toBeFocused();
    await snap(page, 'malformed-line');

    // The page with its error, in light (every rule) and in dark (the colours).
    await expectNoSeriousViolations(page, 'security page with an error, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page, colours), 'security page with an error, dark').toEqual([]);
    await snap(page, 'malformed-line-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    expect(patches, 'nothing was sent').toBe(0);
    expect((await api.get<Settings>('/sign-in-exp')).emailBlocklistPolicy.customBlocklist).toEqual([
      '@mailinator.com',
      'mailinator.net',
      'spammer@example.com',
    ]);
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect(saveBar).toHaveCount(0);
    await expect(blocklist).toHaveValue('@mailinator.com\nmailinator.net\nspammer@example.com');
  } finally {
    await api.patch('/sign-in-exp', {
      sentinelPolicy: original.sentinelPolicy,
      emailBlocklistPolicy: original.emailBlocklistPolicy,
    });
  }
});
