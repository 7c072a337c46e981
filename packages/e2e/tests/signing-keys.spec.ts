import type { Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots)
    await page.screenshot({ path: `${screenshots}/${edition}-signing-keys-${name}.png`, fullPage: true });
}

type Key = { id: string; status: 'Current' | 'Previous'; signingKeyAlgorithm?: 'RSA' | 'EC' };

async function openSigningKeys(page: Page, options: { viaForm?: boolean } = {}): Promise<ManagementApi> {
  await openSignedIn(page, consolePath('signing-keys'), options);
  await waitForShell(page);
  await expectHeading(page, 'Signing keys');
  return managementApiAs(page);
}

const privateTable = (page: Page) => page.getByRole('table', { name: 'OIDC private keys' });
const cookieTable = (page: Page) => page.getByRole('table', { name: 'OIDC cookie keys' });
const keyRow = (table: Locator, id: string) => table.getByRole('row').filter({ hasText: id });
/** Data rows only (the header row has no cell). */
const keyRows = (table: Locator) => table.getByRole('row').filter({ has: table.page().getByRole('cell') });

/**
 * Leaves the tenant with one RSA key again, so later specs see the key set they started with. Signed in as the
 * console admin, whose tokens come from the admin tenant's issuer: the keys of the managed tenant never sign them.
 */
async function restoreRsaKey(api: ManagementApi): Promise<void> {
  const keys = await api.post<Key[]>('/configs/oidc/private-keys/rotate', { signingKeyAlgorithm: 'RSA' });
  for (const key of keys.filter((candidate) => candidate.status === 'Previous')) {
    await api.delete(`/configs/oidc/private-keys/${key.id}`);
  }
}

test.describe('signing keys', () => {
  test('rotates the private keys to EC in the UI, signs in again, and deletes the previous key; the current key cannot be deleted', async ({
    page,
  }) => {
    test.slow(); // two sign-ins and a key generation on a shared two-core machine
    const api = await openSigningKeys(page);
    const [before] = await api.get<Key[]>('/configs/oidc/private-keys');
    if (!before) throw new Error('the tenant has no signing key');
    try {
      const table = privateTable(page);
      await expect(keyRow(table, before.id)).toContainText('Current');
      await expect(
        keyRow(table, before.id).getByRole('button', { name: /Delete/ }),
        'no delete on the current key',
      ).toHaveCount(0);

      await page.getByRole('button', { name: 'Rotate private keys' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rotate the private keys?' });
      await expect(dialog).toContainText('signs every token from now on');
      await expect(dialog.getByRole('radio', { name: /RSA \(RS256\)/ }), 'the current family by default').toBeChecked();
      await dialog.getByRole('radio', { name: /EC P-384 \(ES384\)/ }).check();
      await snap(page, 'rotate-dialog');
      await dialog.getByRole('button', { name: 'Rotate' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Private keys rotated: new tokens are signed with the new key.')).toBeVisible();

      const keys = await api.get<Key[]>('/configs/oidc/private-keys');
      expect(keys.map((key) => [key.status, key.signingKeyAlgorithm])).toEqual([
        ['Current', 'EC'],
        ['Previous', before.signingKeyAlgorithm],
      ]);
      const [current] = keys;
      if (!current) throw new Error('no current key after the rotation');
      await expect(keyRows(table)).toHaveCount(2);
      await expect(keyRow(table, current.id)).toContainText('EC P-384 (ES384)');
      await expect(keyRow(table, current.id)).toContainText('Current');
      await expect(keyRow(table, before.id)).toContainText('Previous');
      await expect(keyRow(table, current.id).getByRole('button', { name: /Delete/ })).toHaveCount(0);
      await snap(page, 'rotated');

      // The session from before the rotation keeps working, and a new sign-in reaches the console too.
      expect((await api.get<Key[]>('/configs/oidc/private-keys')).length).toBe(2);
      await page.context().clearCookies();
      await page.evaluate(() => sessionStorage.clear());
      // Through the sign-in form: the new sign-in's tokens are signed with the new EC key.
      const again = await openSigningKeys(page, { viaForm: true });
      await expect(keyRows(privateTable(page))).toHaveCount(2);

      await keyRow(privateTable(page), before.id)
        .getByRole('button', { name: `Delete key ${before.id}` })
        .click();
      const confirmation = page.getByRole('alertdialog', { name: 'Delete the previous private key?' });
      await expect(confirmation).toContainText(before.id);
      await confirmation.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText(`Key “${before.id}” deleted.`)).toBeVisible();
      await expect(keyRows(privateTable(page))).toHaveCount(1);
      await expect(keyRow(privateTable(page), before.id)).toHaveCount(0);
      expect((await again.get<Key[]>('/configs/oidc/private-keys')).map((key) => key.id)).toEqual([current.id]);
    } finally {
      await restoreRsaKey(await managementApiAs(page));
    }
  });

  test('rotates the cookie keys and deletes the previous one after a confirmation', async ({ page }) => {
    const api = await openSigningKeys(page);
    const [before] = await api.get<Key[]>('/configs/oidc/cookie-keys');
    if (!before) throw new Error('the tenant has no cookie key');
    const table = cookieTable(page);
    await expect(keyRow(table, before.id)).toContainText('Current');

    await page.getByRole('button', { name: 'Rotate cookie keys' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the cookie keys?' });
    await expect(dialog.getByRole('radio'), 'cookie keys have no algorithm').toHaveCount(0);
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await expect(page.getByText('Cookie keys rotated.')).toBeVisible();
    await expect(keyRows(table)).toHaveCount(2);
    await expect(keyRow(table, before.id)).toContainText('Previous');

    // Cancelling keeps the key.
    await keyRow(table, before.id)
      .getByRole('button', { name: `Delete key ${before.id}` })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Delete the previous cookie key?' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await expect(keyRows(table)).toHaveCount(2);

    await keyRow(table, before.id)
      .getByRole('button', { name: `Delete key ${before.id}` })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Delete the previous cookie key?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(keyRows(table)).toHaveCount(1);
    const [current] = await api.get<Key[]>('/configs/oidc/cookie-keys');
    expect(current?.id).not.toBe(before.id);
    await expect(keyRow(table, current?.id ?? '').getByRole('button', { name: /Delete/ })).toHaveCount(0);
  });

  test('the session lifetime is saved in seconds and read back after a reload; out of range is refused', async ({
    page,
  }) => {
    const api = await openSigningKeys(page);
    const { ttl: before } = await api.get<{ ttl: number }>('/configs/oidc/session');
    try {
      const lifetime = page.getByLabel(/^Session lifetime/);
      const unit = page.getByLabel('Unit', { exact: true });
      await expect(lifetime).toHaveValue(/^\d+$/);

      await lifetime.fill('366');
      await unit.selectOption('days');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByTestId('value-error')).toHaveText('A whole number, from 1 second to 365 days.');
      expect((await api.get<{ ttl: number }>('/configs/oidc/session')).ttl, 'nothing saved').toBe(before);

      await lifetime.fill('36');
      await unit.selectOption('hours');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Session lifetime saved.')).toBeVisible();
      expect((await api.get<{ ttl: number }>('/configs/oidc/session')).ttl).toBe(36 * 3600);

      await page.reload();
      await expectHeading(page, 'Signing keys');
      await expect(lifetime).toHaveValue('36');
      await expect(unit).toHaveValue('hours');
    } finally {
      await api.patch('/configs/oidc/session', { ttl: before });
    }
  });
});
