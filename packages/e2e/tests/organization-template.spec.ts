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
    await page.screenshot({ path: `${screenshots}/${edition}-organization-template-${name}.png`, fullPage: true });
}

const suffix = () => randomBytes(4).toString('hex');
/** Each test makes its own data: a suffix keeps its names apart from every other test's. */
const unique = (prefix: string) => `${prefix} ${suffix()}`;

type OrganizationRole = {
  id: string;
  name: string;
  description: string | null;
  type: string;
  scopes: { id: string; name: string }[];
  resourceScopes: { id: string; name: string; resource: { id: string; name: string } }[];
};
type OrganizationScope = { id: string; name: string; description: string | null };

async function openTemplate(page: Page, path = 'organization-template'): Promise<ManagementApi> {
  await openSignedIn(page, consolePath(path));
  await waitForShell(page);
  return managementApiAs(page);
}

/** The organization roles named exactly `name`, as the API has them (checks that nothing else was saved). */
async function rolesNamed(api: ManagementApi, name: string): Promise<OrganizationRole[]> {
  const roles = await api.get<OrganizationRole[]>(`/organization-roles?q=${encodeURIComponent(name)}&page_size=100`);
  return roles.filter((role) => role.name === name);
}

async function scopesNamed(api: ManagementApi, name: string): Promise<OrganizationScope[]> {
  const scopes = await api.get<OrganizationScope[]>(`/organization-scopes?q=${encodeURIComponent(name)}&page_size=100`);
  return scopes.filter((scope) => scope.name === name);
}

function row(scope: Page | Locator, text: string): Locator {
  return scope.getByRole('row').filter({ hasText: text });
}

/** In the organization permission picker: finds a permission by search and ticks it. */
async function pickOrganizationPermission(dialog: Locator, name: string) {
  await dialog.getByPlaceholder('Search organization permissions').fill(name);
  await dialog.getByRole('list', { name: 'Organization permissions' }).getByRole('checkbox', { name }).check();
}

/** In the API permission picker: opens an API resource (found by search) and ticks the named permissions. */
async function pickApiPermissions(dialog: Locator, resourceName: string, permissions: readonly string[]) {
  await dialog.getByPlaceholder('Search API resources').fill(resourceName);
  const resource = dialog.getByRole('button', { name: new RegExp(resourceName) });
  await resource.click();
  await expect(resource).toHaveAttribute('aria-expanded', 'true');
  const scopes = dialog.getByRole('list', { name: `Permissions of ${resourceName}` });
  for (const permission of permissions) await scopes.getByRole('checkbox', { name: permission }).check();
}

