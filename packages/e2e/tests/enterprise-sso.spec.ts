import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { consolePath, expectHeading } from '../support/console.ts';
import { type ManagementApi, managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the test then saves what it saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/enterprise-sso-${name}.png`, fullPage: true });
}

/** Each test makes its own data: a suffix keeps its names apart from every other test's. */
const suffix = () => randomBytes(4).toString('hex');

/** A self-signed certificate (CN "Gatehouse e2e test IdP", valid until 2126), standing for an IdP's signing key. */
const idpCertificate = `-----BEGIN CERTIFICATE-----
MIIDJTCCAg2gAwIBAgIUG0i5A4qbld55l+kj85aPq3a4iBIwDQYJKoZIhvcNAQEL
BQAwITEfMB0GA1UEAwwWR2F0ZWhvdXNlIGUyZSB0ZXN0IElkUDAgFw0yNjExMjgx
NTQ5MDlaGA8yMTI2MTEwNDE1NDkwOVowITEfMB0GA1UEAwwWR2F0ZWhvdXNlIGUy
ZSB0ZXN0IElkUDCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAJcsZBwi
riiBdXvlzjl/NI6PmNs771OPhThtJaTMa283u+GOFOfDjMvKAsWTiDzti1E7I2WP
NLj94szJbbeWMacOjDt4IzB8Mix7CDN5UDChS6oiCFMTOCipW/fOF/Mf9ee6quzj
X/puoY/owC4oItybZL2c2vmLDKqG1MN/uYey9rfqTPLgj3oOmUprnIi+019LUfGq
wk4qD9dtinbs75E2KQEciG9gcANY6dj2Nz18xdxosQuITA+Z/d1SO4lx5482O++j
rB6cxNVKcpRsUSjFJ/62syoUTzijFYRYDL8fry6z/ERKAxeQIO93LhT97+2/KHB1
X6oJphWgc1Wmz9MCAwEAAaNTMFEwHQYDVR0OBBYEFBlA1VZCqIXwlhXohwGVyXTs
eQLjMB8GA1UdIwQYMBaAFBlA1VZCqIXwlhXohwGVyXTseQLjMA8GA1UdEwEB/wQF
MAMBAf8wDQYJKoZIhvcNAQELBQADggEBADzLzjnbxkRugA7Fgg5PjKlFn1j/took
LiOz9yhi1GQA2DWvL9EAIwuX0Dc+8QJyCjwyV/3Gny9f/Q1O6DNB+rM7JNFYS+k5
+zYDqrrMcVWAVUzxRK+WiZGs/CnwMhyg7q9mQHbGAHEmqZWU8XWImAtDki/7TceH
BBEH6OMgXRjL2AtPky/LsLKAGOQNAxyn2tyCK3kp3wpJjI8k6SuSAz/asJFCXuHy
p43rkw298E657Wp+Ay+Ayl1GksIXolBV77TxwY5I0h81FYivsqRu9EgXD9r7A2tJ
QuMprbwkIu3RP/v7gKomoFiGjPxY672Wri4y9Zn+LnES0oTt6xnfe54=
-----END CERTIFICATE-----`;

type Connector = { id: string; connectorName: string; config: Record<string, unknown>; domains: string[] };

async function connectorsNamed(api: ManagementApi, name: string): Promise<Connector[]> {
  const connectors = await api.get<Connector[]>('/sso-connectors?page=1&page_size=100');
  return connectors.filter((connector) => connector.connectorName === name);
}

const row = (scope: Page | Locator, text: string) => scope.getByRole('row').filter({ hasText: text });
const createDialog = (page: Page) => page.getByRole('dialog', { name: 'Add enterprise connector' });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save changes' });

/** Opens the create dialog from the list (its header or, on an empty list, the empty state) and makes a connector. */
async function createConnector(page: Page, providerName: 'OIDC' | 'SAML', name: string): Promise<string> {
  await page.getByRole('button', { name: 'Add enterprise connector' }).click();
  const dialog = createDialog(page);
  await dialog.locator(`input[type="radio"][value="${providerName}"]`).check();
  await dialog.getByRole('textbox', { name: /^Connector name/ }).fill(name);
  await dialog.getByRole('button', { name: 'Add connector' }).click();
  await expect(page).toHaveURL(/\/enterprise-sso\/[^/]+\/connection$/);
  await expectHeading(page, name);
  return page.url().split('/').at(-2) ?? '';
}

test('enterprise SSO: SAML by hand and OIDC connectors, their experience, the list, bad input, delete', async ({
  page,
}) => {
  await openSignedIn(page, consolePath('enterprise-sso'));
  await waitForShell(page);
  const api = await managementApiAs(page);
  await expectHeading(page, 'Enterprise SSO');
  const tag = suffix();
  const samlName = `Globex SAML ${tag}`;
  const oidcName = `Acme OIDC ${tag}`;
  const domain = `globex-${tag}.test`;

  // Bad input in the create dialog: the form's messages, and nothing created.
  await page.getByRole('button', { name: 'Add enterprise connector' }).click();
  const dialog = createDialog(page);
  await dialog.getByRole('button', { name: 'Add connector' }).click();
  await expect(dialog.getByTestId('providerName-error')).toHaveText('Choose a provider');
  await expect(dialog.getByTestId('connectorName-error')).toHaveText('Required');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // SAML, the IdP's side by hand; an invalid sign-in URL is refused before anything is sent.
  const samlId = await createConnector(page, 'SAML', samlName);
  await expect(page.getByTestId('our-side')).toContainText(`/enterprise-sso/default/${samlId}/saml-metadata`);
  await expect(page.getByTestId('idp-result')).toContainText('Nothing yet');
  await page.locator('input[type="radio"][value="manual"]').check();
  await page.getByRole('textbox', { name: /^IdP entity ID/ }).fill(`urn:globex:${tag}`);
  await page.getByRole('textbox', { name: /^Sign-in URL/ }).fill('not a url');
  await page.getByRole('textbox', { name: /^Signing certificate/ }).fill(idpCertificate);
  await saveButton(page).click();
  await expect(page.getByTestId('signInEndpoint-error')).toHaveText('Enter a URL starting with https:// or http://');
  expect((await connectorsNamed(api, samlName))[0]?.config.entityId, 'nothing saved').toBeUndefined();
  await page.getByRole('textbox', { name: /^Sign-in URL/ }).fill('https://sso.globex.test/saml');
  await saveButton(page).click();
  await expect(page.getByTestId('idp-result')).toContainText(`urn:globex:${tag}`);
  await expect(page.getByTestId('idp-result')).toContainText('Certificate expires');
  await snap(page, 'saml-connection');

  // Its sign-in experience: display name and an email domain (a bad one first).
  await page.getByRole('main').getByRole('link', { name: 'Sign-in experience', exact: true }).click();
  await page.getByRole('textbox', { name: /^Display name/ }).fill('Globex');
  await expect(page.getByTestId('button-preview')).toHaveText('Continue with Globex');
  await page.getByRole('textbox', { name: /^Domain 1/ }).fill('not a domain');
  await saveButton(page).click();
  await expect(page.getByTestId('domains.0-error')).toHaveText('Enter a domain such as example.com');
  await page.getByRole('textbox', { name: /^Domain 1/ }).fill(domain.toUpperCase());
  await saveButton(page).click();
  await expect(page.getByText('Sign-in experience saved.')).toBeVisible();
  const [saml] = await connectorsNamed(api, samlName);
  expect(saml?.domains).toEqual([domain]);

  // OIDC, against the default tenant's own issuer (a real discovery document); a bad issuer first.
  await page.getByRole('link', { name: 'Back to enterprise SSO' }).click();
  const oidcId = await createConnector(page, 'OIDC', oidcName);
  await expect(page.getByTestId('our-side')).toContainText(`/callback/sso/default/${oidcId}`);
  const issuer = page.getByRole('textbox', { name: /^Issuer/ });
  await issuer.fill('not a url');
  await page.getByRole('textbox', { name: /^Client ID/ }).fill('gatehouse-e2e');
  await page.getByLabel(/^Client secret/).fill('a client secret');
  await saveButton(page).click();
  await expect(page.getByTestId('issuer-error')).toHaveText('Enter a URL starting with https:// or http://');
  expect((await connectorsNamed(api, oidcName))[0]?.config.clientId, 'nothing saved').toBeUndefined();
  await issuer.fill(`${new URL(page.url()).origin}/oidc`);
  await saveButton(page).click();
  await expect(page.getByTestId('idp-result')).toContainText('/oidc/token');
  await snap(page, 'oidc-connection');

  // Both in the list, ready, with the SAML connector's domain.
  await page.getByRole('link', { name: 'Back to enterprise SSO' }).click();
  await expect(row(page, samlName)).toContainText(domain);
  await expect(row(page, samlName)).toContainText('Ready');
  await expect(row(page, oidcName)).toContainText('Ready');
  await snap(page, 'list');

  // Deleting asks first, then the connector is gone.
  for (const { id, name } of [
    { id: samlId, name: samlName },
    { id: oidcId, name: oidcName },
  ]) {
    await page.goto(consolePath(`enterprise-sso/${id}/experience`));
    await page.getByRole('button', { name: 'Delete connector' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/enterprise-sso$/);
    await expect(row(page, name)).toHaveCount(0);
    expect(await connectorsNamed(api, name)).toEqual([]);
  }
});
