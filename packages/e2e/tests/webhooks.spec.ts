import { createHmac, randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-webhooks-${name}.png`, fullPage: true });
}

/** Each test makes its own data: a suffix keeps its names apart from every other test's. */
const unique = (prefix: string) => `${prefix} ${randomBytes(4).toString('hex')}`;

const signatureHeader = 'gatehouse-signature-sha-256';

type Hook = { id: string; name: string; enabled: boolean; signingKey: string; config: { url: string } };

async function hooksNamed(api: ManagementApi, name: string): Promise<Hook[]> {
  const hooks = await api.get<Hook[]>(`/hooks?search=${encodeURIComponent(name)}&page_size=100`);
  return hooks.filter((hook) => hook.name === name);
}

async function openWebhooks(page: Page, path = 'webhooks'): Promise<ManagementApi> {
  await openSignedIn(page, consolePath(path));
  await waitForShell(page);
  return managementApiAs(page);
}

function row(scope: Page | Locator, text: string): Locator {
  return scope.getByRole('row').filter({ hasText: text });
}

const createDialog = (page: Page) => page.getByRole('dialog', { name: 'Create webhook' });

/** Waits for the recent requests to show a row of this event (the worker delivers within a few seconds). */
async function waitForRequest(page: Page, event: string, count = 1): Promise<void> {
  const table = page.getByRole('table', { name: 'Recent requests' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row(table, event)).toHaveCount(count, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

function hmac(body: string, key: string): string {
  return createHmac('sha256', key).update(body).digest('hex');
}

test.describe('webhooks', () => {
  let receiver: Receiver;
  test.beforeEach(async () => {
    receiver = await startReceiver();
  });
  test.afterEach(async () => {
    await receiver.close();
  });

  test('refuses bad input with the schema’s messages and saves nothing', async ({ page }) => {
    const api = await openWebhooks(page);
    const name = unique('Bad input');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page).toHaveURL(/\/webhooks\/create$/);
    const dialog = createDialog(page);
    const submit = dialog.getByRole('button', { name: 'Create webhook' });

    await submit.click();
    await expect(dialog.getByTestId('name-error')).toHaveText('Enter a name.');
    await expect(dialog.getByTestId('events-error')).toHaveText('Choose at least one event.');
    await expect(dialog.getByTestId('url-error')).toHaveText('Enter an absolute http(s) URL.');

    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('checkbox', { name: 'Created User.Created' }).check();
    await expect(dialog.getByTestId('events-error'), 'after a submit, picking an event clears its error').toHaveCount(
      0,
    );
    await dialog.getByLabel('Endpoint URL').fill('ftp://127.0.0.1/hook');
    await submit.click();
    await expect(dialog.getByTestId('url-error')).toHaveText('Enter an absolute http(s) URL.');

    await dialog.getByLabel('Endpoint URL').fill(`http://admin:secret@127.0.0.1/hook`);
    await submit.click();
    await expect(dialog.getByTestId('url-error')).toHaveText(
      'The URL must not carry credentials (user:password@); send them in a header.',
    );

    await dialog.getByLabel('Endpoint URL').fill(`${receiver.url}/hook`);
    await dialog.getByLabel('Retries').fill('4');
    await submit.click();
    await expect(dialog.getByTestId('url-error')).toHaveCount(0);
    await expect(dialog.getByTestId('retries-error')).toHaveText('Retries must be a whole number from 0 to 3.');
    await dialog.getByLabel('Retries').fill('-1');
    await submit.click();
    await expect(dialog.getByTestId('retries-error')).toHaveText('Retries must be a whole number from 0 to 3.');

    await dialog.getByLabel('Retries').fill('1');
    await dialog.getByLabel('Header name').first().fill('Content-Type');
    await dialog.getByLabel('Header value').first().fill('text/plain');
    await submit.click();
    await expect(dialog.getByTestId('headers.0.key-error')).toHaveText(
      'This header is set by the sender and cannot be changed.',
    );

    await dialog.getByRole('checkbox', { name: 'Created User.Created' }).uncheck();
    await dialog.getByLabel('Header name').first().fill('X-Tenant');
    await submit.click();
    await expect(dialog.getByTestId('events-error')).toHaveText('Choose at least one event.');
    await snap(page, 'create-errors');
    await expect(dialog, 'the dialog stays open').toBeVisible();
    expect(await hooksNamed(api, name), 'nothing was saved').toEqual([]);
    expect(receiver.received).toEqual([]);
  });

  test('creates a webhook, tests it, delivers a real event, replays it, rotates the key and deletes it', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const api = await openWebhooks(page);
    const name = unique('CRM sync');

    await page.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = createDialog(page);
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('checkbox', { name: 'Created User.Created' }).check();
    await dialog.getByRole('checkbox', { name: 'A user signed in PostSignIn' }).check();
    await dialog.getByLabel('Endpoint URL').fill(`${receiver.url}/hook`);
    await dialog.getByLabel('Header name').first().fill('X-Tenant-Token');
    await dialog.getByLabel('Header value').first().fill('token-123');
    await dialog.getByLabel('Retries').fill('0');
    await expect(dialog.getByRole('switch', { name: 'Send events to this endpoint' })).toBeChecked();
    await snap(page, 'create');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();

    await expect(page.getByText(`Webhook “${name}” created.`)).toBeVisible();
    await expect(page).toHaveURL(/\/webhooks\/[0-9a-z]+\/settings$/);
    await expectHeading(page, name);
    const [saved] = await hooksNamed(api, name);
    expect(saved).toMatchObject({
      enabled: true,
      events: ['PostSignIn', 'User.Created'],
      config: { url: `${receiver.url}/hook`, headers: { 'X-Tenant-Token': 'token-123' }, retries: 0 },
    });
    const hookId = saved?.id ?? '';

    // The list shows it with its endpoint and state.
    await page.getByRole('link', { name: 'Back to webhooks' }).click();
    const listRow = row(page, name);
    await expect(listRow).toContainText(`${receiver.url}/hook`);
    await expect(listRow).toContainText('Enabled');
    await expect(listRow).toContainText('No requests');
    await snap(page, 'list');
    await listRow.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${hookId}/settings$`));

    // Send test: the receiver gets a signed sample with the custom header, the page shows what it answered.
    await page.getByLabel('Test event').selectOption('User.Created');
    await page.getByRole('button', { name: 'Send test' }).click();
    const result = page.getByTestId('test-result');
    await expect(result).toContainText('Succeeded · 200');
    await expect(result).toContainText(/\d+ ms/);
    await expect(result).toContainText('{"received":true}');
    expect(receiver.received).toHaveLength(1);
    const sample = receiver.received[0];
    expect(sample?.headers['x-tenant-token']).toBe('token-123');
    expect(JSON.parse(sample?.body ?? '{}')).toMatchObject({ hookId, event: 'User.Created', data: { test: true } });
    await snap(page, 'test-result');

    // A real event: a user created through the API is delivered and listed in the recent requests.
    const username = `hooked_${randomBytes(4).toString('hex')}`;
    const user = await api.createUser({ username });
    await page.getByRole('link', { name: 'Recent requests' }).click();
    await waitForRequest(page, 'User.Created');
    const delivered = receiver.received.find((request) => request.body.includes(user.id));
    expect(delivered, 'the receiver got the event').toBeDefined();
    await expect(row(page, 'User.Created')).toContainText('Succeeded · 200');
    await expect(row(page, 'User.Created')).toContainText(/1 of \d/);
    await page.getByLabel('Status').selectOption('failed');
    await expect(page.getByText('No request matches these filters.')).toBeVisible();
    await page.getByLabel('Status').selectOption('success');
    await expect(row(page, 'User.Created')).toHaveCount(1);
    await snap(page, 'recent-requests');

    // Its detail, then a replay that sends the same body again and opens the new attempt.
    await row(page, 'User.Created').getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${hookId}/recent-requests/[0-9a-z]+$`));
    const originalUrl = page.url();
    await expectHeading(page, 'Request User.Created');
    await expect(page.getByRole('region', { name: 'Request body' })).toContainText(username);
    await expect(page.getByRole('region', { name: 'Request headers' })).toContainText(signatureHeader);
    await expect(page.getByRole('region', { name: 'Response body' })).toContainText('"received": true');
    await snap(page, 'request');
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Replay' }).click();
    await expect(page.getByText('Request sent again: this is the new attempt.')).toBeVisible();
    await expect(page).not.toHaveURL(originalUrl);
    await expect(page.getByRole('link', { name: 'the original request' })).toBeVisible();
    expect(receiver.received).toHaveLength(before + 1);
    expect(receiver.received.at(-1)?.body, 'a replay sends the recorded body').toBe(delivered?.body);
    await page.getByRole('link', { name: 'Back to recent requests' }).click();
    await expect(row(page, 'User.Created')).toHaveCount(2);

    // The signing key: masked, revealed, rotated after a confirmation; deliveries are signed with what the UI shows.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const key = page.getByTestId('signing-key');
    await expect(key).not.toContainText(saved?.signingKey ?? '');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(key).toHaveText(saved?.signingKey ?? '');
    await page.getByRole('button', { name: 'Rotate key' }).click();
    const rotate = page.getByRole('alertdialog', { name: 'Rotate signing key' });
    await rotate.getByRole('button', { name: 'Cancel' }).click();
    await expect(key, 'a cancelled rotation keeps the key').toHaveText(saved?.signingKey ?? '');
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await rotate.getByRole('button', { name: 'Rotate' }).click();
    await expect(page.getByText('Signing key rotated.')).toBeVisible();
    await expect(key).not.toHaveText(saved?.signingKey ?? '');
    const shownKey = (await key.textContent()) ?? '';
    expect(shownKey).toMatch(/^[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(async () => expect(receiver.received).toHaveLength(before + 2)).toPass();
    const signed = receiver.received.at(-1);
    expect(signed?.headers[signatureHeader], 'the signature is the HMAC of the body with the shown key').toBe(
      hmac(signed?.body ?? '', shownKey),
    );
    expect(signed?.headers[signatureHeader]).not.toBe(hmac(signed?.body ?? '', saved?.signingKey ?? ''));
    await snap(page, 'settings');

    // Edit and disable.
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`${name} v2`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Webhook saved.')).toBeVisible();
    await expectHeading(page, `${name} v2`);
    await page.getByRole('button', { name: 'Disable webhook' }).click();
    await expect(page.getByText('Webhook disabled: no events are sent until you enable it.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enable webhook' })).toBeVisible();
    expect((await api.get<Hook>(`/hooks/${hookId}`)).enabled).toBe(false);

    // Delete, after a confirmation.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete webhook' }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Delete webhook' });
    await expect(confirmation).toContainText(`${name} v2`);
    await confirmation.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`Webhook “${name} v2” deleted.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${consolePath('webhooks')}$`));
    await expect(row(page, `${name} v2`)).toHaveCount(0);
    expect(await hooksNamed(api, `${name} v2`)).toEqual([]);
  });

  test('finds a webhook from the command palette', async ({ page }) => {
    const api = await openWebhooks(page);
    const name = unique('Palette hook');
    const hook = await api.post<Hook>('/hooks', {
      name,
      events: ['Role.Created'],
      config: { url: `${receiver.url}/palette` },
    });
    await page.keyboard.press('Control+K');
    await page.getByRole('combobox', { name: 'Search pages' }).fill(name);
    await page.getByRole('option', { name: new RegExp(name) }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${hook.id}/settings$`));
    await expectHeading(page, name);
    await api.delete(`/hooks/${hook.id}`);
  });
});
