import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { seriousViolations } from '../support/axe.ts';
import { consolePath } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) {
    await page.screenshot({ path: `${screenshots}/${edition}-invitations-${name}.png`, fullPage: true });
  }
}

const suffix = () => randomBytes(4).toString('hex');

type Invitation = { id: string; invitee: string; status: string; organizationRoles: { name: string }[] };

/** An organization (and a User organization role) made through the API, with its members tab open. */
async function openMembers(page: Page): Promise<{ api: ManagementApi; id: string; name: string; role: string }> {
  await openSignedIn(page, consolePath('organizations'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  const name = `Invite Org ${suffix()}`;
  const role = `invitee-${suffix()}`;
  const organization = await api.post<{ id: string }>('/organizations', { name });
  await api.post('/organization-roles', { name: role, type: 'User' });
  await page.goto(consolePath(`organizations/${organization.id}/members`));
  // A full page load signs the console in again: slower than a step inside the page.
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 20_000 });
  return { api, id: organization.id, name, role };
}

const invitationsOf = (api: ManagementApi, organizationId: string) =>
  api.get<Invitation[]>(`/organization-invitations?organizationId=${organizationId}`);

const invitations = (page: Page): Locator => page.getByRole('table', { name: 'Invitations' });
const inviteDialog = (page: Page): Locator => page.getByRole('dialog', { name: 'Invite members' });

test.describe('organization invitations', () => {
  test('invites by email with a role, shows it pending, and revokes it after a confirmation', async ({ page }) => {
    test.slow(); // an axe run and several round trips on a shared two-core machine
    const { api, id, role } = await openMembers(page);
    const email = `new-${suffix()}@example.com`;
    await expect(invitations(page)).toContainText('No invitations yet.');

    await page.getByRole('button', { name: 'Invite members' }).click();
    const dialog = inviteDialog(page);
    await dialog.getByRole('textbox', { name: 'Email addresses' }).fill(email);
    await dialog.getByRole('textbox', { name: 'Email addresses' }).press('Enter');
    await dialog.getByRole('checkbox', { name: role }).check();
    await dialog.getByLabel('Expires after').selectOption('14');
    await dialog.getByLabel('Acceptance link').fill('https://app.example.com/invitations/{invitationId}');
    expect(await seriousViolations(page), 'invite dialog').toEqual([]);
    await snap(page, 'invite');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(page.getByText('Invitations sent: 1.')).toBeVisible();
    await expect(dialog).toBeHidden();

    const row = invitations(page).getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Pending');
    await expect(row).toContainText(role);
    await expect(row).toContainText('Admin');
    const [saved] = await invitationsOf(api, id);
    expect(saved).toMatchObject({ invitee: email, status: 'Pending', organizationRoles: [{ name: role }] });
    await snap(page, 'pending');

    // Resend asks first, then queues the email again.
    await row.getByRole('button', { name: `Resend the invitation to ${email}` }).click();
    const resend = page.getByRole('alertdialog', { name: 'Resend invitation' });
    await expect(resend).toContainText(email);
    await resend.getByRole('button', { name: 'Resend' }).click();
    await expect(page.getByText(`Invitation to “${email}” sent again.`)).toBeVisible();

    // Revoking asks first; cancelling keeps it pending.
    await row.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toContainText('Pending');
    await row.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText(`Invitation to “${email}” revoked.`)).toBeVisible();
    await expect(row).toContainText('Revoked');
    await expect(row.getByRole('button', { name: /Revoke|Resend/ })).toHaveCount(0);
    expect((await invitationsOf(api, id))[0]?.status).toBe('Revoked');
  });

  // The dialog's own refusals (malformed address, no address, a non-web link) are component tests
  // (InviteMembersModal.test.tsx); the server's refusal stays here.
  test('an address the server refuses stays as an error chip', async ({ page }) => {
    const { api, id } = await openMembers(page);
    const taken = `taken-${suffix()}@example.com`;
    await api.post('/organization-invitations', {
      organizationId: id,
      invitee: taken,
      expiresAt: Date.now() + 24 * 60 * 60 * 1000,
    });
    const fresh = `fresh-${suffix()}@example.com`;
    await page.reload();
    await expect(page.getByRole('button', { name: 'Invite members' })).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Invite members' }).click();
    const dialog = inviteDialog(page);
    const emails = dialog.getByRole('textbox', { name: 'Email addresses' });
    await emails.fill(`${taken} ${fresh}`);
    await emails.press('Enter');
    await dialog.getByLabel('Acceptance link').fill('');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(page.getByText('This person already has a pending invitation to this organization.')).toBeVisible();
    await expect(page.getByText('Invitations created without an email: 1.')).toBeVisible();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(taken)).toBeVisible();
    await expect(dialog.getByText(fresh)).toHaveCount(0);
    const saved = (await invitationsOf(api, id)).map((invitation) => invitation.invitee).sort();
    expect(saved).toEqual([fresh, taken].sort());
  });
});
