import { randomBytes } from 'node:crypto';
import { expectNoSeriousViolations, seriousViolations } from '../support/axe.ts';
import { consolePath } from '../support/console.ts';
import { waitForMail } from '../support/mail.ts';
import { managementApiAs } from '../support/management-api.ts';
import { startAuthorization } from '../support/oidc.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * The end-user pages of a tenant (issue 20), as its users see them in Chromium: the tenant's sign-in experience
 * (brand colour, dark mode, terms, support link, email sign-up with a verification code), axe-clean in light, dark
 * and Arabic, signing up through to the application's callback. The default tenant's settings are put back after,
 * because other specs sign in through its pages.
 */
const callbackPath = '/sign-in-pages-e2e/callback';

test('a tenant’s branded pages: sign-up with an emailed code, accessible in light, dark and Arabic', async ({
  page,
  browser,
}) => {
  const id = randomBytes(3).toString('hex');
  const redirectUri = `${test.info().project.use.baseURL}${callbackPath}`;
  await openSignedIn(page, consolePath('sign-in-experience'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  const original = await api.get<Record<string, unknown>>('/sign-in-exp');
  const app = await api.post<{ id: string }>('/applications', {
    name: `Lantern Books ${id}`,
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [redirectUri] },
  });
  await api.patch('/sign-in-exp', {
    color: { primaryColor: '#e8b400', isDarkModeEnabled: true, darkPrimaryColor: '#4b3fd1' },
    termsOfUseUrl: 'https://lantern.example.com/terms',
    privacyPolicyUrl: 'https://lantern.example.com/privacy',
    agreeToTermsPolicy: 'ManualRegistrationOnly',
    supportEmail: 'help@lantern.example.com',
    signIn: {
      methods: [
        { identifier: 'email', password: true, verificationCode: false, isPasswordPrimary: true },
        { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
      ],
    },
    signUp: { identifiers: ['email'], password: true, verify: true },
  });

  const context = await browser.newContext();
  try {
    const user = await context.newPage();
    await user.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, body: 'signed in' }));

    // Sign-in page, light: the app's name, the terms named, the support link; axe clean.
    await startAuthorization(user, { clientId: app.id, redirectUri, state: 'pages', scope: 'openid email' });
    await expect(user.getByRole('heading', { level: 1, name: `Sign in to Lantern Books ${id}` })).toBeVisible();
    await expect(user.getByRole('link', { name: 'Email support' })).toHaveAttribute(
      'href',
      'mailto:help@lantern.example.com',
    );
    await expectNoSeriousViolations(user, 'sign-in page, light');
    // The pale brand colour: buttons get dark text, links a darker shade (no contrast violation above).
    await user.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(user, { rules: ['color-contrast', 'link-in-text-block'] }), 'dark').toEqual([]);
    await user.emulateMedia({ colorScheme: 'light' });

    // Sign-up: email and password; the terms must be ticked; then the emailed code.
    await user.getByRole('link', { name: 'Create an account' }).click();
    await expect(
      user.getByRole('heading', { level: 1, name: `Create your Lantern Books ${id} account` }),
    ).toBeVisible();
    await expect(user.getByLabel('Username')).toHaveCount(0);
    await expectNoSeriousViolations(user, 'sign-up page, light');
    const address = `reader.${id}@example.com`;
    await user.getByLabel('Email', { exact: true }).fill(address);
    await user.getByLabel('Password', { exact: true }).fill('Reading-Lamp-58');
    await user.getByLabel('Confirm password').fill('Reading-Lamp-58');
    // The page's script: the password can be shown and hidden again.
    const password = user.getByLabel('Password', { exact: true });
    await user.getByRole('button', { name: 'Show' }).first().click();
    await expect(password).toHaveAttribute('type', 'text');
    await user.getByRole('button', { name: 'Hide' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await user.getByRole('button', { name: 'Create account' }).click();
    await expect(user.getByRole('alert')).toHaveText('Agree to the terms to continue.');
    await user.getByLabel('Confirm password').fill('Reading-Lamp-58');
    await user.getByLabel('Password', { exact: true }).fill('Reading-Lamp-58');
    await user.getByRole('checkbox').check();
    await user.getByRole('button', { name: 'Create account' }).click();
    await expect(user.getByRole('heading', { level: 1, name: 'Verify your email' })).toBeVisible();
    await expect(user.getByRole('status')).toContainText(address);
    // A new code only after a minute: the link says how long, and is not a link meanwhile.
    const resend = user.locator('a[data-wait]');
    await expect(resend).toHaveText(/^Send a new code in \d+ s$/);
    await expect(resend).toHaveAttribute('aria-disabled', 'true');
    await expect(resend).not.toHaveAttribute('href');
    await expectNoSeriousViolations(user, 'code page, light');

    const mail = await waitForMail(address);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    await user.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
    await user.getByRole('button', { name: 'Continue' }).click();
    await expect(user.getByRole('alert')).toHaveText('The code is incorrect or has expired.');
    await user.getByLabel('Verification code').fill(code);
    await user.getByRole('button', { name: 'Continue' }).click();
    await user.waitForURL((url) => url.href.startsWith(redirectUri) && url.searchParams.has('code'));

    // The same pages in Arabic (ui_locales): right to left, translated, axe clean.
    const arabic = await context.newPage();
    await startAuthorization(arabic, {
      clientId: app.id,
      redirectUri,
      state: 'ar',
      extra: { ui_locales: 'ar', prompt: 'login' },
    });
    await expect(arabic.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(arabic.getByRole('heading', { level: 1 })).toContainText(`Lantern Books ${id}`);
    await expectNoSeriousViolations(arabic, 'sign-in page, Arabic');

    // The user exists with a verified address.
    const [created] = await api.get<{ primaryEmail: string }[]>(`/users?search=${encodeURIComponent(address)}`);
    expect(created?.primaryEmail).toBe(address);
  } finally {
    await context.close();
    const { tenantId: _tenant, id: _id, ...settings } = original;
    await api.patch('/sign-in-exp', settings);
  }
});

test('sign-in by an emailed code: a wrong code is refused, the right one signs in, and cannot be used again', async ({
  page,
  browser,
}) => {
  const id = randomBytes(3).toString('hex');
  const redirectUri = `${test.info().project.use.baseURL}${callbackPath}`;
  await openSignedIn(page, consolePath('sign-in-experience'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  const original = await api.get<Record<string, unknown>>('/sign-in-exp');
  const address = `coder.${id}@example.com`;
  await api.post('/users', { username: `coder_${id}`, primaryEmail: address });
  const app = await api.post<{ id: string }>('/applications', {
    name: `Code Reader ${id}`,
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [redirectUri] },
  });
  await api.patch('/sign-in-exp', {
    signIn: {
      methods: [
        { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
        { identifier: 'email', password: true, verificationCode: true, isPasswordPrimary: true },
      ],
    },
  });
  const context = await browser.newContext();
  try {
    const user = await context.newPage();
    await user.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, body: 'signed in' }));
    await startAuthorization(user, { clientId: app.id, redirectUri, state: 'code' });
    await user.getByRole('link', { name: 'Sign in with a code sent to your email' }).click();
    await expect(user.getByRole('heading', { level: 1, name: 'Sign in with an email code' })).toBeVisible();
    await expectNoSeriousViolations(user, 'code sign-in page');
    await user.getByLabel('Email').fill(address);
    await user.getByRole('button', { name: 'Send code' }).click();
    await expect(user.getByRole('status')).toContainText(`If an account exists for ${address}`);
    const mail = await waitForMail(address);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    await user.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
    await user.getByRole('button', { name: 'Continue' }).click();
    await expect(user.getByRole('alert')).toHaveText('The code is incorrect or has expired.');
    await user.getByLabel('Verification code').fill(code);
    await user.getByRole('button', { name: 'Continue' }).click();
    await user.waitForURL((url) => url.href.startsWith(redirectUri) && url.searchParams.has('code'));

    // The same code in a new sign-in: spent.
    const again = await context.newPage();
    await startAuthorization(again, { clientId: app.id, redirectUri, state: 'again', extra: { prompt: 'login' } });
    await again.getByRole('link', { name: 'Sign in with a code sent to your email' }).click();
    await again.getByLabel('Email').fill(address);
    await again.getByRole('button', { name: 'Send code' }).click();
    await again.getByLabel('Verification code').fill(code);
    await again.getByRole('button', { name: 'Continue' }).click();
    await expect(again.getByRole('alert')).toHaveText('The code is incorrect or has expired.');
  } finally {
    await context.close();
    const { tenantId: _tenant, id: _id, ...settings } = original;
    await api.patch('/sign-in-exp', settings);
  }
});
