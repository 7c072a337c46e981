import { randomBytes } from 'node:crypto';
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
    await page.screenshot({ path: `${screenshots}/${edition}-organizations-${name}.png`, fullPage: true });
}

/** Each test makes its own data: a suffix keeps its names apart from every other test's. */
const unique = (prefix: string) => `${prefix} ${randomBytes(4).toString('hex')}`;

type Organization = {
  id: string;
  name: string;
  description: string | null;
  isMfaRequired: boolean;
  customData: object;
};
type Named = { id: string; name: string };
type Member = { id: string; organizationRoles: Named[] };

async function openOrganizations(page: Page, path = 'organizations'): Promise<ManagementApi> {
  await openSignedIn(page, consolePath(path));
  await waitForShell(page);
  return managementApiAs(page);
}

/** The organizations whose name is exactly `name`, as the API has them (checks that nothing else was saved). */
async function organizationsNamed(api: ManagementApi, name: string): Promise<Organization[]> {
  const found = await api.get<Organization[]>(`/organizations?q=${encodeURIComponent(name)}&page_size=100`);
  return found.filter((organization) => organization.name === name);
}

function row(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

function tab(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: / sections$/ }).getByRole('link', { name });
}

test.describe('organizations', () => {
  test('creates an organization, finds it in the list, edits its settings and deletes it', async ({ page }) => {
    const api = await openOrganizations(page);
    const name = unique('Acme');

    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(page).toHaveURL(/\/organizations\/create$/);
    const dialog = page.getByRole('dialog', { name: 'Create organization' });
    await dialog.getByLabel('Organization name').fill(name);
    await dialog.getByLabel('Description').fill('Rockets and anvils');
    await snap(page, 'create');
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await expect(page.getByText(`Organization “${name}” created.`)).toBeVisible();
    await expectHeading(page, name);
    await expect(page).toHaveURL(/\/organizations\/[^/]+\/settings$/);
    const [created] = await organizationsNamed(api, name);
    expect(created).toMatchObject({ name, description: 'Rockets and anvils', isMfaRequired: false });

    // The list finds it by a search on the server.
    await page.getByRole('link', { name: 'Back to organizations' }).click();
    await page.getByRole('searchbox').fill(name);
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(row(page, name)).toContainText('Rockets and anvils');
    await row(page, name).getByRole('link').first().click();
    await expectHeading(page, name);

    // Settings: MFA and custom data; leaving with unsaved changes asks first.
    await page.getByLabel('Description').fill('Anvils only');
    await page.getByRole('switch', { name: /Require multi-factor authentication/ }).check();
    await page.getByRole('textbox', { name: 'Custom data (JSON)' }).fill('{"plan": "pro"}');
    await tab(page, 'Members').click();
    const leave = page.getByRole('alertdialog');
    await expect(leave).toContainText('You have unsaved changes.');
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await snap(page, 'settings');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Organization saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Description')).toHaveValue('Anvils only');
    await expect(page.getByRole('switch', { name: /Require multi-factor authentication/ })).toBeChecked();
    expect(await api.get<Organization>(`/organizations/${created?.id}`)).toMatchObject({
      description: 'Anvils only',
      isMfaRequired: true,
      customData: { plan: 'pro' },
    });

    // Bad JSON is refused before any request, and nothing of the form is saved.
    await page.getByRole('textbox', { name: 'Custom data (JSON)' }).fill('{"plan": }');
    await page.getByLabel('Organization name').fill(`${name} renamed`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('customData-error')).toHaveText('Invalid JSON format.');
    expect(await api.get<Organization>(`/organizations/${created?.id}`)).toMatchObject({
      name,
      customData: { plan: 'pro' },
    });
    await page.getByRole('button', { name: 'Discard' }).click();

    // Delete from the '…' menu: Cancel keeps it, Delete removes it.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete organization' }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Delete organization' });
    await expect(confirmation).toContainText(`Delete “${name}”?`);
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirmation).toBeHidden();
    expect(await organizationsNamed(api, name), 'cancel deletes nothing').toHaveLength(1);
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete organization' }).click();
    await confirmation.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`Organization “${name}” deleted.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${consolePath('organizations')}$`));
    expect(await organizationsNamed(api, name)).toEqual([]);
  });

  // The field-level refusals of this dialog are component tests (CreateOrganizationModal.test.tsx): no server needed.
  test('a name and a description at their limits are saved', async ({ page }) => {
    const api = await openOrganizations(page, 'organizations/create');
    const dialog = page.getByRole('dialog', { name: 'Create organization' });
    const submit = dialog.getByRole('button', { name: 'Create organization' });
    // The limits themselves are accepted.
    const exact = `${unique('Exact')} `.padEnd(128, 'y');
    await dialog.getByLabel('Organization name').fill(exact);
    await dialog.getByLabel('Description').fill('d'.repeat(256));
    await submit.click();
    await expectHeading(page, exact);
    expect(await organizationsNamed(api, exact)).toHaveLength(1);
  });

  test('adds a member, gives them an organization role, and removes them', async ({ page }) => {
    const api = await openOrganizations(page);
    const suffix = randomBytes(4).toString('hex');
    const organization = await api.post<Named>('/organizations', { name: unique('Globex') });
    const role = await api.post<Named>('/organization-roles', { name: `viewer-${suffix}`, type: 'User' });
    const user = await api.post<Named>('/users', { username: `ada_${suffix}`, name: `Ada ${suffix}` });

    await page.goto(consolePath(`organizations/${organization.id}/members`));
    await expectHeading(page, organization.name);
    await expect(page.getByText('No members yet.', { exact: false })).toBeVisible();

    await page.getByRole('button', { name: 'Add members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add members' });
    await dialog.getByRole('searchbox').fill(`ada_${suffix}`);
    const candidates = dialog.getByRole('list', { name: 'Search results' });
    await expect(candidates.getByRole('checkbox')).toHaveCount(1);
    await candidates.getByRole('checkbox', { name: new RegExp(`Ada ${suffix}`) }).check();
    await snap(page, 'add-members');
    await dialog.getByRole('button', { name: 'Add members' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Members added: 1.')).toBeVisible();
    await expect(row(page, `Ada ${suffix}`)).toContainText('No roles');

    // A member is not offered again.
    await page.getByRole('button', { name: 'Add members' }).click();
    await dialog.getByRole('searchbox').fill(`ada_${suffix}`);
    await expect(candidates.getByRole('checkbox', { name: /Already a member/ })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: `Edit roles of Ada ${suffix}` }).click();
    const roles = page.getByRole('dialog', { name: `Organization roles of Ada ${suffix}` });
    await roles.getByRole('searchbox').fill(role.name);
    await roles.getByRole('checkbox', { name: new RegExp(role.name) }).check();
    await snap(page, 'edit-roles');
    await roles.getByRole('button', { name: 'Save roles' }).click();
    await expect(roles).toBeHidden();
    await expect(row(page, `Ada ${suffix}`)).toContainText(role.name);
    const members = await api.get<Member[]>(`/organizations/${organization.id}/users`);
    expect(members.map((member) => [member.id, member.organizationRoles.map((held) => held.id)])).toEqual([
      [user.id, [role.id]],
    ]);

    // Search among members.
    await page.getByRole('searchbox').fill('nobody-matches-this');
    await expect(page.getByText('No member matches this search.')).toBeVisible();
    await page.getByRole('searchbox').fill(`ada_${suffix}`);
    await expect(row(page, `Ada ${suffix}`)).toBeVisible();

    await page.getByRole('button', { name: `Remove Ada ${suffix}` }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Remove member' });
    await expect(confirmation).toContainText(`Remove Ada ${suffix} from “${organization.name}”?`);
    await confirmation.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText(`Member “Ada ${suffix}” removed.`)).toBeVisible();
    expect(await api.get(`/organizations/${organization.id}/users`)).toEqual([]);
  });

  test('adds a machine-to-machine application with a role, and removes it', async ({ page }) => {
    const api = await openOrganizations(page);
    const suffix = randomBytes(4).toString('hex');
    const organization = await api.post<Named>('/organizations', { name: unique('Initech') });
    const role = await api.post<Named>('/organization-roles', { name: `robot-${suffix}`, type: 'MachineToMachine' });
    const app = await api.createMachineToMachineApp(`Cron ${suffix}`);

    await page.goto(consolePath(`organizations/${organization.id}`));
    await expect(page, '{id} opens the settings tab').toHaveURL(/\/settings$/);
    await tab(page, 'Machine-to-machine').click();
    await page.getByRole('button', { name: 'Add applications' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add machine-to-machine applications' });
    await dialog.getByRole('searchbox').fill(`Cron ${suffix}`);
    const candidates = dialog.getByRole('list', { name: 'Search results' });
    await candidates.getByRole('checkbox', { name: new RegExp(`Cron ${suffix}`) }).check();
    await dialog.getByRole('button', { name: 'Add applications' }).click();
    await expect(page.getByText('Applications added: 1.')).toBeVisible();

    await page.getByRole('button', { name: `Edit roles of Cron ${suffix}` }).click();
    const roles = page.getByRole('dialog', { name: `Organization roles of Cron ${suffix}` });
    await roles.getByRole('searchbox').fill(role.name);
    await roles.getByRole('checkbox', { name: new RegExp(role.name) }).check();
    await roles.getByRole('button', { name: 'Save roles' }).click();
    await expect(row(page, `Cron ${suffix}`)).toContainText(role.name);
    await snap(page, 'applications');
    const apps = await api.get<Member[]>(`/organizations/${organization.id}/applications`);
    expect(apps.map((item) => [item.id, item.organizationRoles.map((held) => held.id)])).toEqual([[app.id, [role.id]]]);

    await page.getByRole('button', { name: `Remove Cron ${suffix}` }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Remove application' });
    await confirmation.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText(`Application “Cron ${suffix}” removed.`)).toBeVisible();
    expect(await api.get(`/organizations/${organization.id}/applications`)).toEqual([]);
  });
  test("a machine-to-machine application's organizations tab lists its organizations and roles", async ({ page }) => {
    const api = await openOrganizations(page);
    const suffix = randomBytes(4).toString('hex');
    const organization = await api.post<Named>('/organizations', { name: unique('Umbrella') });
    const role = await api.post<Named>('/organization-roles', { name: `sync-${suffix}`, type: 'MachineToMachine' });
    const app = await api.createMachineToMachineApp(`Sync ${suffix}`);
    await api.post(`/organizations/${organization.id}/applications`, { applicationIds: [app.id] });
    await api.post(`/organizations/${organization.id}/applications/${app.id}/roles`, {
      organizationRoleIds: [role.id],
    });
    const spa = await api.post<Named>('/applications', { name: `Web ${suffix}`, type: 'SPA' });

    await page.goto(consolePath(`applications/${app.id}/organizations`));
    await expectHeading(page, app.name);
    await expect(row(page, organization.name)).toContainText(role.name);
    await snap(page, 'application-organizations');
    await row(page, organization.name).getByRole('link').first().click();
    await expectHeading(page, organization.name);
    await expect(page).toHaveURL(/\/machine-to-machine$/);
    await expect(row(page, app.name)).toContainText(role.name);

    await page.goto(consolePath(`applications/${spa.id}/settings`));
    await expectHeading(page, spa.name);
    await expect(tab(page, 'Organizations'), 'only machine-to-machine apps join organizations').toHaveCount(0);
  });
});
