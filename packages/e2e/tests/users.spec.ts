import { createHash, randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs, managementApiPath } from '../support/management-api.ts';
import { openSignedIn, submitSignIn } from '../support/session.ts';
import { chooseAppearance, chooseLanguage, waitForShell } from '../support/shell.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-users-${name}.png`, fullPage: true });
}

/** Each test makes its own users: a random suffix keeps their identifiers apart from every other test's. */
const suffix = () => randomBytes(4).toString('hex');

type User = {
  id: string;
  username: string | null;
  primaryEmail: string | null;
  primaryPhone: string | null;
  name: string | null;
  customData: Record<string, unknown>;
  profile: Record<string, unknown>;
  isSuspended: boolean;
  hasPassword: boolean;
};

async function openUsers(page: Page, path = 'users'): Promise<ManagementApi> {
  await openSignedIn(page, consolePath(path));
  await waitForShell(page);
  return managementApiAs(page);
}

/** The users a search finds through the API: how a test checks what was (or was not) saved. */
const usersMatching = (api: ManagementApi, text: string) =>
  api.get<User[]>(`/users?search=${encodeURIComponent(text)}&page_size=100`);

/** The console's own management API token (oidc-client-ts keeps it in sessionStorage). */
async function consoleToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (const key of Object.keys(sessionStorage)) {
      if (!key.startsWith('oidc.user:')) continue;
      const user: unknown = JSON.parse(sessionStorage.getItem(key) ?? 'null');
      if (typeof user === 'object' && user !== null && 'access_token' in user) return String(user.access_token);
    }
    return undefined;
  });
  expect(token, 'signed in to the console').toBeTruthy();
  return token ?? '';
}

/** Whether the API takes `password` as the user's (204) or refuses it (422): POST …/password/verify. */
async function passwordWorks(page: Page, userId: string, password: string): Promise<boolean> {
  const response = await page.request.post(managementApiPath(`/users/${userId}/password/verify`), {
    headers: { Authorization: `Bearer ${await consoleToken(page)}` },
    data: { password },
  });
  expect([204, 422], `password/verify answered ${response.status()}`).toContain(response.status());
  return response.status() === 204;
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

function row(scope: Page | Locator, text: string): Locator {
  return scope.getByRole('row').filter({ hasText: text });
}

async function openUser(page: Page, id: string, tab = 'settings') {
  await page.goto(consolePath(`users/${id}/${tab}`));
}

/** A tab of the user's page (the sidebar has links of the same names). */
function tab(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: / sections$/ }).getByRole('link', { name });
}

async function chooseAction(page: Page, name: string) {
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name }).click();
}

/** The password the dialog shows once, read as the admin would copy it. */
async function shownPassword(dialog: Locator): Promise<string> {
  await expect(dialog.getByText('It will not be shown again')).toBeVisible();
  const password = (await dialog.locator('code').textContent()) ?? '';
  expect(password.length, 'a strong generated password').toBeGreaterThanOrEqual(16);
  return password;
}

