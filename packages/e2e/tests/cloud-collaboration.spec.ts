import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { createAccount } from '../support/accounts.ts';
import { linkIn, waitForMail } from '../support/mail.ts';
import { submitSignIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * Issue 8 across areas, with two people in two browser contexts and the local mail sink: A onboards and invites B;
 * B signs up from the emailed link, lands in the tenant as a collaborator; A promotes B and B's console follows; A
 * deletes the tenant and it is gone for B too.
 */
test.skip(edition !== 'cloud', 'Tenants, members and invitations exist only in the cloud edition (EDITION=cloud).');

const password = 'collab-correct-horse-1';
const suffix = randomBytes(4).toString('hex');
const switcher = (page: Page) => page.getByTestId('tenant-switcher');
const settingsTabs = (page: Page) => page.getByRole('navigation', { name: 'Tenant settings sections' });

async function openTenantSettings(page: Page, tenantId: string, tab: string): Promise<void> {
  await page.goto(`/console/${tenantId}/tenant-settings/${tab}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Tenant settings' })).toBeVisible({ timeout: 20_000 });
}

test('A invites B by email; B joins as collaborator, follows a role change, and loses a deleted tenant', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const origin = baseURL ?? '';
  const tenantName = `Collab ${suffix}`;
  const userA = `owner_${suffix}`;
  const userB = `guest_${suffix}`;
  const emailB = `guest-${suffix}@example.com`;
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  try {
    const a = await contextA.newPage();
    const b = await contextB.newPage();

    // A: a new account onboards into its own tenant.
    await createAccount(a, origin, userA, password);
    await a.goto('/console');
    await a.waitForURL(/\/console\/onboarding\/create-tenant$/);
    await a.getByLabel('Tenant name').fill(tenantName);
    await a.getByRole('button', { name: 'Create', exact: true }).click();
    await a.waitForURL(/\/console\/(?!onboarding)[0-9a-z]+\/get-started$/);
    const tenantId = new URL(a.url()).pathname.split('/')[2] ?? '';
    await waitForShell(a);

    // A invites B (who has no account yet) as a collaborator.
    await openTenantSettings(a, tenantId, 'members');
    await a.getByRole('button', { name: 'Invite members' }).click();
    const dialog = a.getByRole('dialog', { name: 'Invite members' });
    await dialog.getByRole('textbox', { name: 'Email addresses' }).fill(emailB);
    await dialog.getByRole('textbox', { name: 'Email addresses' }).press('Enter');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(a.getByText('Invitation sent.')).toBeVisible();

    // B: the emailed link, sign-up (with the invited email), automatic acceptance, into the tenant.
    const mail = await waitForMail(emailB);
    const link = linkIn(mail, `${origin}/console/accept/`);
    await b.goto(link);
    await b.waitForURL(/\/interaction\//);
    const register = b.getByRole('heading', { level: 1, name: 'Create your Gatehouse account' });
    if (!(await register.isVisible())) await b.getByRole('link', { name: 'Create an account' }).click();
    await expect(register).toBeVisible();
    await b.getByLabel('Username').fill(userB);
    await b.getByLabel('Email (optional)').fill(emailB);
    await b.getByLabel('Password', { exact: true }).fill(password);
    await b.getByLabel('Confirm password').fill(password);
    await b.getByRole('button', { name: 'Create account' }).click();
    await b.waitForURL(new RegExp(`/console/${tenantId}/`), { timeout: 30_000 });
    await waitForShell(b);
    await expect(switcher(b)).toContainText(tenantName);

    // Issue 26: B belongs to a tenant, so onboarding counts as done: '/console' (and '/console/onboarding') land on it.
    for (const path of ['/console', '/console/onboarding']) {
      await b.goto(path);
      await b.waitForURL(new RegExp(`/console/${tenantId}/get-started$`), { timeout: 20_000 });
    }
    await expect(switcher(b)).toContainText(tenantName);

    // B is a collaborator: tenant settings open on members, no settings tab, no invitations.
    await b.goto(`/console/${tenantId}/tenant-settings`);
    await b.waitForURL(new RegExp(`/console/${tenantId}/tenant-settings/members$`), { timeout: 20_000 });
    await expect(settingsTabs(b).getByRole('link')).toHaveText(['Members', 'Domains']);
    const bRow = b.getByRole('table', { name: 'Tenant members' }).getByRole('row').filter({ hasText: userB });
    await expect(bRow).toContainText('Collaborator');
    await expect(b.getByRole('button', { name: 'Invite members' })).toHaveCount(0);
    await b.goto(`/console/${tenantId}/tenant-settings/members/invitations`);
    await expect(b.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible({ timeout: 20_000 });

    // A makes B an admin (after a confirmation); B's console follows on its next load.
    await openTenantSettings(a, tenantId, 'members');
    await a.getByRole('combobox', { name: `Role of ${userB}` }).selectOption('admin');
    await a.getByRole('alertdialog').getByRole('button', { name: 'Change role' }).click();
    await expect(a.getByText(`${userB} is now Admin.`)).toBeVisible();

    // Spec §4: B's organization token lacks the new scopes, so the console signs in again (consent) and comes back.
    await b.goto(`/console/${tenantId}/tenant-settings`);
    await b.waitForURL(/\/interaction\//, { timeout: 30_000 });
    await submitSignIn(b, userB, password);
    await b.waitForURL(new RegExp(`/console/${tenantId}/tenant-settings/settings$`), { timeout: 30_000 });
    await expect(settingsTabs(b).getByRole('link')).toHaveText(['Settings', 'Members', 'Domains']);

    // A deletes the tenant with the typed name; it goes from A's list and, on B's next load, from B's.
    await openTenantSettings(a, tenantId, 'settings');
    await a.getByRole('button', { name: 'Delete tenant' }).click();
    const confirm = a.getByRole('alertdialog', { name: 'Delete this tenant?' });
    await expect(confirm.getByRole('button', { name: 'Delete tenant' })).toBeDisabled();
    await confirm.getByRole('textbox').fill(tenantName);
    await confirm.getByRole('button', { name: 'Delete tenant' }).click();
    await expect(a.getByText(`"${tenantName}" was deleted.`)).toBeVisible();
    await expect(a).not.toHaveURL(new RegExp(`/console/${tenantId}(/|$)`));

    await b.goto(`/console/${tenantId}/get-started`);
    await expect(b).not.toHaveURL(new RegExp(`/console/${tenantId}(/|$)`), { timeout: 30_000 });
    await expect(b.getByText(tenantName)).toHaveCount(0);
  } finally {
    await contextA.close();
    await contextB.close();
  }
});