test.describe('organization template', () => {
  test('redirects to the roles tab, and a role to its permissions tab', async ({ page }) => {
    const api = await openTemplate(page);
    await expect(page, 'organization-template opens the roles tab').toHaveURL(
      new RegExp(`${consolePath('organization-template/organization-roles')}$`),
    );
    await expectHeading(page, 'Organization template');
    const tabs = page.getByRole('navigation', { name: 'Organization template' });
    await expect(tabs.getByRole('link', { name: 'Organization roles' })).toHaveAttribute('aria-current', 'page');
    await tabs.getByRole('link', { name: 'Organization permissions' }).click();
    await expect(page).toHaveURL(/\/organization-template\/organization-permissions$/);
    await page.goBack();
    await expect(page, 'Back skips the bare template path').toHaveURL(/\/organization-roles$/);

    const sidebarLink = page.getByRole('link', { name: 'Organization template' });
    await expect(sidebarLink).toBeVisible();

    const role = await api.post<{ id: string; name: string }>('/organization-roles', { name: unique('Viewer') });
    // The link the organizations area builds for a member's role.
    await page.goto(consolePath(`organization-template/organization-roles/${role.id}`));
    await expect(page).toHaveURL(new RegExp(`/organization-roles/${role.id}/permissions$`));
    await expectHeading(page, role.name);
    await page.getByRole('link', { name: 'Back to organization roles' }).click();
    await expect(page).toHaveURL(/\/organization-template\/organization-roles$/);
  });

  test('defines a permission, a role holding it and an API permission, edits the role, removes a permission and deletes it', async ({
    page,
  }) => {
    test.slow(); // a long scenario on a shared two-core machine
    const api = await openTemplate(page, 'organization-template/organization-permissions');
    const resource = await api.createResourceWithScopes(unique('Invoices API'), [
      { name: 'read:invoices', description: 'Read invoices' },
      { name: 'pay:invoices', description: 'Pay invoices' },
    ]);
    const permission = `manage:members:${suffix()}`;
    const roleName = unique('Billing admin');

    // The organization permission.
    await page.getByRole('button', { name: 'Create permission' }).click();
    const createPermission = page.getByRole('dialog', { name: 'Create organization permission' });
    await createPermission.getByLabel('Permission name').fill(permission);
    await createPermission.getByLabel('Description').fill('Invite and remove members');
    await createPermission.getByRole('button', { name: 'Create permission' }).click();
    await expect(page.getByText(`Organization permission “${permission}” created.`)).toBeVisible();
    await expect(row(page, permission)).toContainText('Invite and remove members');

    // The role, with that permission and one of the API's.
    await page.getByRole('link', { name: 'Organization roles' }).click();
    await page.getByRole('button', { name: 'Create organization role' }).click();
    await expect(page).toHaveURL(/\/organization-roles\/create$/);
    const dialog = page.getByRole('dialog', { name: 'Create organization role' });
    await expect(dialog.getByRole('radio', { name: /^User/ }), 'User is the default type').toBeChecked();
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(roleName);
    await dialog.getByLabel('Description').fill('Handles the bills');
    await pickOrganizationPermission(dialog, permission);
    await pickApiPermissions(dialog, resource.name, ['read:invoices']);
    await snap(page, 'create-role');
    await dialog.getByRole('button', { name: 'Create role' }).click();
    await expect(page.getByText(`Organization role “${roleName}” created.`)).toBeVisible();
    await expect(page).toHaveURL(/\/organization-roles\/[0-9a-z]+\/permissions$/);
    await expectHeading(page, roleName);

    const organizationTable = page.getByRole('table', { name: 'Organization permissions' });
    const apiTable = page.getByRole('table', { name: 'API resource permissions' });
    await expect(row(organizationTable, permission)).toContainText('Invite and remove members');
    await expect(row(apiTable, 'read:invoices')).toContainText(resource.name);
    await expect(row(apiTable, 'pay:invoices'), 'only the picked API permission').toHaveCount(0);
    const [saved] = await rolesNamed(api, roleName);
    expect(saved?.scopes.map((scope) => scope.name)).toEqual([permission]);
    expect(saved?.resourceScopes.map((scope) => scope.name)).toEqual(['read:invoices']);
    await snap(page, 'role-permissions');

    // The list shows its type and how many permissions of each kind it holds.
    await page.getByRole('link', { name: 'Back to organization roles' }).click();
    await page.getByPlaceholder('Search by role name').fill(roleName);
    await expect(row(page, roleName)).toContainText('User');
    await expect(row(page, roleName)).toContainText('1 organization · 1 API');
    await row(page, roleName).getByRole('link').click();

    // One more API permission through the assign dialog.
    await page.getByRole('button', { name: 'Assign permissions' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign permissions' });
    await pickApiPermissions(assign, resource.name, ['pay:invoices']);
    await assign.getByRole('button', { name: 'Assign', exact: true }).click();
    await expect(assign).toBeHidden();
    await expect(row(apiTable, 'pay:invoices')).toBeVisible();

    // Edit the role's name and description.
    const renamed = unique('Finance admin');
    await page.getByRole('link', { name: 'General' }).click();
    await expect(page.getByRole('radio'), 'the type is shown, not offered').toHaveCount(0);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed);
    await page.getByLabel('Description').fill('Handles bills and refunds');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Organization role saved.')).toBeVisible();
    await expectHeading(page, renamed);
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(renamed);
    expect(await api.get<OrganizationRole>(`/organization-roles/${saved?.id}`)).toMatchObject({
      name: renamed,
      description: 'Handles bills and refunds',
    });

    // Remove a permission: cancel first, then confirm.
    await page.getByRole('link', { name: 'Permissions' }).click();
    const remove = page.getByRole('button', { name: 'Remove read:invoices' });
    const confirmation = page.getByRole('alertdialog', { name: 'Remove permission?' });
    await remove.click();
    await expect(confirmation).toContainText(`Everyone holding ${renamed} in any organization loses read:invoices.`);
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    await expect(row(apiTable, 'read:invoices'), 'cancel removes nothing').toBeVisible();
    await remove.click();
    await confirmation.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Permission “read:invoices” removed.')).toBeVisible();
    await expect(row(apiTable, 'read:invoices')).toHaveCount(0);
    // GET /organization-roles/{id} is the role alone (reference); its permissions are its two relation lists.
    const permissionNames = async (kind: 'scopes' | 'resource-scopes') =>
      (await api.get<{ name: string }[]>(`/organization-roles/${saved?.id}/${kind}`)).map((scope) => scope.name);
    expect(await permissionNames('resource-scopes')).toEqual(['pay:invoices']);
    expect(await permissionNames('scopes')).toEqual([permission]);

    // Deleting the organization permission names the role that loses it.
    await page.goto(consolePath('organization-template/organization-permissions'));
    await page.getByPlaceholder('Search by permission name').fill(permission);
    await page.getByRole('button', { name: `Delete ${permission}` }).click();
    const deletePermission = page.getByRole('alertdialog', { name: 'Delete organization permission?' });
    await expect(deletePermission).toContainText(`these organization roles lose it: ${renamed}.`);
    await snap(page, 'delete-permission');
    await deletePermission.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`Organization permission “${permission}” deleted.`)).toBeVisible();
    expect(await scopesNamed(api, permission)).toEqual([]);
    expect(await permissionNames('scopes')).toEqual([]);

    // Delete the role.
    await page.goto(consolePath(`organization-template/organization-roles/${saved?.id}/permissions`));
    await expectHeading(page, renamed);
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const deleteRole = page.getByRole('alertdialog', { name: 'Delete organization role?' });
    await expect(deleteRole).toContainText(`${renamed} will be deleted.`);
    await deleteRole.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`Organization role “${renamed}” deleted.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${consolePath('organization-template/organization-roles')}$`));
    expect(await rolesNamed(api, renamed)).toEqual([]);
  });

  test('refuses duplicate and invalid names with the reason, saving nothing', async ({ page }) => {
    test.slow(); // many round trips on a shared two-core machine
    const api = await openTemplate(page, 'organization-template/organization-permissions');
    const takenPermission = await api.post<OrganizationScope>('/organization-scopes', { name: `read:${suffix()}` });
    const takenRole = await api.post<OrganizationRole>('/organization-roles', { name: unique('Taken') });
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/organization-(roles|scopes)$/.test(request.url()))
        posts.push(request.url());
    });

    // Permissions: the rules are checked before any request; a duplicate is the server's message on the field.
    await page.getByRole('button', { name: 'Create permission' }).click();
    const permissionDialog = page.getByRole('dialog', { name: 'Create organization permission' });
    const createPermission = permissionDialog.getByRole('button', { name: 'Create permission' });
    await createPermission.click();
    await expect(permissionDialog.getByTestId('name-error')).toHaveText('Permission name is required.');
    await permissionDialog.getByLabel('Permission name').fill('read members');
    await createPermission.click();
    await expect(permissionDialog.getByTestId('name-error')).toHaveText(
      'A permission name is one word: no spaces, quotes or backslashes.',
    );
    await permissionDialog.getByLabel('Permission name').fill('x'.repeat(129));
    await createPermission.click();
    await expect(permissionDialog.getByTestId('name-error')).toHaveText(
      'Permission name must be at most 128 characters.',
    );
    expect(posts, 'invalid names send nothing').toEqual([]);
    await permissionDialog.getByLabel('Permission name').fill(takenPermission.name);
    await createPermission.click();
    await expect(permissionDialog.getByTestId('name-error')).toContainText(/already|in use|exists/i);
    await snap(page, 'permission-duplicate');
    expect(await scopesNamed(api, takenPermission.name), 'the duplicate was not saved').toHaveLength(1);
    await permissionDialog.getByRole('button', { name: 'Cancel' }).click();

    // Roles: the same, in the create dialog and on the general tab.
    await page.goto(consolePath('organization-template/organization-roles/create'));
    const roleDialog = page.getByRole('dialog', { name: 'Create organization role' });
    const createRole = roleDialog.getByRole('button', { name: 'Create role' });
    posts.length = 0;
    await roleDialog.getByRole('textbox', { name: 'Name', exact: true }).fill('   ');
    await createRole.click();
    await expect(roleDialog.getByTestId('name-error'), 'spaces alone are no name').toHaveText('Name is required.');
    await roleDialog.getByRole('textbox', { name: 'Name', exact: true }).fill('x'.repeat(129));
    await createRole.click();
    await expect(roleDialog.getByTestId('name-error')).toHaveText('Name must be at most 128 characters.');
    expect(posts, 'invalid names send nothing').toEqual([]);
    await roleDialog.getByRole('textbox', { name: 'Name', exact: true }).fill(takenRole.name);
    await createRole.click();
    await expect(roleDialog.getByTestId('name-error')).toContainText(/already|in use|exists/i);
    await expect(page).toHaveURL(/\/organization-roles\/create$/);
    expect(await rolesNamed(api, takenRole.name), 'the duplicate was not saved').toHaveLength(1);

    const other = await api.post<OrganizationRole>('/organization-roles', { name: unique('Other') });
    await page.goto(consolePath(`organization-template/organization-roles/${other.id}/general`));
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(takenRole.name);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('name-error')).toContainText(/already|in use|exists/i);
    expect((await api.get<OrganizationRole>(`/organization-roles/${other.id}`)).name).toBe(other.name);
  });

  test('the command palette finds an organization role by name', async ({ page }) => {
    const api = await openTemplate(page);
    const role = await api.post<OrganizationRole>('/organization-roles', { name: unique('Palette member') });
    await page.keyboard.press('Control+K');
    await page.getByRole('combobox', { name: 'Search pages' }).fill(role.name);
    const option = page.getByRole('option', { name: new RegExp(role.name) });
    await expect(option).toContainText('Organization role');
    await option.click();
    await expect(page).toHaveURL(new RegExp(`/organization-roles/${role.id}/permissions$`));
  });
});
