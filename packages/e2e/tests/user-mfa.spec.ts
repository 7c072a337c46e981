import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the test then saves what it saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-user-mfa-${name}.png`, fullPage: true });
}

type Verification = { id: string; type: string; remainCodes?: number };

async function openUserSettings(page: Page, username: string): Promise<{ api: ManagementApi; userId: string }> {
  await openSignedIn(page, consolePath('users'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  const user = await api.createUser({ username });
  await page.goto(consolePath(`users/${user.id}/settings`));
  return { api, userId: user.id };
}

const factors = (page: Page) => page.getByRole('list', { name: 'MFA factors' });

test.describe('MFA factors of a user', () => {
  test('adds an authenticator app (QR code and secret once), generates backup codes, removes the app', async ({
    page,
  }) => {
    const username = `mfa_${randomBytes(4).toString('hex')}`;
    const { api, userId } = await openUserSettings(page, username);
    const generate = page.getByRole('button', { name: 'Generate backup codes' });
    await expect(page.getByText('No MFA factors.'), 'a new user has none').toBeVisible();
    await expect(generate, 'backup codes wait for another factor').toBeDisabled();
    await expect(generate).toHaveAccessibleDescription(/Add an authenticator app first/);

    // Authenticator app: the QR code renders (a data: image the CSP allows) and the secret is shown once.
    await page.getByRole('button', { name: 'Add authenticator app (TOTP)' }).click();
    const totpDialog = page.getByRole('dialog', { name: 'Authenticator app added: save it now' });
    const qr = totpDialog.getByRole('img', { name: 'QR code for the authenticator app' });
    await expect(qr).toBeVisible();
    await expect
      .poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), {
        message: 'the QR image loaded',
      })
      .toBe(true);
    await expect(totpDialog.locator('code')).toHaveText(/^[A-Z2-7]{32}$/);
    await expect(totpDialog.getByRole('button', { name: 'Copy the secret' })).toBeVisible();
    await expect(totpDialog.getByRole('note')).toContainText('Shown only this once');
    await snap(page, 'totp');
    await totpDialog.getByRole('button', { name: 'I have saved it' }).click();
    await expect(totpDialog).toBeHidden();
    await expect(factors(page).getByRole('listitem')).toHaveCount(1);
    await expect(factors(page)).toContainText('Authenticator app (TOTP)');
    await expect(page.getByRole('button', { name: 'Add authenticator app (TOTP)' }), 'one per user').toHaveCount(0);

    // Backup codes: ten, copied or downloaded as a text file, then only counted.
    await generate.click();
    const codesDialog = page.getByRole('dialog', { name: 'Backup codes: save them now' });
    const codes = (await codesDialog.locator('code').innerText()).split('\n');
    expect(codes, 'ten codes of ten lowercase letters or digits').toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{10}$/);
    await expect(codesDialog.getByRole('button', { name: 'Copy all codes' })).toBeVisible();
    await snap(page, 'backup-codes');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      codesDialog.getByRole('button', { name: 'Download as .txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`backup-codes-${username}.txt`);
    const file = await readFile(await download.path(), 'utf8');
    expect(file.split('\r\n').filter((line) => /^[0-9a-z]{10}$/.test(line))).toEqual(codes);
    await codesDialog.getByRole('button', { name: 'I have saved it' }).click();
    await expect(factors(page).getByRole('listitem')).toHaveCount(2);
    await expect(factors(page).getByRole('listitem').filter({ hasText: 'Backup codes' })).toContainText(
      'Unused codes: 10',
    );
    await expect(generate, 'one set of backup codes per user').toBeDisabled();
    await snap(page, 'card');

    // Remove the app, confirmed.
    await factors(page).getByRole('button', { name: 'Remove Authenticator app (TOTP)' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove MFA factor' });
    await expect(confirm).toContainText(`${username} will no longer be able to use Authenticator app (TOTP)`);
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(factors(page).getByRole('listitem')).toHaveCount(1);
    await expect(factors(page)).not.toContainText('Authenticator app (TOTP)');
    const stored = await api.get<Verification[]>(`/users/${userId}/mfa-verifications`);
    expect(stored.map((verification) => [verification.type, verification.remainCodes])).toEqual([['BackupCode', 10]]);

    await api.delete(`/users/${userId}`);
  });
});
