import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * SCIM provisioning in the console (issue 45): an SSO connector's provisioning tab, set up with an organization
 * mapping (refused first without the organization), the token shown once and used by a real SCIM client (this test,
 * with fetch), what it provisioned and its request log, the user's marker, rotation (the old token then refused) and
 * deletion. Axe (light and dark) and Arabic are the sweep's (support/sweep.ts, enterprise_sso).
 */

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the test then saves what it saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-scim-${name}.png`, fullPage: true });
}

const suffix = () => randomBytes(4).toString('hex');
const row = (scope: Page | Locator, text: string) => scope.getByRole('row').filter({ hasText: text });

type ScimConnection = { id: string; name: string; hasToken: boolean };

/** A SCIM client of the directory's kind: the base URL and token as the console showed them. */
function scimClient(baseUrl: string, token: string) {
  return (method: 'GET' | 'POST', path: string, body?: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

const scimUser = (email: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: email,
  externalId: `ext-${email}`,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: email, primary: true }],
});

const connectionsOf = (api: ManagementApi, ssoConnectorId: string) =>
  api.get<ScimConnection[]>(`/scim-connections?ssoConnectorId=${encodeURIComponent(ssoConnectorId)}`);

test('SCIM provisioning: set up (bad input first), the token once, a real SCIM client, rotate, delete', async ({
  page,
}) => {
  test.setTimeout(60_000); // Many steps on a shared two-core machine.
  await openSignedIn(page, consolePath('enterprise-sso'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  const tag = suffix();
  const connectorName = `Globex SCIM ${tag}`;
  const organizationName = `Globex ${tag}`;
  const email = `ada-${tag}@globex.test`;
  const connector = await api.post<{ id: string }>('/sso-connectors', { providerName: 'OIDC', connectorName });
  const organization = await api.post<{ id: string }>('/organizations', { name: organizationName });
  let userId: string | undefined;
  try {
    // None yet: the empty state's one action opens the setup dialog.
    await page.goto(consolePath(`enterprise-sso/${connector.id}/provisioning`));
    await expectHeading(page, connectorName);
    await expect(page.getByText('No SCIM provisioning yet')).toBeVisible();
    await page.getByRole('button', { name: 'Set up provisioning' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set up SCIM provisioning' });
    await expect(dialog.getByRole('textbox', { name: /^Connection name/ })).toHaveValue(connectorName);

    // An organization mapping without its organization: the schema's rule, and nothing saved.
    await dialog.getByRole('radio', { name: /One organization/ }).check();
    await dialog.getByRole('button', { name: 'Set up' }).click();
    await expect(dialog.getByTestId('organizationId-error')).toHaveText('Choose an organization');
    expect(await connectionsOf(api, connector.id), 'nothing saved').toEqual([]);

    const name = `Globex directory ${tag}`;
    await dialog.getByRole('textbox', { name: /^Connection name/ }).fill(name);
    await dialog.getByRole('combobox', { name: /^Organization/ }).selectOption({ label: organizationName });
    await dialog.getByRole('radio', { name: /Suspend the account/ }).check();
    await dialog.getByRole('button', { name: 'Set up' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/provisioning$/);

    // The base URL and the token, with the shown-once notice; the copy button copies the token itself.
    const endpoint = page.getByTestId('scim-endpoint');
    const tokenCell = page.getByTestId('scim-token');
    await expect(tokenCell.getByRole('alert')).toContainText('it is shown only this once');
    const baseUrl = (await endpoint.locator('code').first().textContent()) ?? '';
    expect(baseUrl).toBe(`${new URL(page.url()).origin}/scim/v2`);
    const token = (await tokenCell.locator('code').textContent()) ?? '';
    expect(token).toMatch(/^scim_[0-9a-z]{40}$/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await tokenCell.getByRole('button', { name: 'Copy Bearer token' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await snap(page, 'token');

    // The directory, with that token: a user (and the same one again, refused as not unique) and a group.
    const directory = scimClient(baseUrl, token);
    const created = await directory('POST', '/Users', scimUser(email));
    expect(created.status, await created.clone().text()).toBe(201);
    userId = ((await created.json()) as { id: string }).id;
    expect((await directory('POST', '/Users', scimUser(email))).status).toBe(409);
    const group = await directory('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: `Engineering ${tag}`,
      members: [{ value: userId }],
    });
    expect(group.status, await group.clone().text()).toBe(201);

    // The console shows it all after a refresh: requests with their results, the user, the group.
    await page.getByRole('button', { name: 'Refresh' }).click();
    const requests = page.getByRole('table', { name: 'Recent requests' });
    await expect(row(requests, '409')).toContainText('uniqueness');
    await expect(row(requests, '201')).toHaveCount(2);
    await expect(row(requests, '201').first()).toContainText('/Groups');
    await expect(endpoint).not.toContainText('None yet');
    const users = page.getByRole('table', { name: 'Provisioned users' });
    await expect(row(users, email)).toContainText('Ada Lovelace');
    await expect(row(users, email)).toContainText(`ext-${email}`);
    const groupRow = row(page.getByRole('table', { name: 'Provisioned groups' }), `Engineering ${tag}`);
    await expect(groupRow.getByRole('cell').nth(2), 'its member count').toHaveText('1');
    await snap(page, 'activity');

    // The user's page says which connection provisioned it, and leads back here.
    await users.getByRole('link', { name: /Ada Lovelace/ }).click();
    await expectHeading(page, 'Ada Lovelace');
    const marker = page.getByRole('link', { name: `Provisioned by SCIM: ${name}` });
    await expect(marker).toBeVisible();
    await snap(page, 'user-marker');
    await marker.click();
    await expect(page).toHaveURL(new RegExp(`/enterprise-sso/${connector.id}/provisioning$`));

    // Shown once: back on the tab, the token is no longer on the page.
    await expect(tokenCell).toContainText('A token is shown only when it is made');
    await expect(page.getByText(token)).toHaveCount(0);

    // Rotating asks first; then the new token works and the old one is refused.
    await page.getByRole('button', { name: 'Rotate token' }).click();
    await page.getByRole('alertdialog', { name: 'Rotate the token?' }).getByRole('button', { name: 'Rotate' }).click();
    await expect(tokenCell.getByRole('alert')).toBeVisible();
    const rotated = (await tokenCell.locator('code').textContent()) ?? '';
    expect(rotated).toMatch(/^scim_/);
    expect(rotated).not.toBe(token);
    expect((await directory('GET', '/Users')).status, 'the old token').toBe(401);
    expect((await scimClient(baseUrl, rotated)('GET', '/Users')).status, 'the new token').toBe(200);

    // Deleting asks first; the empty state is back and the API has none.
    await page.getByRole('button', { name: 'Delete provisioning' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete SCIM provisioning?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByRole('button', { name: 'Set up provisioning' })).toBeVisible();
    expect(await connectionsOf(api, connector.id)).toEqual([]);
    expect((await scimClient(baseUrl, rotated)('GET', '/Users')).status, 'a deleted connection’s token').toBe(401);
  } finally {
    for (const connection of await connectionsOf(api, connector.id))
      await api.delete(`/scim-connections/${connection.id}`);
    if (userId) await api.delete(`/users/${userId}`);
    await api.delete(`/organizations/${organization.id}`);
    await api.delete(`/sso-connectors/${connector.id}`);
  }
});
