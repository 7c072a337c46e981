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
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-roles-${name}.png`, fullPage: true });
}

/** Each test makes its own data: a suffix keeps its names apart from every other test's. */
const unique = (prefix: string) => `${prefix} ${randomBytes(4).toString('hex')}`;

type Role = { id: string; name: string; description: string; type: string };

async function openRoles(page: Page, path = 'roles'): Promise<ManagementApi> {
  await openSignedIn(page, consolePath(path));
  await waitForShell(page);
  return managementApiAs(page);
}

/** The roles whose name is exactly `name`, as the API has them (checks that nothing else was saved). */
async function rolesNamed(api: ManagementApi, name: string): Promise<Role[]> {
  const roles = await api.get<Role[]>(`/roles?search=${encodeURIComponent(name)}&page_size=100`);
  return roles.filter((role) => role.name === name);
}

function createDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Create role' });
}

/** In a permission picker: opens an API resource (found by search) and ticks the named permissions. */
async function pickPermissions(dialog: Locator, resourceName: string, permissions: readonly string[]) {
  await dialog.getByRole('searchbox').first().fill(resourceName);
  const resource = dialog.getByRole('button', { name: new RegExp(resourceName) });
  await resource.click();
  await expect(resource).toHaveAttribute('aria-expanded', 'true');
  const scopes = dialog.getByRole('list', { name: `Permissions of ${resourceName}` });
  for (const permission of permissions) await scopes.getByRole('checkbox', { name: permission }).check();
}

function row(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

test.describe('roles', () => {
  test('creates a user role with permissions, sees them, and removes one (Esc and Back cancel the confirmation)', async ({
    page,
  }) => {
    const api = await openRoles(page);
    const resource = await api.createResourceWithScopes(unique('Orders API'), [
      { name: 'read:orders', description: 'Read orders' },
      { name: 'write:orders', description: 'Change orders' },
      { name: 'delete:orders', description: 'Delete orders' },
    ]);
    const name = unique('Store clerk');

    await page.getByRole('button', { name: 'Create role' }).click();
    await expect(page).toHaveURL(/\/roles\/create$/);
    const dialog = createDialog(page);
    await expect(dialog.getByRole('radio', { name: /User role/ }), 'user roles are the default type').toBeChecked();
    await dialog.getByLabel('Role name').fill(name);
    await dialog.getByLabel('Description').fill('Handles orders');
    await pickPermissions(dialog, resource.name, ['read:orders', 'write:orders']);
    await expect(dialog.getByRole('heading', { name: 'Selected: 2' })).toBeVisible();
    await snap(page, 'create');
    await dialog.getByRole('button', { name: 'Create role' }).click();

    await expect(page.getByText(`Role “${name}” created.`)).toBeVisible();
    await expect(page).toHaveURL(/\/roles\/[0-9a-z]+\/permissions$/);
    await expectHeading(page, name);
    const table = page.getByRole('table', { name: 'Permissions' });
    await expect(row(table.page(), 'read:orders')).toContainText(resource.name);
    await expect(row(page, 'write:orders')).toContainText('Change orders');
    await expect(row(page, 'delete:orders'), 'only the picked permissions').toHaveCount(0);
    await snap(page, 'permissions');

    const remove = page.getByRole('button', { name: `Remove permission write:orders of ${resource.name}` });
    const confirmation = page.getByRole('alertdialog', { name: 'Remove permission' });
    await remove.click();
    await expect(confirmation).toContainText('Users who hold the role will lose it.');
    await snap(page, 'remove-permission');
    await page.keyboard.press('Escape');
    await expect(confirmation, 'Esc cancels').toBeHidden();
    await expect(row(page, 'write:orders')).toBeVisible();

    await remove.click();
    await expect(confirmation).toBeVisible();
    await page.goBack();
    await expect(confirmation, 'browser Back cancels').toBeHidden();
    const [role] = await rolesNamed(api, name);
    expect(role, 'the role exists').toBeDefined();
    const kept = await api.get<{ name: string }[]>(`/roles/${role?.id}/scopes`);
    expect(kept.map((scope) => scope.name).sort(), 'a cancelled removal removes nothing').toEqual([
      'read:orders',
      'write:orders',
    ]);

    await page.goForward();
    await remove.click();
    await confirmation.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Permission “write:orders” removed.')).toBeVisible();
    await expect(row(page, 'write:orders')).toHaveCount(0);
    await page.reload();
    await expect(row(page, 'read:orders')).toBeVisible();
    await expect(row(page, 'write:orders')).toHaveCount(0);
  });

  test('assigns more permissions to a role; one it already holds is marked, management API ones are not offered', async ({
    page,
  }) => {
    const api = await openRoles(page);
    const resource = await api.createResourceWithScopes(unique('Stock API'), [
      { name: 'read:stock' },
      { name: 'write:stock' },
    ]);
    const [readStock, writeStock] = resource.scopes;
    const role = await api.createRole({ name: unique('Stock keeper'), scopeIds: [readStock?.id ?? ''] });

    await page.goto(consolePath(`roles/${role.id}/permissions`));
    await expect(row(page, 'read:stock')).toBeVisible();
    await page.getByRole('button', { name: 'Assign permissions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign permissions' });

    await pickPermissions(dialog, 'Gatehouse Management API', []);
    await expect(
      dialog.getByText('Management API permissions can only be given to machine-to-machine roles.'),
    ).toBeVisible();
    await expect(dialog.getByRole('checkbox', { name: /^all/ })).toBeDisabled();

    // read:stock is held already and the picker cannot know it: the server's 422 marks it, the rest goes through.
    await pickPermissions(dialog, resource.name, ['read:stock', 'write:stock']);
    await dialog.getByRole('button', { name: 'Assign permissions' }).click();
    await expect(dialog.getByRole('alert')).toContainText('already assigned to this role');
    await expect(dialog.getByRole('checkbox', { name: 'read:stock Already assigned to this role' })).toBeDisabled();
    await expect(dialog.getByRole('heading', { name: 'Selected: 1' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Assign permissions' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Permissions assigned: 1.')).toBeVisible();
    await expect(row(page, 'write:stock')).toBeVisible();
    const scopes = await api.get<{ id: string }[]>(`/roles/${role.id}/scopes`);
    expect(scopes.map((scope) => scope.id).sort()).toEqual([readStock?.id, writeStock?.id].sort());
  });

  test('gives a user role to a user and takes it away', async ({ page }) => {
    const api = await openRoles(page);
    const username = `clerk_${randomBytes(4).toString('hex')}`;
    const user = await api.createUser({ username, name: 'Grace Hopper' });
    const role = await api.createRole({ name: unique('Cashier'), type: 'User' });

    await page.goto(consolePath(`roles/${role.id}`));
    await expect(page, '{id} opens the permissions tab').toHaveURL(new RegExp(`/roles/${role.id}/permissions$`));
    const tabs = page.getByRole('navigation', { name: `${role.name} sections` });
    await expect(
      tabs.getByRole('link', { name: 'Machine-to-machine apps' }),
      'user roles have no apps tab',
    ).toHaveCount(0);
    await tabs.getByRole('link', { name: 'Users' }).click();
    await expect(page.getByText('No user holds this role yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Assign users' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign users' });
    await dialog.getByRole('searchbox').fill(username);
    const candidates = dialog.getByRole('list', { name: 'Search results' });
    await expect(candidates.getByRole('checkbox')).toHaveCount(1);
    await candidates.getByRole('checkbox', { name: /Grace Hopper/ }).check();
    await expect(dialog.getByRole('heading', { name: 'Selected: 1' })).toBeVisible();
    await snap(page, 'assign-users');
    await dialog.getByRole('button', { name: 'Assign users' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Users assigned: 1.')).toBeVisible();
    await expect(row(page, 'Grace Hopper')).toContainText(username);
    const holders = await api.get<{ id: string }[]>(`/roles/${role.id}/users`);
    expect(holders.map((holder) => holder.id)).toEqual([user.id]);

    await page.getByRole('button', { name: 'Assign users' }).click();
    await dialog.getByRole('searchbox').fill(username);
    await expect(candidates.getByText('No results'), 'a holder is no longer a candidate').toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Remove the role from Grace Hopper' }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Remove user' });
    await expect(confirmation).toContainText(`Take “${role.name}” away from Grace Hopper?`);
    await confirmation.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('User “Grace Hopper” removed.')).toBeVisible();
    await expect(page.getByText('No user holds this role yet.')).toBeVisible();
    expect(await api.get(`/roles/${role.id}/users`)).toEqual([]);
  });

  test('creates a machine-to-machine role, gives it to an M2M application and takes it away', async ({ page }) => {
    const api = await openRoles(page);
    const app = await api.createMachineToMachineApp(unique('Billing job'));
    const name = unique('Billing robot');

    await page.getByRole('button', { name: 'Create role' }).click();
    const dialog = createDialog(page);
    await dialog.getByRole('radio', { name: /Machine-to-machine role/ }).check();
    await dialog.getByLabel('Role name').fill(name);
    await dialog.getByLabel('Role name').press('Enter');
    await expect(page).toHaveURL(/\/roles\/[0-9a-z]+\/permissions$/);
    await expectHeading(page, name);
    await expect(page.getByRole('main').getByText('Machine-to-machine', { exact: true })).toBeVisible();
    const tabs = page.getByRole('navigation', { name: `${name} sections` });
    await expect(tabs.getByRole('link', { name: 'Users' }), 'M2M roles have no users tab').toHaveCount(0);
    await tabs.getByRole('link', { name: 'Machine-to-machine apps' }).click();
    await expect(page).toHaveURL(/\/machine-to-machine-apps$/);

    await page.getByRole('button', { name: 'Assign applications' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign applications' });
    await assign.getByRole('searchbox').fill(app.name);
    await assign.getByRole('list', { name: 'Search results' }).getByRole('checkbox', { name: app.name }).check();
    await assign.getByRole('button', { name: 'Assign applications' }).click();
    await expect(assign).toBeHidden();
    await expect(row(page, app.name)).toBeVisible();

    await page.getByRole('button', { name: `Remove the role from ${app.name}` }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Remove application' });
    await expect(confirmation).toContainText('The application will lose the role');
    await confirmation.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No machine-to-machine application holds this role yet.')).toBeVisible();
    const [role] = await rolesNamed(api, name);
    expect(await api.get(`/roles/${role?.id}/applications`)).toEqual([]);
  });

  test('edits the name and description, which stay after a reload', async ({ page }) => {
    const api = await openRoles(page);
    const role = await api.createRole({ name: unique('Auditor'), description: 'Reads reports' });
    const renamed = unique('Senior auditor');

    await page.goto(consolePath(`roles/${role.id}/general`));
    await expect(page.getByRole('radio'), 'the type is shown, not offered').toHaveCount(0);
    await expect(page.getByText('The type is chosen when the role is created and cannot change.')).toBeVisible();
    await page.getByLabel('Role name').fill(renamed);
    await page.getByLabel('Description').fill('Reads and signs reports');

    // Unsaved changes: leaving asks first, and Stay keeps the edits.
    await page.getByRole('link', { name: 'Permissions' }).click();
    const leave = page.getByRole('alertdialog');
    await expect(leave).toContainText('You have unsaved changes.');
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect(page.getByLabel('Role name')).toHaveValue(renamed);

    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Role saved.')).toBeVisible();
    await expectHeading(page, renamed);
    await page.reload();
    await expect(page.getByLabel('Role name')).toHaveValue(renamed);
    await expect(page.getByLabel('Description')).toHaveValue('Reads and signs reports');
    const saved = await api.get<Role>(`/roles/${role.id}`);
    expect(saved).toMatchObject({ name: renamed, description: 'Reads and signs reports' });
  });

  test('deletes a role after a confirmation that says who loses it', async ({ page }) => {
    const api = await openRoles(page);
    const role = await api.createRole({ name: unique('Temporary'), type: 'MachineToMachine' });
    const app = await api.createMachineToMachineApp(unique('Cron'));
    await api.post(`/roles/${role.id}/applications`, { applicationIds: [app.id] });

    await page.goto(consolePath(`roles/${role.id}/permissions`));
    await expectHeading(page, role.name);
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete role' }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Delete role' });
    await expect(confirmation).toContainText('Applications that hold it now: 1.');
    await snap(page, 'delete');
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirmation).toBeHidden();
    expect(await rolesNamed(api, role.name), 'cancel deletes nothing').toHaveLength(1);

    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete role' }).click();
    await confirmation.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`Role “${role.name}” deleted.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${consolePath('roles')}$`));
    expect(await rolesNamed(api, role.name)).toEqual([]);
    await page.goto(consolePath(`roles/${role.id}/permissions`));
    await expect(page.getByRole('heading', { name: 'This item does not exist or was deleted.' })).toBeVisible();
  });

  test('refuses an empty, a too long and a duplicate name, and a too long description, saving nothing', async ({
    page,
  }) => {
    const api = await openRoles(page);
    const taken = await api.createRole({ name: unique('Taken') });
    const long = 'x'.repeat(129);

    await page.getByRole('button', { name: 'Create role' }).click();
    const dialog = createDialog(page);
    const submit = dialog.getByRole('button', { name: 'Create role' });
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/roles')) posts.push(request.url());
    });

    await submit.click();
    await expect(dialog.getByTestId('name-error')).toHaveText('Role name is required.');
    await dialog.getByLabel('Role name').fill('   ');
    await submit.click();
    await expect(dialog.getByTestId('name-error'), 'spaces alone are no name').toHaveText('Role name is required.');

    await dialog.getByLabel('Role name').fill(long);
    await dialog.getByLabel('Description').fill(long);
    await submit.click();
    await expect(dialog.getByTestId('name-error')).toHaveText('Role name can have at most 128 characters.');
    await expect(dialog.getByTestId('description-error')).toHaveText('Description can have at most 128 characters.');
    expect(posts, 'the form checks the rules before any request').toEqual([]);
    await snap(page, 'create-errors');

    await dialog.getByLabel('Role name').fill(taken.name);
    await dialog.getByLabel('Description').fill('x'.repeat(128));
    await submit.click();
    await expect(dialog.getByTestId('name-error')).toHaveText('A role with this name already exists.');
    await expect(dialog.getByTestId('description-error')).toHaveCount(0);
    await expect(page).toHaveURL(/\/roles\/create$/);
    expect(await rolesNamed(api, taken.name), 'the duplicate was not saved').toHaveLength(1);
    expect(await rolesNamed(api, long)).toEqual([]);

    // The general tab refuses the same way and keeps the stored values.
    const other = await api.createRole({ name: unique('Other') });
    await page.goto(consolePath(`roles/${other.id}/general`));
    await page.getByLabel('Role name').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('name-error')).toHaveText('Role name is required.');
    await page.getByLabel('Role name').fill(taken.name);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('name-error')).toHaveText('A role with this name already exists.');
    expect((await api.get<Role>(`/roles/${other.id}`)).name).toBe(other.name);
  });

  test('searches and filters the list on the server, keeping both in the URL', async ({ page }) => {
    const api = await openRoles(page);
    const tag = randomBytes(4).toString('hex');
    const userRole = await api.createRole({ name: `Reader ${tag}`, type: 'User' });
    const machineRole = await api.createRole({ name: `Robot ${tag}`, type: 'MachineToMachine' });
    await page.reload();

    const list = page.getByRole('table', { name: 'Roles' });
    await page.getByRole('searchbox').fill(tag);
    await expect(page).toHaveURL(new RegExp(`search=${tag}`));
    await expect(list.getByRole('row')).toHaveCount(3); // the header and two roles
    await page.getByRole('combobox', { name: 'Role type' }).selectOption('MachineToMachine');
    await expect(page).toHaveURL(/type=MachineToMachine/);
    await expect(list.getByRole('row')).toHaveCount(2);
    await expect(row(page, machineRole.name)).toContainText('Machine-to-machine');
    await page.reload();
    await expect(page.getByRole('searchbox'), 'the search survives a reload').toHaveValue(tag);
    await expect(row(page, machineRole.name)).toBeVisible();
    await expect(row(page, userRole.name)).toHaveCount(0);

    await page.getByRole('searchbox').fill(`nothing-${tag}`);
    await expect(page.getByTestId('no-results')).toHaveText(`No results for “\u2068nothing-${tag}\u2069”`);
    // Typing replaces the history entry, choosing a filter adds one: Back returns to the search without the filter.
    await page.goBack();
    await expect(page.getByRole('searchbox')).toHaveValue(tag);
    await expect(page.getByRole('combobox', { name: 'Role type' })).toHaveValue('');
    await expect(row(page, userRole.name)).toBeVisible();
    await expect(row(page, machineRole.name)).toBeVisible();
    await page.goto(consolePath(`roles?search=${tag}&type=MachineToMachine`));
    await row(page, machineRole.name).getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/roles/${machineRole.id}/permissions$`));
  });

  test('the command palette finds a role by name', async ({ page }) => {
    const api = await openRoles(page);
    const role = await api.createRole({ name: unique('Palette role') });
    await page.keyboard.press('Control+K');
    await page.getByRole('combobox', { name: 'Search pages' }).fill(role.name);
    await expect(page.getByRole('option', { name: new RegExp(role.name) })).toBeVisible();
    await page.getByRole('option', { name: new RegExp(role.name) }).click();
    await expect(page).toHaveURL(new RegExp(`/roles/${role.id}/permissions$`));
    await expectHeading(page, role.name);
  });
});
