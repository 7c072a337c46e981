import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots)
    await page.screenshot({ path: `${screenshots}/${edition}-customize-jwt-${name}.png`, fullPage: true });
}

const suffix = () => randomBytes(4).toString('hex');
type TokenType = 'access-token' | 'client-credentials';
const configKeys = { 'access-token': 'jwt.accessToken', 'client-credentials': 'jwt.clientCredentials' } as const;

/** The console on the customize-jwt index, with no script of `tokenType` saved (a failed earlier run may have left one). */
async function openCustomizeJwt(page: Page, tokenType: TokenType): Promise<ManagementApi> {
  await openSignedIn(page, consolePath('get-started'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  await removeScript(api, tokenType);
  await page.goto(consolePath('customize-jwt'));
  await expectHeading(page, 'Custom JWT');
  return api;
}

async function removeScript(api: ManagementApi, tokenType: TokenType): Promise<void> {
  const saved = await api.get<{ key: string }[]>('/configs/jwt-customizer');
  if (saved.some((entry) => entry.key === configKeys[tokenType])) {
    await api.delete(`/configs/jwt-customizer/${tokenType}`);
  }
}

/** Replaces the text of a code editor (CodeMirror), as pasting would. */
async function setCode(page: Page, label: RegExp, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: label });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

const scriptField = /^Script \(JavaScript\)/;

/** The claims of a JWT, read without verifying it (the issuer's keys are not what is under test here). */
function claimsOf(jwt: string): Record<string, unknown> {
  const [, payload = ''] = jwt.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

test.describe('custom JWT', () => {
  test('a machine-to-machine script adds a claim from an environment variable: tested, saved, then in an issued token', async ({
    page,
    baseURL,
  }) => {
    const api = await openCustomizeJwt(page, 'client-credentials');
    const created: { app?: string; resource?: string } = {};
    try {
      const card = page.getByRole('region', { name: 'Machine-to-machine access token' });
      await card.getByRole('link', { name: 'Add script' }).click();
      await expectHeading(page, 'Machine-to-machine access token');
      await setCode(
        page,
        scriptField,
        'const getCustomJwtClaims = async ({ context, environmentVariables }) => ({\n' +
          '  tier: environmentVariables.TIER,\n  app_name: context.application.name,\n});\n',
      );
      await page.getByRole('button', { name: 'Add variable' }).click();
      await page.getByRole('textbox', { name: 'Name' }).fill('TIER');
      await page.getByLabel('Value', { exact: true }).fill('gold');

      await page.getByRole('button', { name: 'Run test' }).click();
      const result = page.getByTestId('test-result');
      await expect(result, 'the claim from the variable').toContainText('"tier": "gold"');
      await expect(result, 'the sample context’s application').toContainText('"app_name": "Nightly job"');
      await snap(page, 'tested');

      await page.getByRole('button', { name: 'Create script' }).click();
      await expect(page.getByText('Script “Machine-to-machine access token” saved.')).toBeVisible();
      await expect(page).toHaveURL(/\/customize-jwt\/client-credentials\/edit$/);
      await expect(page.getByLabel('Value', { exact: true }), 'the saved value shows masked').toHaveValue('********');

      // A real token: an M2M application asks the tenant's token endpoint for an API resource.
      const name = `e2e custom jwt ${suffix()}`;
      const indicator = `https://custom-jwt-${suffix()}.example.com/api`;
      const resource = await api.post<{ id: string }>('/resources', { name, indicator });
      created.resource = resource.id;
      const app = await api.createMachineToMachineApp(name);
      created.app = app.id;
      const secret = await api.post<{ value: string }>(`/applications/${app.id}/secrets`, { name: 'e2e' });
      const response = await page.request.post(`${baseURL}/oidc/token`, {
        headers: { Authorization: `Basic ${Buffer.from(`${app.id}:${secret.value}`).toString('base64')}` },
        form: { grant_type: 'client_credentials', resource: indicator },
      });
      expect(response.ok(), await response.text()).toBe(true);
      const { access_token: accessToken } = (await response.json()) as { access_token: string };
      expect(claimsOf(accessToken)).toMatchObject({ tier: 'gold', app_name: name, sub: app.id, aud: indicator });
    } finally {
      // Other specs issue machine-to-machine tokens too: they must not carry this script's claims.
      await removeScript(api, 'client-credentials');
      if (created.app) await api.delete(`/applications/${created.app}`);
      if (created.resource) await api.delete(`/resources/${created.resource}`);
    }
  });

  test('a sample that is not JSON is refused on its field with nothing saved; a failing script shows its error', async ({
    page,
  }) => {
    const api = await openCustomizeJwt(page, 'access-token');
    await page.getByRole('region', { name: 'User access token' }).getByRole('link', { name: 'Add script' }).click();
    await expectHeading(page, 'User access token');

    await setCode(page, /^Sample token/, '{ "sub": ');
    await page.getByRole('button', { name: 'Run test' }).click();
    await expect(page.getByTestId('tokenSample-error')).toHaveText('Invalid JSON format.');
    await page.getByRole('button', { name: 'Create script' }).click();
    await expect(page.getByTestId('tokenSample-error')).toHaveText('Invalid JSON format.');
    await expect(page).toHaveURL(/\/customize-jwt\/access-token\/create$/);
    expect(
      (await api.get<{ key: string }[]>('/configs/jwt-customizer')).map((entry) => entry.key),
      'nothing saved',
    ).not.toContain('jwt.accessToken');

    await setCode(page, /^Sample token/, '{ "sub": "u1" }');
    await setCode(
      page,
      scriptField,
      "const getCustomJwtClaims = async ({ context }) => {\n  throw new Error('no plan for ' + context.user.username);\n};\n",
    );
    await page.getByRole('button', { name: 'Run test' }).click();
    const failure = page.getByTestId('test-error');
    await expect(failure).toContainText('The script failed');
    await expect(failure).toContainText('no plan for jdoe');
    await expect(page.getByTestId('tokenSample-error')).toHaveCount(0);
    await snap(page, 'script-error');
  });
});
