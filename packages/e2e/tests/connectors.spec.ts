import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { waitForMail } from '../support/mail.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-connectors-${name}.png`, fullPage: true });
}

type Connector = { id: string; type: string; connectorId: string; target: string; config: Record<string, unknown> };
type SignInExperience = { tenantId: string; id: string; socialSignInConnectorTargets: string[] };

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

    // The index opens the passwordless tab: an email and an SMS card; the social tab says none is set up yet.
    await expect(page).toHaveURL(new RegExp(`${consolePath('connectors/passwordless')}$`));
    await expectHeading(page, 'Connectors');
    const emailCard = page.getByTestId('email-connector');
    await expect(page.getByTestId('sms-connector')).toBeVisible();
    await page.getByRole('link', { name: 'Social' }).click();
    await expect(page.getByTestId('social-empty')).toContainText(
      'No social connector is set up yet. Add one to let users sign in with an account they already have elsewhere.',
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
    const outcome = testDialog.getByTestId('test-outcome');
    await expect(outcome).toHaveText(`Test message sent to ${recipient}.`);
    // Issue 40, item 14: said in the success colour (the theme's token), not as grey text.
    const [colour, success] = await outcome.evaluate((element) => [
      getComputedStyle(element).color,
      getComputedStyle(document.documentElement).getPropertyValue('--color-success').trim(),
    ]);
    expect(colour, `the outcome is drawn in --color-success (${success})`).toBe(
      await page.evaluate((value) => {
        const probe = document.createElement('span');
        probe.style.color = value;
        document.body.append(probe);
        const computed = getComputedStyle(probe).color;
        probe.remove();
        return computed;
      }, success),
    );
    const mail = await waitForMail(recipient);
    expect(mail.text).toContain('123456');
    // Issue 40, item 4: the send disabled its button for a moment; focus stayed in the dialog, so Esc still closes it
    // and nothing of it is left over the page.
    await expect.poll(() => testDialog.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(testDialog).toHaveCount(0);
    await config(page, 'host').click();

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

    // A test with a port nothing listens on: the server's message and the provider's words show. The new port empties
    // the masked password, which is typed again: a stored secret is never sent to a new host (issue 39, item 3).
    await config(page, 'host').fill('127.0.0.1');
    await config(page, 'port').fill('1');
    await expect(config(page, 'password')).toHaveValue('');
    await expect(page.getByTestId('config.password-note')).toHaveText(
      'Enter the secret again: a stored secret is never sent to a new host.',
    );
    await config(page, 'password').fill('sink-secret');
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

    // Experience: a display name in English, kept after a reload; a sender has no profile to sync (issue 40, 13).
    await page.getByRole('link', { name: 'Experience', exact: true }).click();
    await page.getByLabel('Name in English').fill('Company mail');
    await expect(page.getByRole('switch', { name: /Profile sync/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Experience saved.')).toBeVisible();
    await page.reload();
    await expectHeading(page, 'Company mail');
    await expect(page.getByLabel('Name in English')).toHaveValue('Company mail');

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

  test('adds an OpenID Connect social connector, shows its redirect URI and offers it on the sign-in page', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await openSignedIn(page, consolePath('connectors/social'));
    await waitForShell(page);
    const api = await managementApiAs(page);
    const originalTargets = (await api.get<SignInExperience>('/sign-in-exp')).socialSignInConnectorTargets;
    const before = new Set((await api.get<Connector[]>('/connectors')).map((connector) => connector.id));
    // The console names a new social connector after its factory's target, numbered when that id is taken.
    let expectedId = 'oidc';
    for (let number = 2; before.has(expectedId); number += 1) expectedId = `oidc-${number}`;
    const redirectUri = `${baseURL}/callback/social/default/${expectedId}`;
    try {
      // Add: the social factories in the chooser, then the OIDC guide with the redirect URI before creating.
      await page.getByRole('link', { name: 'Add social connector' }).click();
      const chooser = page.getByRole('dialog', { name: 'Choose a social connector' });
      for (const name of ['OpenID Connect', 'OAuth 2.0', 'Google', 'GitHub', 'Microsoft', 'GitLab', 'Discord']) {
        await expect(chooser.getByRole('link', { name: new RegExp(name) })).toBeVisible();
      }
      await expect(chooser.getByRole('link', { name: /SMTP/ })).toHaveCount(0);
      await snap(page, 'create-social');
      await chooser.getByTestId('factory-oidc').click();
      await expect(page).toHaveURL(/\/connectors\/social\/guide\/oidc$/);
      await expectHeading(page, 'Set up OpenID Connect');
      const redirect = page.getByTestId('redirect-uri');
      await expect(redirect.locator('code')).toHaveText(redirectUri);
      await expect(redirect).toContainText('Register this redirect URI at the provider');
      await expect(page.getByRole('button', { name: 'Send a test' }), 'no test send for social').toHaveCount(0);
      await config(page, 'issuer').fill(`${baseURL}/oidc`);
      await config(page, 'clientId').fill('e2e-social-client');
      await config(page, 'clientSecret').fill('e2e-social-secret');
      await snap(page, 'guide-social');
      await page.getByRole('button', { name: 'Create connector' }).click();
      await expect(page.getByText('Connector “OpenID Connect” created.')).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/connectors/social/${expectedId}/connection$`));
      await expect(page.getByTestId('redirect-uri').locator('code')).toHaveText(redirectUri);
      await expect(page.getByRole('button', { name: 'Send a test' })).toHaveCount(0);
      const created = await api.get<Connector>(`/connectors/${expectedId}`);
      expect(created).toMatchObject({ connectorId: 'oidc', type: 'Social' });
      await snap(page, 'connection-social');

      // The social tab lists it.
      await page.getByRole('link', { name: 'Back to connectors' }).click();
      const row = page.getByTestId(`social-connector-${expectedId}`);
      await expect(row).toContainText('OpenID Connect');
      await expect(row).toContainText(`Target: ${created.target}`);

      // The sign-in experience offers it: ticked, saved, still ticked after a reload.
      await page.goto(consolePath('sign-in-experience/sign-up-and-sign-in'));
      await expectHeading(page, 'Sign-in experience');
      const social = page.getByTestId('socialTargets');
      const checkbox = social.getByTestId(`social-target-${created.target}`).getByRole('checkbox');
      await expect(checkbox).not.toBeChecked();
      await checkbox.check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Sign-in experience saved.')).toBeVisible();
      expect((await api.get<SignInExperience>('/sign-in-exp')).socialSignInConnectorTargets).toContain(created.target);
      await page.reload();
      await expect(
        page.getByTestId('socialTargets').getByTestId(`social-target-${created.target}`).getByRole('checkbox'),
      ).toBeChecked();
      await snap(page, 'sign-in-experience-social');

      // Delete it through its page, after a confirmation.
      await page.goto(consolePath(`connectors/social/${expectedId}/connection`));
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete connector' }).click();
      const confirmation = page.getByRole('alertdialog', { name: 'Delete this connector?' });
      await expect(confirmation).toContainText('users can no longer sign in with it');
      await confirmation.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('Connector “OpenID Connect” deleted.')).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${consolePath('connectors/social')}$`));
      await expect(page.getByTestId(`social-connector-${expectedId}`)).toHaveCount(0);
    } finally {
      await api.patch('/sign-in-exp', { socialSignInConnectorTargets: originalTargets });
      const left = (await api.get<Connector[]>('/connectors')).filter((connector) => !before.has(connector.id));
      for (const connector of left) await api.delete(`/connectors/${connector.id}`);
    }
  });
});
