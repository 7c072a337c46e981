import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { waitForMail } from '../support/mail.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-connectors-${name}.png`, fullPage: true });
}

type Connector = { id: string; type: string; connectorId: string; config: Record<string, unknown> };

const emailConnectors = async (api: ManagementApi) =>
  (await api.get<Connector[]>('/connectors')).filter((connector) => connector.type === 'Email');

/** The e2e mail sink (support/mail-sink.ts) speaks SMTP here; the server sends the test message to it. */
const sinkPort = () => {
  const port = process.env.E2E_MAIL_SMTP_PORT;
  if (!port) throw new Error('E2E_MAIL_SMTP_PORT is not set (playwright.config.ts sets it)');
  return port;
};

/** A field of the generic connector form, by its config key. */
const config = (page: Page, key: string) => page.getByTestId(`config.${key}`);

test.describe('connectors', () => {
  test.afterEach(async ({ page }) => {
    // The server sends sign-up codes through the tenant's email connector: leave none behind for other specs.
    const api = await managementApiAs(page).catch(() => undefined);
    for (const connector of api ? await emailConnectors(api) : []) await api?.delete(`/connectors/${connector.id}`);
  });

  test('sets up an SMTP email connector, tests it, edits it, refuses bad input and deletes it', async ({ page }) => {
    test.setTimeout(90_000);
    await openSignedIn(page, consolePath('connectors'));
    await waitForShell(page);
    const api = await managementApiAs(page);
    for (const connector of await emailConnectors(api)) await api.delete(`/connectors/${connector.id}`);
    await page.reload();

    // The index opens the passwordless tab: an email and an SMS card; the social tab says none are available yet.
    await expect(page).toHaveURL(new RegExp(`${consolePath('connectors/passwordless')}$`));
    await expectHeading(page, 'Connectors');
    const emailCard = page.getByTestId('email-connector');
    await expect(page.getByTestId('sms-connector')).toBeVisible();
    await page.getByRole('link', { name: 'Social' }).click();
    await expect(page.getByTestId('social-empty')).toHaveText(
      'No social connectors are available yet. They are coming in a later release.',
    );
    await page.getByRole('link', { name: 'Passwordless' }).click();
    await snap(page, 'passwordless-empty');

    // Set up: the email factories as cards, then SMTP's guide beside its form.
    await emailCard.getByRole('link', { name: 'Set up' }).click();
    await expect(page).toHaveURL(/\/connectors\/passwordless\/create\/email$/);
    const chooser = page.getByRole('dialog', { name: 'Choose an email connector' });
    for (const name of ['SMTP', 'SendGrid', 'Postmark', 'Mailgun', 'HTTP email']) {
      await expect(chooser.getByRole('link', { name: new RegExp(name) })).toBeVisible();
    }
    await expect(chooser.getByRole('link', { name: /Twilio/ })).toHaveCount(0);
    await snap(page, 'create-email');
    await chooser.getByTestId('factory-smtp').click();
    await expect(page).toHaveURL(/\/connectors\/passwordless\/guide\/smtp$/);
    await expectHeading(page, 'Set up SMTP');
    await expect(page.getByRole('listitem').filter({ hasText: 'Send a test email.' })).toBeVisible();

    // Bad input is refused beside its field, and nothing is created.
    const create = page.getByRole('button', { name: 'Create connector' });
    await config(page, 'port').fill('');
    // Leaving the field shows its error first, so the button does not move under the click.
    await config(page, 'port').blur();
    await expect(page.getByTestId('config.port-error')).toBeVisible();
    await create.click();
    await expect(page.getByTestId('config.host-error')).toHaveText('This field is required.');
    await expect(page.getByTestId('config.port-error')).toHaveText('This field is required.');
    await expect(page.getByTestId('config.fromEmail-error')).toHaveText('This field is required.');
    await snap(page, 'guide-errors');
    expect(await emailConnectors(api), 'nothing was created').toEqual([]);

    // Fill it in, pointed at the local mail sink; a test message before saving arrives.
    await config(page, 'host').fill('127.0.0.1');
    await config(page, 'port').fill(sinkPort());
    await config(page, 'password').fill('sink-secret');
    await config(page, 'fromEmail').fill('no-reply@gatehouse.test');
    const recipient = `connector-${randomBytes(4).toString('hex')}@example.com`;
    await page.getByRole('button', { name: 'Send a test' }).click();
    const testDialog = page.getByRole('dialog', { name: 'Send a test message' });
    await testDialog.getByLabel('Email address').fill(recipient);
    await testDialog.getByRole('button', { name: 'Send' }).click();
    await expect(testDialog.getByTestId('test-outcome')).toHaveText(`Test message sent to ${recipient}.`);
    const mail = await waitForMail(recipient);
    expect(mail.text).toContain('123456');
    await testDialog.getByRole('button', { name: 'Cancel' }).click();

    await create.click();
    await expect(page.getByText('Connector “SMTP” created.')).toBeVisible();
    await expect(page).toHaveURL(/\/connectors\/passwordless\/[0-9a-z]+\/connection$/);
    await expectHeading(page, 'SMTP');
    const [created] = await emailConnectors(api);
    expect(created).toMatchObject({
      connectorId: 'smtp',
      config: {
        host: '127.0.0.1',
        port: Number(sinkPort()),
        fromEmail: 'no-reply@gatehouse.test',
        password: '********',
      },
    });
    const connectorId = created?.id ?? '';

    // The stored secret shows masked; an edit elsewhere sends it back masked, which keeps it.
    const password = config(page, 'password');
    await expect(password).toHaveValue('********');
    await expect(password).toHaveAttribute('type', 'password');
    await config(page, 'fromName').fill('Gatehouse E2E');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await page.reload();
    await expect(config(page, 'fromName')).toHaveValue('Gatehouse E2E');
    await expect(config(page, 'password')).toHaveValue('********');
    expect((await api.get<Connector>(`/connectors/${connectorId}`)).config).toMatchObject({
      fromName: 'Gatehouse E2E',
      password: '********',
    });
    await snap(page, 'connection');

    // Bad input on the saved connector: refused beside the field, nothing saved.
    await config(page, 'host').fill('');
    await config(page, 'host').blur();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('config.host-error')).toHaveText('This field is required.');
    expect((await api.get<Connector>(`/connectors/${connectorId}`)).config.host).toBe('127.0.0.1');

    // A test with a port nothing listens on: the server's message and the provider's words show.
    await config(page, 'host').fill('127.0.0.1');
    await config(page, 'port').fill('1');
    await page.getByRole('button', { name: 'Send a test' }).click();
    await testDialog.getByLabel('Email address').fill(recipient);
    await testDialog.getByRole('button', { name: 'Send' }).click();
    const failure = testDialog.getByRole('alert');
    await expect(failure).toContainText('The test message was not sent');
    await expect(failure).toContainText('ECONNREFUSED');
    await snap(page, 'test-failed');
    await testDialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect(config(page, 'port')).toHaveValue(sinkPort());

    // Experience: a display name in English and the profile sync, kept after a reload.
    await page.getByRole('link', { name: 'Experience', exact: true }).click();
    await page.getByLabel('Name in English').fill('Company mail');
    await page.getByRole('switch', { name: /Profile sync/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Experience saved.')).toBeVisible();
    await page.reload();
    await expectHeading(page, 'Company mail');
    await expect(page.getByLabel('Name in English')).toHaveValue('Company mail');
    await expect(page.getByRole('switch', { name: /Profile sync/ })).toBeChecked();

    // The passwordless tab shows it.
    await page.getByRole('link', { name: 'Back to connectors' }).click();
    await expect(emailCard).toContainText('Company mail');
    await expect(emailCard).toContainText('Target: smtp');
    await snap(page, 'passwordless');
    await emailCard.getByRole('link', { name: 'Open' }).click();

    // Delete, after a confirmation.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete connector' }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Delete this connector?' });
    await expect(confirmation).toContainText('Company mail');
    await confirmation.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Connector “Company mail” deleted.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${consolePath('connectors/passwordless')}$`));
    await expect(emailCard.getByRole('link', { name: 'Set up' })).toBeVisible();
    expect(await emailConnectors(api)).toEqual([]);
  });
});
