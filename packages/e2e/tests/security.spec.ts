import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { expectNoSeriousViolations, seriousViolations } from '../support/axe.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import {
  consoleManagementToken,
  type ManagementApi,
  managementApiAs,
  managementApiPath,
} from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * The console's security page: the lockout (`sentinelPolicy`), the email blocklist (`emailBlocklistPolicy`) and the
 * captcha switch (`captchaPolicy`) of the sign-in experience with the captcha provider (`/captcha-provider`), saved from
 * the page and read back through the API. What the server does with them (locking an account, refusing an address at
 * sign-up, checking a captcha) is the server tests' and the sign-in pages' specs'. The default tenant's settings are
 * put back after: other specs sign in there.
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

type CaptchaProvider = { config: Record<string, unknown>; createdAt: number; updatedAt: number };

/** Whether a captcha provider is set: GET answers 404 when none is (the `api` helper takes only a 2xx). */
async function hasCaptchaProvider(page: Page): Promise<boolean> {
  const token = await consoleManagementToken(page);
  const response = await page.request.get(managementApiPath('/captcha-provider'), {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect([200, 404], `GET /captcha-provider answered ${response.status()}`).toContain(response.status());
  return response.status() === 200;
}

/** No provider and the switch off: how every other spec expects the default tenant. */
async function resetCaptcha(page: Page, api: ManagementApi): Promise<void> {
  if (await hasCaptchaProvider(page)) await api.delete('/captcha-provider');
  await api.patch('/sign-in-exp', { captchaPolicy: {} });
}

test('security: a captcha provider is set from the console, kept with its secret masked, and removed', async ({
  page,
}) => {
  test.slow(); // Saves, reloads and axe runs on a shared two-core machine.
  await openSignedIn(page, consolePath('security'));
  await waitForShell(page);
  await expectHeading(page, 'Security');
  const api = await managementApiAs(page);
  const captchaSwitch = page.getByRole('switch', { name: /^Ask for a captcha at sign-in/ });
  const turnstile = page.getByRole('radio', { name: /^Cloudflare Turnstile/ });
  const siteKey = page.getByRole('textbox', { name: /^Site key/ });
  const secretKey = page.getByLabel(/^Secret key/);
  const remove = page.getByRole('button', { name: 'Remove captcha provider' });
  const save = page.getByRole('button', { name: 'Save changes' });
  const saved = page.getByRole('status').filter({ hasText: 'Security settings saved.' });
  const saveBar = page.getByRole('region', { name: 'Unsaved changes' });
  const card = page.getByRole('region', { name: 'Captcha', exact: true });
  // Cloudflare's documented test keys: a widget that always passes.
  const keys = { site: '1x00000000000000000000AA', secret: '1x0000000000000000000000000000000AA' };
  try {
    await resetCaptcha(page, api);
    await page.reload();
    await expect(card.getByText(/sign-in by password, sign-up, sending a verification code/)).toBeVisible();
    await expect(card.getByText(/stored encrypted and never shown again/)).toBeVisible();
    await expect(captchaSwitch).not.toBeChecked();
    await expect(remove, 'nothing to remove yet').toHaveCount(0);

    // The switch alone is refused: the sign-in pages cannot ask for a captcha without a provider.
    let writes = 0;
    const countWrites = (request: { method(): string; url(): string }) => {
      if (['PUT', 'PATCH'].includes(request.method()) && /\/(sign-in-exp|captcha-provider)$/.test(request.url())) {
        writes += 1;
      }
    };
    page.on('request', countWrites);
    await captchaSwitch.check();
    await save.click();
    await expect(page.getByTestId('captchaPolicy.enabled-error')).toHaveText(
      'Set a captcha provider below first: without one the sign-in pages cannot ask for a captcha.',
    );
    expect(writes, 'nothing was sent').toBe(0);
    page.off('request', countWrites);

    // reCAPTCHA Enterprise has a project and a minimum score; the addresses are under Advanced, the provider's own
    // shown as what an empty one means.
    const projectId = page.getByRole('textbox', { name: /^Google Cloud project ID/ });
    await expect(projectId).toHaveCount(0);
    await page.getByRole('radio', { name: /^Google reCAPTCHA Enterprise/ }).check();
    await expect(projectId).toBeVisible();
    await expect(page.getByRole('spinbutton', { name: /^Minimum score/ })).toHaveValue('0.5');
    await card.getByText('Advanced', { exact: true }).click();
    await expect(page.getByRole('textbox', { name: /^Verification URL/ })).toHaveAttribute(
      'placeholder',
      /^https:\/\/recaptchaenterprise\.googleapis\.com\//,
    );
    await snap(page, 'captcha-recaptcha');
    await turnstile.check();
    await expect(projectId).toHaveCount(0);

    // A Turnstile provider and the switch, in one save.
    await expect(turnstile).toBeChecked();
    await siteKey.fill(keys.site);
    await secretKey.fill(keys.secret);
    await expect(secretKey).toHaveAttribute('type', 'password');
    await save.click();
    await expect(saved).toBeVisible();
    await expect(saveBar).toHaveCount(0);

    // Kept after a reload; the secret key is not in the page, only said to be stored.
    await page.reload();
    await expect(captchaSwitch).toBeChecked();
    await expect(turnstile).toBeChecked();
    await expect(siteKey).toHaveValue(keys.site);
    await expect(secretKey).toHaveValue('');
    await expect(secretKey).toHaveAttribute('placeholder', 'Stored');
    await expect(card.getByText(/A secret key is stored/)).toBeVisible();
    await expect(remove).toBeVisible();
    expect(await api.get<CaptchaProvider>('/captcha-provider')).toMatchObject({
      config: { type: 'Turnstile', siteKey: keys.site, secretKey: '********' },
    });
    expect((await api.get<{ captchaPolicy: unknown }>('/sign-in-exp')).captchaPolicy).toEqual({ enabled: true });
    await snap(page, 'captcha');

    // The card in light (every rule) and in dark (the colours).
    await expectNoSeriousViolations(page, 'security page with a captcha provider, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page, colours), 'security page with a captcha provider, dark').toEqual([]);
    await snap(page, 'captcha-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Another site key with the secret left empty: the stored secret is kept (sent as ********, which the server
    // takes only when it has one of that type).
    await siteKey.fill('2x00000000000000000000AB');
    await save.click();
    await expect(saved).toBeVisible();
    expect((await api.get<CaptchaProvider>('/captcha-provider')).config).toEqual({
      type: 'Turnstile',
      siteKey: '2x00000000000000000000AB',
      secretKey: '********',
    });

    // Removed after a confirmation: the switch goes off with it.
    await remove.click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove the captcha provider?' });
    await expect(confirm).toBeVisible();
    await snap(page, 'captcha-remove');
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Captcha provider removed.' })).toBeVisible();
    await expect(remove).toHaveCount(0);
    await expect(captchaSwitch).not.toBeChecked();
    await expect(siteKey).toHaveValue('');
    await expect(saveBar).toHaveCount(0);
    expect(await hasCaptchaProvider(page), 'GET /captcha-provider answers 404').toBe(false);
    expect((await api.get<{ captchaPolicy: unknown }>('/sign-in-exp')).captchaPolicy).toEqual({ enabled: false });
    await page.reload();
    await expect(siteKey).toHaveValue('');
    await expect(remove).toHaveCount(0);
  } finally {
    await resetCaptcha(page, api);
  }
});
