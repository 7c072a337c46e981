import { createHmac, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { expectNoSeriousViolations, seriousViolations } from '../support/axe.ts';
import { choiceDescriptionLines, consolePath } from '../support/console.ts';
import { managementApiAs } from '../support/management-api.ts';
import { startAuthorization } from '../support/oidc.ts';
import { openSignedIn, submitSignIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * MFA at sign-in (docs/areas/mfa.md), set in the console's MFA page and met on the real sign-in pages: a user without
 * a factor sets up an authenticator app (and gets backup codes) under the Mandatory policy, then signs in with its code
 * and with a backup code. The console's own axe, dark and Arabic checks are the sweep's (support/sweep.ts); the MFA
 * sign-in pages are checked here. The default tenant's MFA settings are put back after: other specs sign in there.
 */
const callbackPath = '/mfa-e2e/callback';
const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the test then saves what it saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-mfa-${name}.png`, fullPage: true });
}

const PERIOD = 30;
const timeStep = (at = Date.now()) => Math.floor(at / 1000 / PERIOD);

/** RFC 6238 with the server's parameters (SHA-1, 6 digits, 30 s): the code of a base32 secret at a time step. */
function totpCode(secret: string, step: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...secret.replace(/=+$/, '')]
    .map((char) => alphabet.indexOf(char).toString(2).padStart(5, '0'))
    .join('');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = (hmac.at(-1) ?? 0) & 0x0f;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const colours = { rules: ['color-contrast', 'link-in-text-block'] };

/**
 * Axe on a sign-in page: every rule in light (`full`), or only the colours (a page whose structure another check saw),
 * then the colours in dark. Runs are few: each full one takes seconds on a loaded machine.
 */
async function expectAccessible(page: Page, label: string, full: boolean): Promise<void> {
  if (full) await expectNoSeriousViolations(page, `${label}, light`);
  else expect(await seriousViolations(page, colours), `${label}, light`).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await seriousViolations(page, colours), `${label}, dark`).toEqual([]);
  await snap(page, `${label.replace(/\W+/g, '-')}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

test('MFA: required in the console, set up and then passed on the sign-in pages', async ({ page, browser }) => {
  test.skip(edition === 'cloud', "the OSS default tenant's sign-in pages (issuer /oidc)");
  test.setTimeout(60_000); // Four sign-ins and axe runs: 26 s on the 2-core machine at load 5, 43 s at load 9.
  const id = randomBytes(3).toString('hex');
  const redirectUri = `${test.info().project.use.baseURL}${callbackPath}`;
  await openSignedIn(page, consolePath('mfa'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  const original = await api.get<{ mfa: Record<string, unknown>; color: Record<string, unknown> }>('/sign-in-exp');
  const context = await browser.newContext();
  try {
    // No factor on: the policies that set one up are not offered, and the page says why. The pages' dark mode on, for
    // the dark checks below.
    await api.patch('/sign-in-exp', {
      mfa: { factors: [], policy: 'UserControlled' },
      color: { ...original.color, isDarkModeEnabled: true },
    });
    await page.reload();
    const totpSwitch = page.getByRole('switch', { name: /^Authenticator app \(TOTP\)/ });
    const backupSwitch = page.getByRole('switch', { name: /^Backup codes/ });
    const policies = page.getByRole('radiogroup', { name: 'MFA policy' });
    const required = policies.getByRole('radio', { name: /^Required/ });
    await expect(required).toBeDisabled();
    await expect(policies).toHaveAccessibleDescription(/Turn on the authenticator app or passkeys to choose a policy/);

    // Authenticator app and backup codes on, MFA required: saved, and still so after a reload.
    await totpSwitch.click();
    await backupSwitch.click();
    await expect(required).toBeEnabled();
    await required.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'MFA settings saved.' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Unsaved changes' })).toHaveCount(0);
    await page.reload();
    await expect(totpSwitch).toBeChecked();
    await expect(backupSwitch).toBeChecked();
    await expect(required).toBeChecked();
    await snap(page, 'console');

    // An end user without a factor and an application to sign in to.
    const username = `mfa_e2e_${id}`;
    const password = 'Second-Step-73';
    await api.post('/users', { username, password });
    const app = await api.post<{ id: string }>('/applications', {
      name: `Second step ${id}`,
      type: 'SPA',
      oidcClientMetadata: { redirectUris: [redirectUri] },
    });
    const user = await context.newPage();
    await user.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, body: 'signed in' }));
    const reachedApp = () => user.waitForURL((url) => url.href.startsWith(redirectUri) && url.searchParams.has('code'));

    // First sign-in: the password, then setting up the authenticator app (QR code and key), then the backup codes.
    await startAuthorization(user, { clientId: app.id, redirectUri, state: 'setup' });
    await submitSignIn(user, username, password);
    await expect(user.getByRole('heading', { level: 1, name: 'Set up an authenticator app' })).toBeVisible();
    await expect(user.getByRole('status')).toHaveText('This account needs a second step to sign in.');
    await expect(user.getByRole('button', { name: 'Skip for now' }), 'required: no skipping').toHaveCount(0);
    const qr = user.getByRole('img', { name: 'QR code for your authenticator app' });
    await expect
      .poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true);
    const secret = (await user.locator('.secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(user, 'setup page', true);
    const setupStep = timeStep();
    await user.getByLabel('Verification code').fill(totpCode(secret, setupStep));
    await user.getByRole('button', { name: 'Continue' }).click();
    await expect(user.getByRole('heading', { level: 1, name: 'Save your backup codes' })).toBeVisible();
    const codes = await user.getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    // Copy (the page's script) and download (a plain link) of the same codes.
    await expect(user.getByRole('button', { name: 'Copy codes' })).toBeVisible();
    await expect(user.getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'backup-codes.txt');
    await expectNoSeriousViolations(user, 'backup codes page, light');
    // A reload shows the same codes again and does not sign in (issue 37 item 6): only "I have saved them" does.
    await user.reload();
    await expect(user.getByRole('heading', { level: 1, name: 'Save your backup codes' })).toBeVisible();
    expect(await user.getByRole('listitem').allTextContents()).toEqual(codes);
    await user.getByRole('button', { name: 'I have saved them' }).click();
    await reachedApp();

    // Second sign-in: the code page; a wrong code is refused, the next time step's code (the setup's is spent) passes.
    await startAuthorization(user, { clientId: app.id, redirectUri, state: 'code', extra: { prompt: 'login' } });
    await submitSignIn(user, username, password);
    await expect(user.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
    const next = Math.max(timeStep(), setupStep + 1);
    await user.getByLabel('Verification code').fill(totpCode(secret, next + 10));
    await user.getByRole('button', { name: 'Continue' }).click();
    await expect(user.getByRole('alert')).toHaveText('That code is not right. Check it and try again.');
    await expectAccessible(user, 'code page with an error', false);
    await user.getByLabel('Verification code').fill(totpCode(secret, next));
    await user.getByRole('button', { name: 'Continue' }).click();
    await reachedApp();

    // Third sign-in: one of the backup codes instead.
    await startAuthorization(user, { clientId: app.id, redirectUri, state: 'backup', extra: { prompt: 'login' } });
    await submitSignIn(user, username, password);
    await user.getByRole('link', { name: 'Use a backup code instead' }).click();
    await user.getByLabel('Backup code').fill(codes[0] ?? '');
    await user.getByRole('button', { name: 'Continue' }).click();
    await reachedApp();

    // The same code page in Arabic (right to left; the sign-in pages' Arabic is axe-checked by sign-in-pages.spec.ts).
    await startAuthorization(user, {
      clientId: app.id,
      redirectUri,
      state: 'ar',
      extra: { prompt: 'login', ui_locales: 'ar' },
    });
    await expect(user.locator('html')).toHaveAttribute('dir', 'rtl');
    await user.locator('#identifier').fill(username);
    await user.locator('#password').fill(password);
    await user.locator('button[type="submit"]').first().click();
    await expect(user.getByRole('heading', { level: 1, name: 'التحقق بخطوتين' })).toBeVisible();
    await snap(user, 'code-page-ar');
  } finally {
    await context.close();
    await api.patch('/sign-in-exp', { mfa: original.mfa, color: original.color });
  }
});

test('MFA page: policy cards in two columns, and what is scrolled into view stays above the save bar', async ({
  page,
}) => {
  test.skip(edition === 'cloud', 'the same page in both editions; the OSS run checks it');
  await page.setViewportSize({ width: 1440, height: 600 });
  await openSignedIn(page, consolePath('mfa'));
  await waitForShell(page);
  const policies = page.getByRole('radiogroup', { name: 'MFA policy' });
  await expect(policies.getByRole('radio')).toHaveCount(5);

  // Issue 40, item 7: descriptions of six to eight lines in narrow cards.
  const lines = await choiceDescriptionLines(policies);
  expect(Math.max(...lines), `lines of each policy's description: ${lines.join()}`).toBeLessThanOrEqual(3);
  const columns = await policies.evaluate(
    (group) => new Set([...group.children].map((card) => card.getBoundingClientRect().x)).size,
  );
  expect(columns, 'two columns').toBe(2);

  // Issue 40, item 8: with the save bar showing, a control under it is not "in view" to the browser any more, so focus
  // (as Tab or an error gives it) scrolls it above the bar. The page is scrolled so that the last radio sits under the
  // bar, inside the window: there the browser saw it as visible and left it covered.
  await page.getByRole('switch', { name: /^Backup codes/ }).click();
  const bar = page.getByRole('region', { name: 'Unsaved changes' });
  await expect(bar).toBeVisible();
  const last = page.getByRole('radiogroup', { name: 'Members without a factor' }).getByRole('radio').last();
  await last.evaluate((radio) => {
    window.scrollBy(0, radio.getBoundingClientRect().bottom - (window.innerHeight - 12));
  });
  const barTop = async () => (await bar.boundingBox())?.y ?? 0;
  const radioBottom = async () => {
    const box = await last.boundingBox();
    return (box?.y ?? 0) + (box?.height ?? 0);
  };
  expect(await radioBottom(), 'the radio starts under the bar').toBeGreaterThan(await barTop());
  await last.focus();
  expect(await radioBottom(), 'focused, it is above the bar').toBeLessThanOrEqual(await barTop());
  await bar.getByRole('button', { name: 'Discard' }).click();
  await expect(bar).toHaveCount(0);
});
