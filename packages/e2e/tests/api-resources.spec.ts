import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading, watchPageErrors } from '../support/console.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots)
    await page.screenshot({ path: `${screenshots}/${edition}-api-resources-${name}.png`, fullPage: true });
}

/** Each test makes its own data: a suffix keeps its names and identifiers apart from every other test's. */
function uniqueApi(prefix: string) {
  const suffix = randomBytes(4).toString('hex');
  return {
    name: `${prefix} ${suffix}`,
    indicator: `https://${prefix.toLowerCase().replace(/\W+/g, '-')}-${suffix}.example.com/api`,
  };
}

async function openApiResources(page: Page): Promise<void> {
  await openSignedIn(page, consolePath('api-resources'));
  await waitForShell(page);
  await expectHeading(page, 'API resources');
}

function createDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Create API resource' });
}

/** Creates an API resource through the create dialog; ends on its guide, as a new resource does. */
async function createApiResource(page: Page, api: { name: string; indicator: string }): Promise<void> {
  await page.getByRole('button', { name: 'Create API resource' }).click();
  await expect(page).toHaveURL(/\/api-resources\/create$/);
  const dialog = createDialog(page);
  await dialog.getByLabel('API name').fill(api.name);
  await dialog.getByLabel('API identifier').fill(api.indicator);
  await dialog.getByRole('button', { name: 'Create API resource' }).click();
  await expect(page.getByText(`API resource “${api.name}” created.`)).toBeVisible();
  await expect(page).toHaveURL(/\/api-resources\/[0-9a-z]+\/guide\/express$/);
  await expectHeading(page, `Protect ${api.name}`);
}

/** Searches the list on the page (the server searches; the URL keeps the text). */
async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox').fill(text);
  const query = new URLSearchParams({ search: text }).toString();
  await expect(page).toHaveURL((url) => url.search.includes(query));
}

function table(page: Page, name: 'API resources' | 'Permissions'): Locator {
  return page.getByRole('table', { name });
}

function row(scope: Locator, text: string): Locator {
  return scope.getByRole('row').filter({ hasText: text });
}

/** Opens a resource from the list (searched by name) on the given tab. */
async function openApiResource(page: Page, name: string, tab: 'Permissions' | 'General' = 'Permissions') {
  await page.goto(consolePath('api-resources'));
  await search(page, name);
  await table(page, 'API resources').getByRole('link', { name }).click();
  await expectHeading(page, name);
  if (tab !== 'Permissions') await page.getByRole('link', { name: tab }).click();
  await expect(page.getByRole('link', { name: tab })).toHaveAttribute('aria-current', 'page');
}

/** The detail page's header (name, identifier, tags), apart from the tab below it. */
function detailHeader(page: Page, name: string): Locator {
  return page.locator('header', { has: page.getByRole('heading', { level: 1, name }) });
}

