import { randomBytes } from 'node:crypto';
import { edition } from '../playwright.config.ts';
import { consolePath } from '../support/console.ts';
import { waitForMail } from '../support/mail.ts';
import { managementApiAs } from '../support/management-api.ts';
import { startAuthorization } from '../support/oidc.ts';
import { openSignedIn, submitSignIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

/**
 * An application of the default tenant whose callback is on the server's own origin (answered by the test): the
 * sign-in pages' CSP has `form-action 'self'`, which Chromium applies to the redirects after a form post.
 */
const callbackPath = '/forgot-password-e2e/callback';

test.describe('forgot password on the sign-in page', () => {
  test('a user resets the password with the emailed code and signs in with the new one', async ({ page, browser }) => {
    test.skip(edition === 'cloud', "the OSS default tenant's sign-in page (issuer /oidc)");
    const id = randomBytes(3).toString('hex');
    const redirectUri = `${test.info().project.use.baseURL}${callbackPath}`;
    const email = `forgot.${id}@example.com`;

    // The admin creates the user and an application to sign in to.
    await openSignedIn(page, consolePath('users'));
    await waitForShell(page);
    const api = await managementApiAs(page);
    const user = await api.post<{ id: string }>('/users', {
      username: `forgot_${id}`,
      primaryEmail: email,
      password: 'Original-Pass-42',
    });
    expect(user.id).toBeTruthy();
    const app = await api.post<{ id: string }>('/applications', {
      name: `Forgot password ${id}`,
      type: 'SPA',
      oidcClientMetadata: { redirectUris: [redirectUri] },
    });

    // The user, in a browser of their own, starts signing in to that application.
    const context = await browser.newContext();
    const userPage = await context.newPage();
    await userPage.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, body: 'signed in' }));
    await startAuthorization(userPage, { clientId: app.id, redirectUri, state: 'forgot' });

    await userPage.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(userPage.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
    await userPage.getByLabel('Email').fill(email);
    await userPage.getByRole('button', { name: 'Send code' }).click();
    await expect(userPage.getByRole('status')).toHaveText(
      `If an account exists for ${email}, we have sent a code to it. The code is valid for 10 minutes.`,
    );

    const mail = await waitForMail(email);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);

    // A wrong code first: the page says so and nothing changes.
    await userPage.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
    await userPage.getByLabel('New password').fill('Brand-New-Pass-77');
    await userPage.getByLabel('Confirm password').fill('Brand-New-Pass-77');
    await userPage.getByRole('button', { name: 'Reset password' }).click();
    await expect(userPage.getByRole('alert')).toHaveText('The code is incorrect or has expired.');

    await userPage.getByLabel('Code').fill(code);
    await userPage.getByLabel('New password').fill('Brand-New-Pass-77');
    await userPage.getByLabel('Confirm password').fill('Brand-New-Pass-77');
    await userPage.getByRole('button', { name: 'Reset password' }).click();
    await expect(userPage.getByRole('status')).toHaveText(
      'Your password has been changed. Sign in with your new password.',
    );

    // The old password is refused, the new one signs in and reaches the application.
    await submitSignIn(userPage, email, 'Original-Pass-42');
    await expect(userPage.getByRole('alert')).toHaveText('The username or password is incorrect.');
    await submitSignIn(userPage, email, 'Brand-New-Pass-77');
    await userPage.waitForURL((url) => url.href.startsWith(redirectUri) && url.searchParams.has('code'));
    await context.close();

    // The audit log has both steps.
    const entries = await api.get<{ key: string; payload: { result: string } }[]>(
      `/logs?userId=${user.id}&page_size=20`,
    );
    const keys = entries.map((entry) => `${entry.key}:${entry.payload.result}`);
    expect(keys).toContain('Interaction.ForgotPassword.Create:Success');
    expect(keys).toContain('Interaction.ForgotPassword.Submit:Success');
    expect(keys).toContain('Interaction.ForgotPassword.Submit:Error');
  });
});