test.describe('users', () => {
  test('creates a user with a generated password shown once, and finds them by parts of their email and phone', async ({
    page,
  }) => {
    const api = await openUsers(page);
    const id = suffix();
    const username = `ada_${id}`;
    const email = `ada.${id}@example.com`;

    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page).toHaveURL(/\/users\/create$/);
    const dialog = page.getByRole('dialog', { name: 'Create user' });
    await dialog.getByLabel('Username').fill(username);
    await dialog.getByLabel('Email address').fill(email);
    await dialog.getByLabel('Phone number').fill(`+1 (555) ${id.replace(/\D/g, '7').slice(0, 4)}-0199`);
    await dialog.getByLabel('Name', { exact: true }).fill(`Ada ${id}`);
    await expect(dialog.getByRole('radio', { name: /Generate a password/ }), 'generated by default').toBeChecked();
    await snap(page, 'create');
    await dialog.getByRole('button', { name: 'Create user' }).click();

    const shown = page.getByRole('dialog', { name: 'User created: save the password' });
    const password = await shownPassword(shown);
    await expect(shown.getByRole('button', { name: 'Copy the password' })).toBeVisible();
    await snap(page, 'password-shown-once');
    await shown.getByRole('button', { name: 'I have saved it' }).click();
    await expect(shown, 'shown once: the dialog is gone').toBeHidden();
    await expect(page).toHaveURL(/\/users\/[0-9a-z]+\/settings$/);
    await expectHeading(page, `Ada ${id}`);
    await expect(page.getByText(password), 'the password appears nowhere else').toHaveCount(0);

    const [user] = await usersMatching(api, username);
    expect(user?.primaryEmail).toBe(email);
    expect(user?.primaryPhone, 'stored as digits').toMatch(/^1555\d{4}0199$/);
    expect(user?.hasPassword).toBe(true);
    expect(await passwordWorks(page, user?.id ?? '', password), 'the shown password is the user’s').toBe(true);

    await page.getByRole('link', { name: 'Back to users' }).click();
    const search = page.getByRole('searchbox');
    await search.fill(`a.${id}@exa`);
    await expect(row(page, username)).toBeVisible();
    await expect(page).toHaveURL(/search=/);
    await search.fill(`${(user?.primaryPhone ?? '').slice(4, 10)}`);
    await expect(row(page, username), 'found by a part of the phone number').toBeVisible();
    await search.fill(`nobody-${id}`);
    await expect(page.getByText('No users match this search or filter.')).toBeVisible();
  });

  test('filters suspended users, with the filter kept in the URL', async ({ page }) => {
    const api = await openUsers(page);
    const id = suffix();
    const active = await api.post<User>('/users', { username: `filter_active_${id}` });
    const suspended = await api.post<User>('/users', { username: `filter_suspended_${id}` });
    await api.patch(`/users/${suspended.id}/is-suspended`, { isSuspended: true });

    await page.getByRole('searchbox').fill(id);
    await expect(row(page, `filter_active_${id}`)).toBeVisible();
    await expect(row(page, `filter_suspended_${id}`)).toContainText('Suspended');

    await page.getByRole('combobox', { name: 'Status' }).selectOption('Suspended');
    await expect(page).toHaveURL(/status=suspended/);
    await expect(row(page, `filter_suspended_${id}`)).toBeVisible();
    await expect(row(page, `filter_active_${id}`)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('suspended');
    await expect(row(page, `filter_suspended_${id}`)).toBeVisible();
    await expect(row(page, `filter_active_${id}`)).toHaveCount(0);

    await page.getByRole('combobox', { name: 'Status' }).selectOption('Active');
    await expect(row(page, `filter_active_${id}`)).toBeVisible();
    await expect(row(page, `filter_suspended_${id}`)).toHaveCount(0);
    expect(active.id).not.toBe(suspended.id);
  });

  test('edits the settings and sees them after a reload; invalid custom data JSON shows the error and saves nothing', async ({
    page,
  }) => {
    const api = await openUsers(page);
    const id = suffix();
    const user = await api.post<User>('/users', { username: `edit_${id}`, customData: { plan: 'free' } });
    await openUser(page, user.id);
    await expectHeading(page, `edit_${id}`);

    await page.getByLabel('Name', { exact: true }).fill(`Grace ${id}`);
    await page.getByLabel('Email address').fill(`grace.${id}@example.com`);
    await page.getByLabel('Given name').fill('Grace');
    await page.getByLabel('City').fill('Arlington');
    await page.getByRole('textbox', { name: 'Custom data (JSON)' }).fill('{"plan": "pro", "seats": 3}');
    // Leaving with unsaved changes asks first.
    await tab(page, 'Roles').click();
    await page.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await snap(page, 'settings');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText("The user's settings have been saved.")).toBeVisible();

    await page.reload();
    await expectHeading(page, `Grace ${id}`);
    await expect(page.getByLabel('Email address')).toHaveValue(`grace.${id}@example.com`);
    await expect(page.getByLabel('Given name')).toHaveValue('Grace');
    await expect(page.getByLabel('City')).toHaveValue('Arlington');
    await expect(page.getByRole('textbox', { name: 'Custom data (JSON)' })).toContainText('"seats": 3');
    const saved = await api.get<User>(`/users/${user.id}`);
    expect(saved.customData).toEqual({ plan: 'pro', seats: 3 });
    expect(saved.profile).toEqual({ givenName: 'Grace', address: { locality: 'Arlington' } });

    await page.getByRole('textbox', { name: 'Custom data (JSON)' }).fill('{"plan": }');
    await page.getByLabel('Name', { exact: true }).fill(`Changed ${id}`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('customData-error')).toHaveText('Invalid JSON format.');
    const unchanged = await api.get<User>(`/users/${user.id}`);
    expect(unchanged.customData, 'bad JSON never reaches the server').toEqual({ plan: 'pro', seats: 3 });
    expect(unchanged.name, 'and nothing else of the form is saved').toBe(`Grace ${id}`);

    await page.getByLabel('Email address').fill('not-an-email');
    await page.getByLabel('Email address').blur();
    await expect(page.getByTestId('primaryEmail-error')).toHaveText('Enter an email address such as name@example.com.');
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByLabel('Email address')).toHaveValue(`grace.${id}@example.com`);
  });

  test('resets the password: a generated one is shown once, a typed one must pass the policy', async ({ page }) => {
    const api = await openUsers(page);
    const id = suffix();
    const user = await api.post<User>('/users', { username: `reset_${id}`, password: `Initial-${id}-pass` });
    await openUser(page, user.id);
    await expectHeading(page, `reset_${id}`);

    await chooseAction(page, 'Reset password');
    const dialog = page.getByRole('dialog', { name: 'Reset password' });
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    const shown = page.getByRole('dialog', { name: 'New password: save it now' });
    const generated = await shownPassword(shown);
    await shown.getByRole('button', { name: 'I have saved it' }).click();
    await expect(shown).toBeHidden();
    // The confirmation toast is dismissed, so the one of the second reset below is the only one on the page.
    const resetToast = page.getByText(`The password of reset_${id} has been reset.`);
    await expect(resetToast).toBeVisible();
    await page.getByRole('button', { name: 'Dismiss notification' }).click();
    await expect(resetToast).toHaveCount(0);
    expect(await passwordWorks(page, user.id, generated)).toBe(true);
    expect(await passwordWorks(page, user.id, `Initial-${id}-pass`), 'the old password is gone').toBe(false);

    await chooseAction(page, 'Reset password');
    await dialog.getByRole('radio', { name: /Type a password/ }).check();
    await dialog.getByLabel('New password').fill('abc');
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    await expect(dialog.getByTestId('password-error')).toHaveText(
      'The password must have at least 8 characters. The password is mostly a sequence such as abc or 123.',
    );
    await dialog.getByLabel('New password').fill(`reset_${id}`);
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    await expect(dialog.getByTestId('password-error')).toHaveText(
      "The password is mostly made of the account's name, username or email.",
    );
    expect(await passwordWorks(page, user.id, generated), 'refused passwords change nothing').toBe(true);

    await dialog.getByLabel('New password').fill(`Typed-${id}-secret`);
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    await expect(resetToast).toBeVisible();
    await expect(dialog).toBeHidden();
    expect(await passwordWorks(page, user.id, `Typed-${id}-secret`)).toBe(true);
  });

  test('suspends and reactivates a user: the confirmation says what suspension does, the tag shows', async ({
    page,
  }) => {
    const api = await openUsers(page);
    const id = suffix();
    const user = await api.post<User>('/users', { username: `suspend_${id}` });
    await openUser(page, user.id);
    const header = page
      .getByRole('main')
      .locator('header')
      .filter({ has: page.getByRole('heading', { level: 1 }) });
    await expectHeading(page, `suspend_${id}`);
    await expect(header.getByText('Suspended')).toHaveCount(0);

    await chooseAction(page, 'Suspend user');
    const confirmation = page.getByRole('alertdialog', { name: 'Suspend user' });
    await expect(confirmation).toContainText('will be signed out everywhere');
    await snap(page, 'suspend');
    await confirmation.getByRole('button', { name: 'Suspend' }).click();
    await expect(page.getByText(`suspend_${id} has been suspended.`)).toBeVisible();
    await expect(header.getByText('Suspended')).toBeVisible();
    expect((await api.get<User>(`/users/${user.id}`)).isSuspended).toBe(true);

    await chooseAction(page, 'Reactivate user');
    await page
      .getByRole('alertdialog', { name: 'Reactivate user' })
      .getByRole('button', { name: 'Reactivate' })
      .click();
    await expect(page.getByText(`suspend_${id} has been reactivated.`)).toBeVisible();
    await expect(header.getByText('Suspended')).toHaveCount(0);
    expect((await api.get<User>(`/users/${user.id}`)).isSuspended).toBe(false);
  });

  test('assigns a role found by search and removes it after a confirmation', async ({ page }) => {
    const api = await openUsers(page);
    const id = suffix();
    const user = await api.post<User>('/users', { username: `roles_${id}` });
    const role = await api.createRole({ name: `Editor ${id}`, description: 'Edits articles' });
    await api.createRole({ name: `Robot ${id}`, type: 'MachineToMachine' });
    await openUser(page, user.id, 'roles');
    await expect(page.getByText('This user holds no roles yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Assign roles' }).click();
    const dialog = page.getByRole('dialog', { name: `Assign roles to roles_${id}` });
    await dialog.getByRole('searchbox').fill(id);
    await expect(dialog.getByRole('checkbox', { name: new RegExp(`Editor ${id}`) })).toBeVisible();
    await expect(
      dialog.getByRole('checkbox', { name: new RegExp(`Robot ${id}`) }),
      'machine-to-machine roles are not offered to users',
    ).toHaveCount(0);
    await dialog.getByRole('checkbox', { name: new RegExp(`Editor ${id}`) }).check();
    await snap(page, 'assign-roles');
    await dialog.getByRole('button', { name: 'Assign roles' }).click();
    await expect(page.getByText('Roles assigned: 1')).toBeVisible();
    await expect(row(page, `Editor ${id}`)).toContainText('Edits articles');
    expect((await api.get<{ id: string }[]>(`/users/${user.id}/roles`)).map((held) => held.id)).toEqual([role.id]);

    await page.getByRole('button', { name: 'Assign roles' }).click();
    await dialog.getByRole('searchbox').fill(id);
    await expect(dialog.getByText('No results'), 'a held role is not offered again').toBeVisible();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: `Remove role Editor ${id}` }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Remove role' });
    await expect(confirmation).toContainText(`roles_${id} will lose the role “Editor ${id}”`);
    await confirmation.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText(`The role “Editor ${id}” has been removed from the user.`)).toBeVisible();
    await expect(row(page, `Editor ${id}`)).toHaveCount(0);
    expect(await api.get<unknown[]>(`/users/${user.id}/roles`)).toEqual([]);
  });

  test('a sign-in of the user appears in their logs tab and opens as a log entry; settings show the last sign-in', async ({
    page,
    browser,
    baseURL,
  }) => {
    const api = await openUsers(page);
    const id = suffix();
    const password = `Sign-in-${id}-pass`;
    const user = await api.post<User>('/users', { username: `logs_${id}`, password });
    const redirectUri = `${baseURL}/e2e-users-callback`;
    const app = await api.post<{ id: string }>('/applications', {
      name: `Users e2e ${id}`,
      type: 'SPA',
      oidcClientMetadata: { redirectUris: [redirectUri] },
    });

    // The user signs in to the default tenant's app in a browser of their own (authorization code + PKCE).
    const context = await browser.newContext();
    try {
      const visitor = await context.newPage();
      const verifier = randomBytes(32).toString('base64url');
      const params = new URLSearchParams({
        client_id: app.id,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid profile',
        state: id,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      });
      await visitor.goto(`${baseURL}/oidc/auth?${params}`);
      await submitSignIn(visitor, `logs_${id}`, password);
      await visitor.waitForURL((url) => url.href.startsWith(redirectUri));
      expect(new URL(visitor.url()).searchParams.get('code'), 'signed in: the app receives a code').toBeTruthy();
    } finally {
      await context.close();
    }

    await openUser(page, user.id);
    const lastSignIn = page.getByRole('term').filter({ hasText: 'Last sign-in' }).locator('xpath=..');
    await expect(lastSignIn).not.toContainText('Never');

    await tab(page, 'Logs').click();
    await expect(page).toHaveURL(/\/logs$/);
    const logs = page.getByRole('table', { name: 'Logs' });
    const entry = logs.getByRole('row', { name: /Interaction\.SignIn\.Submit/ });
    await expect(entry).toBeVisible();
    await expect(entry.getByText('Success')).toBeVisible();
    await entry.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/users/${user.id}/logs/[0-9a-z]+$`, 'i'));
    await expectHeading(page, 'Interaction.SignIn.Submit');
    await expect(page.getByRole('textbox', { name: 'Payload as JSON' })).toContainText(`logs_${id}`);
    await snap(page, 'log-entry');
    await page.getByRole('link', { name: "Back to the user's logs" }).click();
    await expect(page).toHaveURL(new RegExp(`/users/${user.id}/logs$`));
  });

  test('the organizations tab lists memberships with their roles, and removes one after a confirmation', async ({
    page,
  }) => {
    const api = await openUsers(page);
    const id = suffix();
    const user = await api.post<User>('/users', { username: `member_${id}` });
    const organization = await api.post<{ id: string }>('/organizations', { name: `Acme ${id}` });
    const role = await api.post<{ id: string }>('/organization-roles', { name: `Buyer ${id}` });
    await api.post(`/organizations/${organization.id}/users`, { userIds: [user.id] });
    await api.post(`/organizations/${organization.id}/users/${user.id}/roles`, { organizationRoleIds: [role.id] });

    await openUser(page, user.id, 'organizations');
    const membership = row(page, `Acme ${id}`);
    await expect(membership).toContainText(`Buyer ${id}`);
    await page.getByRole('button', { name: `Remove from Acme ${id}` }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Remove from organization' });
    await expect(confirmation).toContainText(`member_${id} will leave Acme ${id}`);
    await confirmation.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText(`The user has been removed from Acme ${id}.`)).toBeVisible();
    await expect(page.getByText('This user is not a member of any organization.')).toBeVisible();
    expect(await api.get<unknown[]>(`/users/${user.id}/organizations`)).toEqual([]);
  });

  test('deletes a user after a danger confirmation and returns to the list', async ({ page }) => {
    const api = await openUsers(page);
    const id = suffix();
    const user = await api.post<User>('/users', { username: `delete_${id}` });
    await openUser(page, user.id);
    await expectHeading(page, `delete_${id}`);
    await chooseAction(page, 'Delete user');
    const confirmation = page.getByRole('alertdialog', { name: 'Delete user' });
    await expect(confirmation).toContainText('deleted for good');
    await expect(
      confirmation.getByRole('button', { name: 'Cancel' }),
      'a danger confirmation starts on Cancel',
    ).toBeFocused();
    await confirmation.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`The user “delete_${id}” has been deleted.`)).toBeVisible();
    await expect(page).toHaveURL(/\/users$/);
    expect(await usersMatching(api, `delete_${id}`)).toEqual([]);
  });

  test('bad input on create shows the spec’s message on the field and saves nothing', async ({ page }) => {
    const api = await openUsers(page);
    const id = suffix();
    const taken = await api.post<User>('/users', { username: `taken_${id}` });
    await page.goto(consolePath('users/create'));
    const dialog = page.getByRole('dialog', { name: 'Create user' });
    const submit = dialog.getByRole('button', { name: 'Create user' });

    await dialog.getByLabel('Name', { exact: true }).fill(`Nobody ${id}`);
    await submit.click();
    await expect(dialog.getByRole('alert')).toHaveText('Enter a username, an email address or a phone number.');

    await dialog.getByLabel('Username').fill(`9bad_${id}`);
    await dialog.getByLabel('Email address').fill(`bad ${id}@example`);
    await dialog.getByLabel('Phone number').fill('555-CALL-NOW');
    await expect(dialog.getByRole('alert'), 'the missing-identifier message goes once one is typed').toHaveCount(0);
    await submit.click();
    await expect(dialog.getByTestId('username-error')).toHaveText(
      'A username starts with a letter or an underscore and has only letters, digits and underscores.',
    );
    await expect(dialog.getByTestId('primaryEmail-error')).toHaveText(
      'Enter an email address such as name@example.com.',
    );
    await expect(dialog.getByTestId('primaryPhone-error')).toHaveText(
      'A phone number has digits, optionally with a leading +, spaces, dashes or parentheses.',
    );

    await dialog.getByLabel('Username').fill(`taken_${id}`);
    await dialog.getByLabel('Email address').fill('');
    await dialog.getByLabel('Phone number').fill('');
    await submit.click();
    await expect(dialog.getByTestId('username-error'), 'the server’s 422 on its field').toHaveText(
      'This username is already in use.',
    );
    await expect(page.getByText('This username is already in use.'), 'not a toast as well').toHaveCount(1);
    await snap(page, 'create-errors');

    const matches = await usersMatching(api, id);
    expect(
      matches.map((user) => user.id),
      'only the user made beforehand exists',
    ).toEqual([taken.id]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/users$/);
  });

  test('the command palette finds a user on the server', async ({ page }) => {
    const api = await openUsers(page);
    const id = suffix();
    const user = await api.post<User>('/users', { username: `palette_${id}`, name: `Palette ${id}` });
    await page.keyboard.press('Control+K');
    await page.getByRole('combobox', { name: 'Search pages' }).fill(`palette_${id}`);
    const option = page.getByRole('option', { name: new RegExp(`Palette ${id}`) });
    await expect(option).toBeVisible();
    await option.click();
    await expect(page).toHaveURL(new RegExp(`/users/${user.id}/settings$`));
    await expectHeading(page, `Palette ${id}`);
  });

  test('reads right to left in Arabic, and its pages pass axe in light and dark', async ({ page }) => {
    test.setTimeout(120_000); // Twelve axe runs on a shared machine.
    const api = await openUsers(page);
    const id = suffix();
    const user = await api.post<User>('/users', {
      username: `axe_${id}`,
      primaryEmail: `axe.${id}@example.com`,
      primaryPhone: '+1 555 0100',
      name: `Axe ${id}`,
      customData: { plan: 'pro' },
    });
    const role = await api.createRole({ name: `Axe role ${id}` });
    await api.post(`/users/${user.id}/roles`, { roleIds: [role.id] });

    try {
      for (const appearance of ['light', 'dark'] as const) {
        await axeUserPages(page, user.id, id, appearance);
      }
    } finally {
      // The appearance is saved with the shared admin's preferences (it wins over this browser's): put it back.
      await page.goto(consolePath('users'));
      await chooseAppearance(page, 'Sync with system');
    }

    // Through the user menu, as a user would: the account's saved language wins over this browser's (another spec
    // may have saved English), so a value put in localStorage alone can be overridden after the page loads.
    await openUser(page, user.id);
    await chooseLanguage(page, 'Language', 'العربية', 'ar');
    try {
      await arabicPages(page, user.id, id);
    } finally {
      await chooseLanguage(page, 'اللغة', 'English', 'en');
    }
  });
});

/** One appearance, chosen through the user menu as a user would, then axe over the list, dialogs and every tab. */
async function axeUserPages(page: Page, userId: string, id: string, appearance: 'light' | 'dark') {
  await page.goto(consolePath(`users?search=${id}`));
  await waitForShell(page);
  await chooseAppearance(page, appearance === 'light' ? 'Light' : 'Dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', appearance);
  await expect(row(page, `axe_${id}`)).toBeVisible();
  expect(await seriousViolations(page), `${appearance} list`).toEqual([]);
  await page.getByRole('button', { name: 'Create user' }).click();
  await page.getByRole('dialog', { name: 'Create user' }).getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  expect(await seriousViolations(page), `${appearance} create dialog with an error`).toEqual([]);
  await page.keyboard.press('Escape');
  for (const tab of ['settings', 'roles', 'logs', 'organizations']) {
    await openUser(page, userId, tab);
    await expectHeading(page, `Axe ${id}`);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('status')).toHaveCount(0);
    expect(await seriousViolations(page), `${appearance} ${tab}`).toEqual([]);
  }
  await snap(page, `logs-${appearance}`);
  await openUser(page, userId);
  await chooseAction(page, 'Reset password');
  await page.getByRole('dialog', { name: 'Reset password' }).getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('dialog', { name: 'New password: save it now' })).toBeVisible();
  expect(await seriousViolations(page), `${appearance} password shown once`).toEqual([]);
  await page.getByRole('button', { name: 'I have saved it' }).click();
}

async function arabicPages(page: Page, userId: string, id: string) {
  await openUser(page, userId);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('link', { name: 'الإعدادات' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByLabel('البريد الإلكتروني', { exact: true })).toHaveValue(`axe.${id}@example.com`);
  await snap(page, 'arabic-settings');
  await page.goto(consolePath(`users?search=${id}`));
  await expect(row(page, `axe_${id}`)).toContainText(`axe.${id}@example.com`);
  await snap(page, 'arabic-list');
}