async function createPermission(page: Page, name: string, description: string): Promise<void> {
  await page.getByRole('button', { name: 'Create permission' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create permission' });
  await dialog.getByLabel('Permission name').fill(name);
  await dialog.getByLabel('Description').fill(description);
  await dialog.getByRole('button', { name: 'Create permission' }).click();
  await expect(page.getByText(`Permission “${name}” created.`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

test.describe('API resources', () => {
  test('creates an API resource, opens its guide, then adds, searches, describes and deletes permissions', async ({
    page,
  }) => {
    const problems = watchPageErrors(page);
    const api = uniqueApi('Orders API');
    await openApiResources(page);
    await createApiResource(page, api);

    // The guide: this API's identifier and the tenant's issuer, in the values and in the code.
    const values = page.getByRole('definition');
    await expect(values.filter({ hasText: api.indicator })).toBeVisible();
    // The default tenant's issuer keeps the plain /oidc path in both editions.
    const issuer = new URL('/oidc', page.url()).toString();
    await expect(values.filter({ hasText: issuer }).first()).toBeVisible();
    await expect(values.filter({ hasText: `${issuer}/jwks` })).toBeVisible();
    const code = page.getByRole('region', { name: 'Verify access tokens', exact: true });
    await expect(code).toContainText(`const audience = "${api.indicator}";`);
    await expect(code).toContainText(`const issuer = "${issuer}";`);
    await page.getByRole('link', { name: 'Python · Flask + PyJWT' }).click();
    await expect(page).toHaveURL(/\/guide\/python$/);
    await expect(page.getByRole('region', { name: 'Verify access tokens', exact: true })).toContainText(
      `AUDIENCE = "${api.indicator}"`,
    );
    await snap(page, 'guide');
    await page.getByRole('link', { name: 'Go to permissions' }).click();
    await expect(page).toHaveURL(/\/api-resources\/[0-9a-z]+\/permissions$/);
    await expectHeading(page, api.name);
    await expect(page.getByText('This API has no permissions yet.')).toBeVisible();

    await createPermission(page, 'read:orders', 'Read orders');
    await createPermission(page, 'write_orders', 'Change orders');
    const permissions = table(page, 'Permissions');
    await expect(permissions.getByRole('row')).toHaveCount(3); // header + 2
    await snap(page, 'permissions');

    // Server-side search; '_' is a literal character, not a wildcard.
    await search(page, 'write_');
    await expect(row(permissions, 'write_orders')).toBeVisible();
    await expect(row(permissions, 'read:orders')).toHaveCount(0);
    await search(page, 'read');
    await expect(row(permissions, 'read:orders')).toBeVisible();
    await expect(row(permissions, 'write_orders')).toHaveCount(0);
    await search(page, 'nothing-like-this');
    await expect(page.getByText('No permissions match your search.')).toBeVisible();
    await page.getByRole('searchbox').fill('');
    await expect(permissions.getByRole('row')).toHaveCount(3);

    // Edit a description; it is saved (a reload shows it).
    await permissions.getByRole('button', { name: 'Edit read:orders' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit permission read:orders' });
    await expect(edit.getByLabel('Description')).toHaveValue('Read orders');
    await edit.getByLabel('Description').fill('Read every order of the shop');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Permission “read:orders” saved.')).toBeVisible();
    await page.reload();
    await expect(row(table(page, 'Permissions'), 'read:orders')).toContainText('Read every order of the shop');

    // Delete one: the confirmation says roles lose it too.
    await table(page, 'Permissions').getByRole('button', { name: 'Delete write_orders' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('It is also removed from every role that has it');
    await expect(confirm.getByRole('button', { name: 'Cancel' }), 'a dangerous action starts on Cancel').toBeFocused();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Permission “write_orders” deleted.')).toBeVisible();
    await expect(row(table(page, 'Permissions'), 'write_orders')).toHaveCount(0);
    await page.reload();
    await expect(row(table(page, 'Permissions'), 'read:orders')).toBeVisible();
    await expect(row(table(page, 'Permissions'), 'write_orders')).toHaveCount(0);
    expect(problems()).toEqual([]);
  });

  test('makes an API the default (one at a time) and changes its token lifetime', async ({ page }) => {
    // Two APIs created and saved twice each, with reloads: over 30 s on a loaded 2-core CI machine.
    test.slow();
    const first = uniqueApi('Billing API');
    const second = uniqueApi('Invoices API');
    await openApiResources(page);
    await createApiResource(page, first);
    await page.goto(consolePath('api-resources'));
    await createApiResource(page, second);

    for (const api of [first, second]) {
      await openApiResource(page, api.name, 'General');
      const isDefault = page.getByRole('switch', { name: /Use as the default API/ });
      await expect(isDefault).not.toBeChecked();
      await isDefault.check();
      await expect(page.getByText(/stops being the default/)).toBeVisible();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('API resource saved.')).toBeVisible();
      await expect(detailHeader(page, api.name).getByText('Default API', { exact: true })).toBeVisible();
    }

    // The list shows the tag on the newest default only.
    await page.goto(consolePath('api-resources'));
    await search(page, second.name);
    await expect(row(table(page, 'API resources'), second.name)).toContainText('Default API');
    await search(page, first.name);
    await expect(row(table(page, 'API resources'), first.name)).toBeVisible();
    await expect(row(table(page, 'API resources'), first.name)).not.toContainText('Default API');
    await snap(page, 'list');

    // Token lifetime: the hint reads as a duration; a reload shows the saved value.
    await openApiResource(page, second.name, 'General');
    const ttl = page.getByLabel('Access token lifetime (seconds)');
    await expect(ttl).toHaveValue('3600');
    await expect(page.getByText('Tokens stay valid for 1 hour.', { exact: false })).toBeVisible();
    await ttl.fill('5400');
    await expect(page.getByText('Tokens stay valid for 1 hour, 30 minutes.', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('API resource saved.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save changes' }), 'nothing left to save').toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel('Access token lifetime (seconds)')).toHaveValue('5400');
    await expect(page.getByRole('switch', { name: /Use as the default API/ })).toBeChecked();
    await page.goto(consolePath('api-resources'));
    await search(page, second.name);
    await expect(row(table(page, 'API resources'), second.name)).toContainText('1 hour, 30 minutes');

    // Turning the default off says what follows.
    await openApiResource(page, second.name, 'General');
    await page.getByRole('switch', { name: /Use as the default API/ }).uncheck();
    await expect(page.getByText(/the tenant has no default API/)).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('API resource saved.')).toBeVisible();
    await expect(detailHeader(page, second.name).getByText('Default API', { exact: true })).toHaveCount(0);
  });

  test('refuses bad input with the error on the field, and saves nothing', async ({ page }) => {
    const problems = watchPageErrors(page);
    const taken = uniqueApi('Catalog API');
    await openApiResources(page);
    await createApiResource(page, taken);
    await page.getByRole('link', { name: 'Go to permissions' }).click();
    await createPermission(page, 'read:catalog', 'Read the catalog');

    // Create dialog: empty name, a relative and an invalid identifier are refused before any request.
    await page.goto(consolePath('api-resources/create'));
    const dialog = createDialog(page);
    await dialog.getByRole('button', { name: 'Create API resource' }).click();
    await expect(dialog.getByText('API name is required.')).toBeVisible();
    await expect(dialog.getByText('API identifier is required.')).toBeVisible();
    await expect(dialog.getByLabel('API name')).toHaveAttribute('aria-invalid', 'true');
    const other = uniqueApi('Refused API');
    await dialog.getByLabel('API name').fill(other.name);
    for (const bad of ['/api/orders', 'api.example.com', 'https://api.example.com/#part']) {
      await dialog.getByLabel('API identifier').fill(bad);
      await dialog.getByRole('button', { name: 'Create API resource' }).click();
      await expect(
        dialog.getByText('Enter an absolute URI without a fragment, such as https://api.example.com.'),
      ).toBeVisible();
    }

    // A duplicate identifier: the server's 422 shows on the field, and no toast repeats it.
    await dialog.getByLabel('API identifier').fill(taken.indicator);
    await dialog.getByRole('button', { name: 'Create API resource' }).click();
    await expect(dialog.getByText('An API resource with this identifier already exists.')).toBeVisible();
    await expect(dialog.getByLabel('API identifier')).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'already exists' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/api-resources\/create$/);
    await snap(page, 'create-errors');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await search(page, other.name);
    await expect(page.getByTestId('no-results'), 'nothing was created').toHaveText(
      `No results for “\u2068${other.name}\u2069”`,
    );

    // Permissions: a name with a space is refused; a name the API already has is the server's 422 on the field.
    await openApiResource(page, taken.name);
    await page.getByRole('button', { name: 'Create permission' }).click();
    const permission = page.getByRole('dialog', { name: 'Create permission' });
    await permission.getByRole('button', { name: 'Create permission' }).click();
    await expect(permission.getByText('Permission name is required.')).toBeVisible();
    await permission.getByLabel('Permission name').fill('read catalog');
    await permission.getByRole('button', { name: 'Create permission' }).click();
    await expect(permission.getByText(/Use one word without spaces/)).toBeVisible();
    await permission.getByLabel('Permission name').fill('read:catalog');
    await permission.getByRole('button', { name: 'Create permission' }).click();
    await expect(permission.getByText('This API resource already has a permission with this name.')).toBeVisible();
    await permission.getByRole('button', { name: 'Cancel' }).click();
    await expect(table(page, 'Permissions').getByRole('row'), 'still one permission').toHaveCount(2);

    // General: an empty name and lifetimes out of range are refused; after a reload nothing changed.
    await page.getByRole('link', { name: 'General' }).click();
    const ttl = page.getByLabel('Access token lifetime (seconds)');
    for (const bad of ['0', '31536001']) {
      await ttl.fill(bad);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Enter a whole number of seconds from 1 to 31,536,000.')).toBeVisible();
    }
    await page.getByLabel('API name').fill('  ');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('API name is required.')).toBeVisible();
    await snap(page, 'general-errors');
    // Leaving with unsaved changes asks first; staying keeps them.
    await page.getByRole('link', { name: 'Permissions' }).click();
    const leave = page.getByRole('alertdialog');
    await expect(leave).toContainText('You have unsaved changes.');
    await leave.getByRole('button', { name: 'Leave' }).click();
    await page.goto(consolePath('api-resources'));
    await openApiResource(page, taken.name, 'General');
    await expect(page.getByLabel('Access token lifetime (seconds)')).toHaveValue('3600');
    await expect(page.getByLabel('API name')).toHaveValue(taken.name);
    // The 422s and the refused values were handled on the page: nothing else failed.
    const unexpected = problems().filter(
      (problem) => !problem.includes('HTTP 422') && !problem.includes('status of 422'),
    );
    expect(unexpected).toEqual([]);
  });

  test('deletes an API resource after a confirmation that names what roles lose', async ({ page }) => {
    const api = uniqueApi('Legacy API');
    await openApiResources(page);
    await createApiResource(page, api);
    await page.getByRole('link', { name: 'Go to permissions' }).click();
    await expect(page).toHaveURL(/\/permissions$/);
    const detailUrl = page.url();
    await expect(detailHeader(page, api.name)).toContainText(api.indicator);

    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(api.name);
    await expect(confirm).toContainText('every role that grants them loses them');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(detailUrl);

    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`API resource “${api.name}” deleted.`)).toBeVisible();
    await expectHeading(page, 'API resources');
    await search(page, api.name);
    await expect(page.getByTestId('no-results')).toHaveText(`No results for “\u2068${api.name}\u2069”`);
    await page.goto(detailUrl);
    await expect(page.getByRole('heading', { name: 'This item does not exist or was deleted.' })).toBeVisible();
  });

  test('shows the built-in Management API read-only', async ({ page }) => {
    await openApiResources(page);
    await search(page, 'Management API');
    const management = row(table(page, 'API resources'), 'Gatehouse Management API');
    await expect(management).toContainText('Management API');
    await expect(management).toContainText('Read-only');
    await expect(management).toContainText(`https://default.gatehouse.internal/api`);
    await management.getByRole('link', { name: 'Gatehouse Management API' }).click();
    await expectHeading(page, 'Gatehouse Management API');

    await expect(page.getByRole('note')).toContainText('cannot be changed and it cannot be deleted');
    await expect(page.getByRole('button', { name: 'More actions' }), 'no delete, no guide').toHaveCount(0);
    await expect(row(table(page, 'Permissions'), 'all')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create permission' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^(Edit|Delete) / })).toHaveCount(0);

    await page.getByRole('link', { name: 'General' }).click();
    await expect(page.getByLabel('API name')).toBeDisabled();
    await expect(page.getByLabel('Access token lifetime (seconds)')).toBeDisabled();
    await expect(page.getByRole('switch', { name: /Use as the default API/ })).toBeDisabled();
    await snap(page, 'management');
  });

  test('the command palette finds an API resource by name', async ({ page }) => {
    const api = uniqueApi('Palette API');
    await openApiResources(page);
    await createApiResource(page, api);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog');
    await palette.getByRole('combobox').fill(api.name);
    const option = palette.getByRole('option', { name: new RegExp(api.name) });
    await expect(option).toContainText('API resource');
    await option.click();
    await expect(page).toHaveURL(/\/api-resources\/[0-9a-z]+\/permissions$/);
    await expectHeading(page, api.name);
  });
});
