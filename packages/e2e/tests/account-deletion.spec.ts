import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { createAccount, enterSignUpCode } from '../support/accounts.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { sessionToken } from '../support/management-api.ts';
import { submitSignIn } from '../support/session.ts';
import { expect, test } from '../support/test.ts';

/**
 * Issue 42, deleting one's own account from the profile (cloud edition): a tenant on a paid plan blocks it (the
 * guard); otherwise the tenant the account alone administers is deleted, a tenant shared with another admin is left
 * to them, the browser is signed out and the account can no longer sign in.
 */
test.skip(edition !== 'cloud', 'Accounts delete themselves only in the cloud edition (EDITION=cloud).');

const suffix = randomBytes(4).toString('hex');
const password = 'leaving-correct-horse-1';

/** A call of the cloud API as the account signed in on `page` (its sign-in's access token). */
async function cloudApi<T>(page: Page, method: 'GET' | 'POST' | 'PATCH', path: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

const createTenant = (page: Page, name: string, tag: 'production' | 'development') =>
  cloudApi<{ id: string }>(page, 'POST', '/api/tenants', { name, tag });

/** Starts the deletion from the profile's last section. */
async function startDeletion(page: Page): Promise<void> {
  await page.goto('/console/profile');
  const section = page.getByRole('region', { name: 'Delete account' });
  await expect(section).toBeVisible({ timeout: 20_000 });
  await section.getByRole('button', { name: 'Delete account' }).click();
}

test('a tenant on a paid plan blocks the deletion', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const origin = baseURL ?? '';
  await createAccount(page, origin, `paying_${suffix}`, password);
  const shopName = `Paid shop ${suffix}`;
  const shop = await createTenant(page, shopName, 'production');
  // Pro through the sandbox checkout, paid on its page.
  const { redirectUri } = await cloudApi<{ redirectUri: string }>(page, 'POST', '/api/checkout-session', {
    skuId: 'Pro202411',
    tenantId: shop.id,
    successCallbackUrl: `${origin}/console/checkout-success-callback?state=e2e042`,
  });
  await page.goto(redirectUri);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/console\//);

  await startDeletion(page);
  const guard = page.getByRole('alertdialog', { name: 'Your account cannot be deleted yet' });
  await expect(guard).toBeVisible();
  await expect(guard.getByRole('listitem').filter({ hasText: shopName })).toContainText(
    'It is on a paid plan: move it to the Free plan first.',
  );
  await expect(guard.getByRole('button', { name: 'Continue' })).toHaveCount(0);
  await expectNoSeriousViolations(page, 'account deletion guard');
  await guard.getByRole('button', { name: 'Got it' }).click();
  await expect(guard).toHaveCount(0);
  // Nothing went: the account and its tenant are there.
  const tenants = await cloudApi<Array<{ id: string }>>(page, 'GET', '/api/tenants');
  expect(tenants.map((tenant) => tenant.id)).toContain(shop.id);
});

test('deletes the tenant it alone administers, leaves the shared one to its other admin, and signs out', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const origin = baseURL ?? '';
  const leaver = `leaver_${suffix}`;
  const stayer = { username: `stayer_${suffix}`, email: `stayer-${suffix}@example.com` };
  const leaverContext = await browser.newContext();
  const stayerContext = await browser.newContext();
  try {
    const a = await leaverContext.newPage();
    const b = await stayerContext.newPage();
    await createAccount(a, origin, leaver, password);
    // The other admin signs up with an email (proven by the mailed code): invitations open for proven addresses.
    await b.goto('/console/profile');
    await b.waitForURL(/\/interaction\//);
    await b.getByRole('link', { name: 'Create an account' }).click();
    await b.getByLabel('Username').fill(stayer.username);
    await b.getByLabel('Email (optional)').fill(stayer.email);
    await b.getByLabel('Password', { exact: true }).fill(password);
    await b.getByLabel('Confirm password').fill(password);
    await b.getByRole('button', { name: 'Create account' }).click();
    await enterSignUpCode(b, stayer.email);
    await b.waitForURL((url) => url.pathname.startsWith('/console') && !url.pathname.endsWith('/callback'));

    const ownName = `Own ${suffix}`;
    const sharedName = `Shared ${suffix}`;
    const own = await createTenant(a, ownName, 'production');
    // Development: Free's member quota holds one member only.
    const shared = await createTenant(a, sharedName, 'development');
    const [invitation] = await cloudApi<Array<{ id: string }>>(a, 'POST', `/api/tenants/${shared.id}/invitations`, {
      invitee: stayer.email,
      roleName: 'admin',
    });
    await cloudApi(b, 'PATCH', `/api/invitations/${invitation?.id}/status`, { status: 'Accepted' });

    await startDeletion(a);
    const review = a.getByRole('alertdialog', { name: 'Delete account' });
    await expect(review.getByRole('region', { name: 'Deleted with all their data' })).toHaveText(
      new RegExp(`${ownName}$`),
    );
    await expect(review.getByRole('region', { name: 'Left to their other admins' })).toHaveText(
      new RegExp(`${sharedName}$`),
    );
    await expectNoSeriousViolations(a, 'account deletion review');
    await review.getByRole('button', { name: 'Continue' }).click();
    const verify = a.getByRole('dialog', { name: 'Verify your password' });
    await verify.getByLabel(/^Current password/).fill(password);
    await verify.getByRole('button', { name: 'Delete account' }).click();

    // Signed out: the console asks to sign in, and the account is no more.
    await a.waitForURL(/\/interaction\//, { timeout: 30_000 });
    await submitSignIn(a, leaver, password);
    await expect(a.getByText('The username or password is incorrect.')).toBeVisible();

    // The owned tenant is gone; the shared one is the other admin's, intact.
    expect((await b.request.get(`/api/.well-known/endpoints/${own.id}`)).status()).toBe(404);
    const tenants = await cloudApi<Array<{ id: string; name: string; role: string }>>(b, 'GET', '/api/tenants');
    expect(tenants.filter((tenant) => tenant.id === shared.id)).toEqual([
      expect.objectContaining({ name: sharedName, role: 'admin' }),
    ]);
    const members = await cloudApi<Array<{ username: string; role: string }>>(
      b,
      'GET',
      `/api/tenants/${shared.id}/members`,
    );
    expect(members.map((member) => [member.username, member.role])).toEqual([[stayer.username, 'admin']]);
  } finally {
    await leaverContext.close();
    await stayerContext.close();
  }
});
