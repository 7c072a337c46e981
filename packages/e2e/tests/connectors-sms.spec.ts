import type { Page } from '@playwright/test';
import { consolePath, expectHeading } from '../support/console.ts';
import { managementApiAs } from '../support/management-api.ts';
import { startAuthorization } from '../support/oidc.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

/**
 * An SMS connector (issue 21) set up in the console as a user would — the generic HTTP SMS connector pointed at a
 * local receiver standing in for the provider — tested, used by a phone sign-up with a texted code, and deleted.
 */
const config = (page: Page, key: string) => page.getByTestId(`config.${key}`);
const callbackPath = '/connectors-sms-e2e/callback';

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

/** The last text message the receiver got, once it has `count`. */
async function textNumber(count: number): Promise<{ to: string; type: string; text: string }> {
  await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(count);
  return JSON.parse(receiver.received[count - 1]?.body ?? '{}');
}

test('an SMS connector: set up, tested, used for a phone sign-up, deleted', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await openSignedIn(page, consolePath('connectors/passwordless'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  const original = await api.get<Record<string, unknown>>('/sign-in-exp');
  const smsCard = page.getByTestId('sms-connector');
  await smsCard.getByRole('link', { name: 'Set up' }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose an SMS connector' });
  await chooser.getByTestId('factory-http-sms').click();
  await expectHeading(page, 'Set up HTTP SMS');

  // A bad endpoint is refused beside the field; then a test text reaches the receiver.
  await config(page, 'endpoint').fill('ftp://nope');
  await page.getByRole('button', { name: 'Create connector' }).click();
  await expect(page.getByTestId('config.endpoint-error')).toBeVisible();
  await config(page, 'endpoint').fill(`${receiver.url}/sms`);
  // The error line goes when the field is valid again: wait, so the buttons below do not move under the click.
  await config(page, 'endpoint').blur();
  await expect(page.getByTestId('config.endpoint-error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Send a test' }).click();
  const testDialog = page.getByRole('dialog', { name: 'Send a test message' });
  await testDialog.getByLabel('Phone number').fill('15550100200');
  await testDialog.getByRole('button', { name: 'Send' }).click();
  await expect(testDialog.getByTestId('test-outcome')).toContainText('15550100200');
  expect(await textNumber(1)).toMatchObject({ to: '15550100200', type: 'Generic' });
  await testDialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Create connector' }).click();
  await expect(page).toHaveURL(/\/connectors\/passwordless\/[\w-]+\/connection$/);
  const [connector] = (await api.get<{ id: string; type: string }[]>('/connectors')).filter((c) => c.type === 'Sms');

  // Phone sign-up with a texted code, through the connector.
  await api.patch('/sign-in-exp', {
    signIn: {
      methods: [
        { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
        { identifier: 'phone', password: false, verificationCode: true, isPasswordPrimary: false },
      ],
    },
    signUp: { identifiers: ['phone'], password: false, verify: true },
  });
  const redirectUri = `${test.info().project.use.baseURL}${callbackPath}`;
  const app = await api.post<{ id: string }>('/applications', {
    name: 'Texting e2e',
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [redirectUri] },
  });
  const context = await browser.newContext();
  try {
    const user = await context.newPage();
    await user.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, body: 'signed in' }));
    await startAuthorization(user, {
      clientId: app.id,
      redirectUri,
      state: 'sms',
      extra: { first_screen: 'register' },
    });
    const phone = `1555${String(Date.now()).slice(-7)}`;
    await user.getByLabel('Phone number').fill(phone);
    await user.getByRole('button', { name: 'Send code' }).click();
    await expect(user.getByRole('heading', { level: 1, name: 'Verify your phone number' })).toBeVisible();
    const text = await textNumber(2);
    expect(text).toMatchObject({ to: phone, type: 'Register' });
    await user.getByLabel('Verification code').fill(/\b(\d{6})\b/.exec(text.text)?.[1] ?? '');
    await user.getByRole('button', { name: 'Continue' }).click();
    await user.waitForURL((url) => url.href.startsWith(redirectUri) && url.searchParams.has('code'));
  } finally {
    await context.close();
    const { tenantId: _tenant, id: _id, ...settings } = original;
    await api.patch('/sign-in-exp', settings);
  }

  // Delete, after a confirmation.
  await page.goto(consolePath(`connectors/passwordless/${connector?.id}`));
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete connector' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete this connector?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(smsCard.getByRole('link', { name: 'Set up' })).toBeVisible();
  expect((await api.get<{ type: string }[]>('/connectors')).filter((c) => c.type === 'Sms')).toEqual([]);
});
