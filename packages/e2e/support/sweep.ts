import { randomBytes } from 'node:crypto';
import { expect, type Locator, type Page } from '@playwright/test';
import { expectHeading } from './console.ts';
import type { ManagementApi } from './management-api.ts';
import { userMenuButton } from './shell.ts';
import { startReceiver } from './webhook-receiver.ts';

/**
 * The cross-cutting sweep (tests/sweep.spec.ts): every page of every console area, with its main dialogs, is checked
 * by axe in light and in dark, and read in Arabic (right to left, translated). Area specs do not repeat these checks.
 *
 * A sweep entry per sidebar item: the sweep reads the sidebar the console draws from its area registry and fails when
 * an item has no entry here, so a new area cannot be forgotten. Each entry makes its own data through the API and
 * lists its stops (console paths relative to the tenant, see consolePath).
 */
export type SweepDialog = {
  name: string;
  /** Opens the dialog (or menu, or the page state) and waits until it shows its content. */
  open: (page: Page) => Promise<void>;
  /** Closes it again; Escape when absent. */
  close?: (page: Page) => Promise<void>;
  /** What axe looks at while it is open (the page behind was checked already); the open dialog by default. */
  scope?: string;
};

export type SweepStop = {
  name: string;
  path: string;
  /** Waits until the page shows its content (in English). */
  ready: (page: Page) => Promise<void>;
  dialogs?: SweepDialog[];
  /** What the page shows in Arabic, beyond the sweep's own right-to-left checks. */
  arabic?: (page: Page) => Promise<void>;
};

export type SweepArea = {
  prepare: (api: ManagementApi) => Promise<{ stops: SweepStop[]; cleanup?: () => Promise<void> }>;
};

const suffix = () => randomBytes(4).toString('hex');
const row = (scope: Page | Locator, text: string) => scope.getByRole('row').filter({ hasText: text });
const heading = (name: string | RegExp) => (page: Page) => expectHeading(page, name);
/** Tabs and details load after the heading; the page is ready when no loading status is left. */
const settled = (page: Page) => expect(page.getByRole('status')).toHaveCount(0);

/** A tab of a detail page: ready once its heading names the entity and nothing is left loading. */
const detailTab = (name: string, path: string, title: string): SweepStop => ({
  name,
  path,
  ready: async (page) => {
    await expectHeading(page, title);
    await settled(page);
  },
});

export const sweepAreas: Record<string, SweepArea> = {
  get_started: {
    prepare: async () => ({
      stops: [
        {
          name: 'get started',
          path: 'get-started',
          ready: heading('Get started'),
          dialogs: [
            {
              name: 'open user menu with its language submenu',
              scope: '[role="menu"]',
              open: async (page) => {
                await userMenuButton(page).click();
                await page.getByRole('menuitem', { name: /^Language/ }).focus();
                await page.keyboard.press('Enter');
                await expect(page.getByRole('menuitemradio').first()).toBeVisible();
              },
              close: async (page) => {
                await page.keyboard.press('Escape');
                await page.keyboard.press('Escape');
                await expect(page.getByRole('menu')).toHaveCount(0);
              },
            },
            {
              name: 'command palette',
              open: async (page) => {
                await page.keyboard.press('Control+K');
                await expect(page.getByRole('combobox', { name: 'Search pages' })).toBeFocused();
              },
            },
          ],
          arabic: async (page) => {
            await expectHeading(page, 'البدء');
          },
        },
      ],
    }),
  },

  dashboard: {
    prepare: async () => ({
      stops: [
        {
          name: 'dashboard',
          path: 'dashboard',
          ready: async (page) => {
            await expectHeading(page, 'Dashboard');
            // A tenant with sign-ins draws the chart; a fresh one (the cloud run's) explains what will appear.
            await expect(
              page.getByTestId('dau-chart').locator('canvas').or(page.getByTestId('dau-no-data')),
            ).toBeVisible();
            await expect(page.getByTestId('dau-value')).toHaveText(/\d/);
          },
          arabic: async (page) => {
            await expectHeading(page, 'لوحة المعلومات');
            await expect(page.getByRole('button', { name: /٣٠ يومًا|30 يومًا/ })).toHaveAttribute('aria-pressed', 'true');
            const table = page.getByRole('table');
            await expect(table.getByRole('columnheader', { name: 'اليوم' })).toBeAttached();
            // The day headers are formatted by Intl in Arabic: not one Latin month name among them.
            const days = await table.getByRole('rowheader').allInnerTexts();
            expect(days).toHaveLength(30);
            for (const day of days) expect(day, 'an Arabic date').not.toMatch(/[A-Za-z]/);
            await expect(page.getByTestId('dau-chart').locator('canvas')).toBeVisible();
          },
        },
      ],
    }),
  },

  applications: {
    prepare: async (api) => {
      const name = `Sweep app ${suffix()}`;
      const app = await api.post<{ id: string }>('/applications', { name, type: 'MachineToMachine' });
      await api.post(`/applications/${app.id}/secrets`, { name: 'axe' });
      // The branding tab shows for third-party applications only; one with branding set, so the form is filled.
      const partnerName = `Sweep partner ${suffix()}`;
      const partner = await api.post<{ id: string }>('/applications', {
        name: partnerName,
        type: 'Traditional',
        isThirdParty: true,
        oidcClientMetadata: { redirectUris: ['https://partner.example.com/callback'] },
      });
      await api.put(`/applications/${partner.id}/sign-in-experience`, {
        displayName: 'Partner',
        color: { primaryColor: '#0a6' },
        termsOfUseUrl: 'https://partner.example.com/terms',
      });
      return {
        stops: [
          { name: 'list', path: 'applications', ready: heading('Applications') },
          { name: 'create', path: 'applications/create', ready: heading('Create application') },
          {
            name: 'settings',
            path: `applications/${app.id}/settings`,
            ready: heading(name),
            arabic: async (page) => {
              const tabs = page.getByRole('navigation', { name: `أقسام ${name}` });
              await expect(tabs.getByRole('link', { name: 'الإعدادات' })).toHaveAttribute('aria-current', 'page');
              await expect(
                page.getByRole('table', { name: 'أسرار العميل' }).getByRole('row', { name: /axe/ }),
              ).toBeVisible();
              await expect(page.getByRole('button', { name: 'إنشاء سر' })).toBeVisible();
            },
          },
          { name: 'roles', path: `applications/${app.id}/roles`, ready: heading(name) },
          {
            name: 'branding',
            path: `applications/${partner.id}/branding`,
            ready: async (page) => {
              await expectHeading(page, partnerName);
              await expect(page.getByLabel('Display name')).toHaveValue('Partner');
            },
            arabic: async (page) => {
              await expect(page.getByRole('link', { name: 'العلامة التجارية' })).toHaveAttribute(
                'aria-current',
                'page',
              );
              await expect(page.getByLabel('الاسم المعروض')).toHaveValue('Partner');
            },
          },
          {
            name: 'guide',
            path: `applications/${app.id}/guide/m2m`,
            ready: heading('Machine-to-machine (client credentials)'),
          },
        ],
      };
    },
  },

  api_resources: {
    prepare: async (api) => {
      const resource = await api.createResourceWithScopes(`Sweep API ${suffix()}`, [
        { name: 'read:axe', description: 'Read' },
      ]);
      const indicator = `https://${resource.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com/api`;
      const detail = `api-resources/${resource.id}`;
      const listed = (page: Page) =>
        expect(page.getByRole('table', { name: 'API resources' }).getByRole('row').nth(1)).toBeVisible();
      return {
        stops: [
          { name: 'list', path: 'api-resources', ready: listed },
          {
            name: 'permissions',
            path: `${detail}/permissions`,
            ready: async (page) => {
              await expect(row(page.getByRole('table', { name: 'Permissions' }), 'read:axe')).toBeVisible();
            },
          },
          {
            name: 'general',
            path: `${detail}/general`,
            ready: async (page) => {
              await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
              await expect(page.getByLabel('API identifier', { exact: true })).toHaveValue(indicator);
            },
            arabic: async (page) => {
              await expect(page.getByRole('link', { name: 'عام' })).toHaveAttribute('aria-current', 'page');
              await expect(page.getByLabel('معرّف API', { exact: true })).toHaveValue(indicator);
            },
          },
          { name: 'guide', path: `${detail}/guide/express`, ready: heading(/./) },
        ],
      };
    },
  },

  roles: {
    prepare: async (api) => {
      const resource = await api.createResourceWithScopes(`Sweep roles API ${suffix()}`, [
        { name: 'read:axe', description: 'Read' },
      ]);
      const role = await api.createRole({
        name: `Sweep role ${suffix()}`,
        scopeIds: resource.scopes.map((scope) => scope.id),
      });
      await api.createUser({ username: `sweep_${suffix()}` });
      const createDialog = (page: Page) => page.getByRole('dialog', { name: 'Create role' });
      const tabStop = (tab: string) => detailTab(tab, `roles/${role.id}/${tab}`, role.name);
      return {
        stops: [
          {
            name: 'list',
            path: 'roles',
            ready: async (page) => {
              await expect(row(page, 'Management API access')).toBeVisible();
            },
            dialogs: [
              {
                name: 'create dialog with an open resource',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Create role' }).click();
                  const dialog = createDialog(page);
                  await dialog.getByRole('searchbox').first().fill(resource.name);
                  const button = dialog.getByRole('button', { name: new RegExp(resource.name) });
                  await button.click();
                  await expect(button).toHaveAttribute('aria-expanded', 'true');
                  await dialog
                    .getByRole('list', { name: `Permissions of ${resource.name}` })
                    .getByRole('checkbox', { name: 'read:axe' })
                    .check();
                },
              },
            ],
          },
          tabStop('permissions'),
          {
            ...tabStop('users'),
            dialogs: [
              {
                name: 'assign users dialog',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Assign users' }).click();
                  await expect(
                    page.getByRole('list', { name: 'Search results' }).getByRole('checkbox').first(),
                  ).toBeVisible();
                },
              },
            ],
          },
          tabStop('general'),
        ],
      };
    },
  },

  organization_template: {
    prepare: async (api) => {
      const scope = await api.post<{ id: string; name: string }>('/organization-scopes', {
        name: `axe:${suffix()}`,
        description: 'Axe check',
      });
      const role = await api.post<{ id: string; name: string }>('/organization-roles', {
        name: `Sweep org role ${suffix()}`,
        organizationScopeIds: [scope.id],
      });
      const roleTab = (tab: string) =>
        detailTab(`role ${tab}`, `organization-template/organization-roles/${role.id}/${tab}`, role.name);
      return {
        stops: [
          {
            name: 'roles tab',
            path: 'organization-template/organization-roles',
            ready: async (page) => {
              await expect(
                page.getByRole('table', { name: 'Organization roles' }).getByRole('row').nth(1),
              ).toBeVisible();
            },
            dialogs: [
              {
                name: 'create dialog',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Create organization role' }).click();
                  const dialog = page.getByRole('dialog', { name: 'Create organization role' });
                  // The dialog's chunk, then the permissions it lists, load on a busy machine: allow them time.
                  await expect(dialog.getByRole('checkbox', { name: new RegExp(scope.name) })).toBeVisible({
                    timeout: 15_000,
                  });
                },
              },
            ],
            arabic: async (page) => {
              await expectHeading(page, 'قالب المؤسسة');
              await expect(page.getByRole('link', { name: 'أدوار المؤسسة' })).toHaveAttribute('aria-current', 'page');
            },
          },
          {
            name: 'permissions tab',
            path: 'organization-template/organization-permissions',
            ready: async (page) => {
              await expect(row(page, scope.name)).toBeVisible();
            },
          },
          {
            ...roleTab('permissions'),
            arabic: async (page) => {
              await expect(page.getByRole('button', { name: 'إسناد أذونات' })).toBeVisible();
            },
          },
          roleTab('general'),
        ],
      };
    },
  },

  organizations: {
    prepare: async (api) => {
      const name = `Sweep org ${suffix()}`;
      const organization = await api.post<{ id: string }>('/organizations', { name });
      await api.post('/organization-roles', { name: `sweep-invitee-${suffix()}`, type: 'User' });
      await api.post('/organization-invitations', {
        organizationId: organization.id,
        invitee: `sweep-${suffix()}@example.com`,
        expiresAt: Date.now() + 24 * 60 * 60 * 1000,
      });
      const inviteDialog = (page: Page) => page.getByRole('dialog', { name: 'Invite members' });
      return {
        stops: [
          {
            name: 'list',
            path: `organizations?search=${encodeURIComponent(name)}`,
            ready: async (page) => {
              await expect(row(page, name)).toBeVisible();
            },
          },
          { name: 'settings', path: `organizations/${organization.id}/settings`, ready: heading(name) },
          {
            name: 'members with a pending invitation',
            path: `organizations/${organization.id}/members`,
            ready: async (page) => {
              await expectHeading(page, name);
              await expect(page.getByRole('table', { name: 'Invitations' })).toContainText('Pending', {
                timeout: 20_000,
              });
            },
            dialogs: [
              {
                name: 'invite dialog with an error',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Invite members' }).click();
                  await inviteDialog(page).getByRole('button', { name: 'Send invitations' }).click();
                  await expect(inviteDialog(page).getByText('Enter at least one valid email address.')).toBeVisible();
                },
              },
            ],
            arabic: async (page) => {
              await expect(page.getByRole('table', { name: 'الدعوات' })).toContainText('معلّقة', { timeout: 20_000 });
              await page.getByRole('button', { name: 'دعوة أعضاء' }).click();
              await expect(page.getByRole('dialog', { name: 'دعوة أعضاء' })).toBeVisible();
              await page.keyboard.press('Escape');
            },
          },
        ],
      };
    },
  },

  users: {
    prepare: async (api) => {
      const id = suffix();
      const user = await api.post<{ id: string }>('/users', {
        username: `axe_${id}`,
        primaryEmail: `axe.${id}@example.com`,
        primaryPhone: '+1 555 0100',
        name: `Axe ${id}`,
        customData: { plan: 'pro' },
      });
      const role = await api.createRole({ name: `Axe role ${id}` });
      await api.post(`/users/${user.id}/roles`, { roleIds: [role.id] });
      const tabStop = (tab: string) => detailTab(tab, `users/${user.id}/${tab}`, `Axe ${id}`);
      return {
        stops: [
          {
            name: 'list',
            path: `users?search=${id}`,
            ready: async (page) => {
              await expect(row(page, `axe_${id}`)).toBeVisible();
            },
            dialogs: [
              {
                name: 'create dialog with an error',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Create user' }).click();
                  await page
                    .getByRole('dialog', { name: 'Create user' })
                    .getByRole('button', { name: 'Create user' })
                    .click();
                  await expect(page.getByRole('alert')).toBeVisible();
                },
              },
            ],
            arabic: async (page) => {
              await expect(row(page, `axe_${id}`)).toContainText(`axe.${id}@example.com`);
              // The import dialog, translated, with its column mapping.
              await page.getByRole('button', { name: 'استيراد', exact: true }).click();
              const dialog = page.getByRole('dialog', { name: 'استيراد المستخدمين' });
              await dialog.getByLabel('الملف').setInputFiles({
                name: 'people.csv',
                mimeType: 'text/csv',
                buffer: Buffer.from('username,Email\nx,x@example.com\n'),
              });
              await expect(dialog.getByRole('combobox', { name: 'حقل المستخدم للعمود Email' })).toHaveValue(
                'primaryEmail',
              );
              await dialog.getByRole('button', { name: 'إلغاء' }).click();
              await expect(dialog).toHaveCount(0);
            },
          },
          {
            ...tabStop('settings'),
            dialogs: [
              {
                name: 'password shown once',
                open: async (page) => {
                  await page.getByRole('button', { name: 'More actions' }).click();
                  await page.getByRole('menuitem', { name: 'Reset password' }).click();
                  await page
                    .getByRole('dialog', { name: 'Reset password' })
                    .getByRole('button', { name: 'Reset password' })
                    .click();
                  await expect(page.getByRole('dialog', { name: 'New password: save it now' })).toBeVisible();
                },
                close: async (page) => {
                  await page.getByRole('button', { name: 'I have saved it' }).click();
                  await expect(page.getByRole('dialog')).toHaveCount(0);
                },
              },
            ],
            arabic: async (page) => {
              await expect(page.getByRole('link', { name: 'الإعدادات' })).toHaveAttribute('aria-current', 'page');
              await expect(page.getByLabel('البريد الإلكتروني', { exact: true })).toHaveValue(`axe.${id}@example.com`);
            },
          },
          tabStop('roles'),
          tabStop('logs'),
          tabStop('organizations'),
        ],
      };
    },
  },

  sign_in_experience: {
    // Nothing is made or changed: the stops read the tenant's sign-in experience, and the one dialog shows a refusal
    // that saves nothing.
    prepare: async () => {
      const stop = (
        name: string,
        path: string,
        field: [role: 'textbox' | 'combobox' | 'spinbutton', name: string],
        arabicTab?: string,
      ): SweepStop => ({
        name: `sign-in experience ${name}`,
        path: `sign-in-experience/${path}`,
        ready: async (page) => {
          await expectHeading(page, 'Sign-in experience');
          await expect(page.getByRole(field[0], { name: field[1], exact: true })).toBeVisible();
          await expect(page.getByTitle('Preview of the sign-in page')).toHaveAttribute('src', /sign-in-preview/);
        },
        // Arabic on the first tab only: the tabs share one page frame and one namespace.
        ...(arabicTab && {
          arabic: async (page: Page) => {
            await expectHeading(page, 'تجربة تسجيل الدخول');
            await expect(page.getByRole('link', { name: arabicTab, exact: true })).toHaveAttribute(
              'aria-current',
              'page',
            );
            await expect(page.getByRole('heading', { name: 'معاينة مباشرة' })).toBeVisible();
          },
        }),
      });
      return {
        stops: [
          {
            ...stop('branding', 'branding', ['textbox', 'Primary color'], 'العلامة التجارية'),
            dialogs: [
              {
                name: 'save bar with a colour error',
                scope: 'main',
                open: async (page) => {
                  await page.getByRole('textbox', { name: 'Primary color', exact: true }).fill('#12');
                  await page.getByRole('button', { name: 'Save changes' }).click();
                  await expect(page.getByTestId('color.primaryColor-error')).toBeVisible();
                },
                close: async (page) => {
                  await page.getByRole('button', { name: 'Discard' }).click();
                  await expect(page.getByRole('region', { name: 'Unsaved changes' })).toHaveCount(0);
                },
              },
            ],
          },
          stop('sign-up and sign-in', 'sign-up-and-sign-in', ['combobox', 'Sign-up identifier']),
          stop('content', 'content', ['textbox', 'Terms of use URL']),
          stop('password policy', 'password-policy', ['spinbutton', 'Minimum length']),
        ],
      };
    },
  },
  connectors: {
    // An SMS connector (nothing is sent: no stop sends a test), so the email delivery of other specs is untouched, and
    // a social one (nothing signs in with it; the sign-in experience does not list it).
    prepare: async (api) => {
      const name = `Sweep SMS ${suffix()}`;
      const connector = await api.post<{ id: string }>('/connectors', {
        connectorId: 'http-sms',
        config: { endpoint: 'http://127.0.0.1:9/sms', authorization: 'Bearer sweep' },
        metadata: { name: { en: name } },
      });
      const socialName = `Sweep social ${suffix()}`;
      const social = await api.post<{ id: string }>('/connectors', {
        connectorId: 'oidc',
        config: { issuer: 'https://id.example.com', clientId: 'sweep', clientSecret: 'sweep-secret' },
        metadata: { name: { en: socialName } },
      });
      const smsCard = (page: Page) => page.getByTestId('sms-connector');
      return {
        cleanup: async () => {
          await api.delete(`/connectors/${connector.id}`);
          await api.delete(`/connectors/${social.id}`);
        },
        stops: [
          {
            name: 'passwordless',
            path: 'connectors/passwordless',
            ready: async (page) => {
              await expectHeading(page, 'Connectors');
              await expect(smsCard(page)).toContainText(name);
            },
            dialogs: [
              {
                name: 'choose an SMS connector',
                open: async (page) => {
                  await smsCard(page).getByRole('link', { name: 'Change' }).click();
                  await expect(page.getByRole('dialog', { name: 'Choose an SMS connector' })).toContainText('Twilio');
                },
              },
            ],
            arabic: async (page) => {
              await expectHeading(page, 'الموصلات');
              await expect(page.getByRole('link', { name: 'بدون كلمة مرور' })).toHaveAttribute('aria-current', 'page');
            },
          },
          {
            name: 'social',
            path: 'connectors/social',
            ready: async (page) => {
              await expect(page.getByTestId(`social-connector-${social.id}`)).toContainText(socialName);
            },
            dialogs: [
              {
                name: 'choose a social connector',
                open: async (page) => {
                  await page.getByRole('link', { name: 'Add social connector' }).click();
                  await expect(page.getByRole('dialog', { name: 'Choose a social connector' })).toContainText(
                    'OpenID Connect',
                  );
                },
              },
            ],
          },
          {
            name: 'social guide',
            path: 'connectors/social/guide/google-universal',
            ready: async (page) => {
              await expectHeading(page, 'Set up Google');
              await expect(page.getByTestId('redirect-uri').locator('code')).toContainText('/callback/social/');
            },
          },
          {
            ...detailTab('social connection', `connectors/social/${social.id}/connection`, socialName),
            ready: async (page) => {
              await expectHeading(page, socialName);
              await expect(page.getByTestId('redirect-uri').locator('code')).toContainText(social.id);
            },
          },
          {
            name: 'guide',
            path: 'connectors/passwordless/guide/http-email',
            ready: async (page) => {
              await expectHeading(page, 'Set up HTTP email');
            },
            dialogs: [
              {
                name: 'form with errors',
                scope: 'main',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Create connector' }).click();
                  await expect(page.getByTestId('config.endpoint-error')).toBeVisible();
                },
                close: async () => undefined,
              },
            ],
          },
          {
            ...detailTab('connection', `connectors/passwordless/${connector.id}/connection`, name),
            dialogs: [
              {
                name: 'test send',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Send a test' }).click();
                  await expect(page.getByRole('dialog', { name: 'Send a test message' })).toBeVisible();
                },
              },
            ],
          },
          detailTab('experience', `connectors/passwordless/${connector.id}/experience`, name),
        ],
      };
    },
  },
  enterprise_sso: {
    // Two drafts (no IdP settings yet, so nothing is read from any IdP): an OIDC and a SAML connector.
    prepare: async (api) => {
      const name = `Sweep SSO ${suffix()}`;
      const oidc = await api.post<{ id: string }>('/sso-connectors', {
        providerName: 'OIDC',
        connectorName: name,
        domains: [`sweep-${suffix()}.test`],
      });
      const samlName = `Sweep SAML ${suffix()}`;
      const saml = await api.post<{ id: string }>('/sso-connectors', { providerName: 'SAML', connectorName: samlName });
      // The OIDC connector's SCIM provisioning (issue 45), with a user its directory made, so its tables have rows.
      const scimName = `Sweep directory ${suffix()}`;
      const scim = await api.post<{ id: string; baseUrl: string; token: string }>('/scim-connections', {
        name: scimName,
        ssoConnectorId: oidc.id,
      });
      const email = `sweep-${suffix()}@example.test`;
      const scimUser = await fetch(`${scim.baseUrl}/Users`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${scim.token}`, 'Content-Type': 'application/scim+json' },
        body: JSON.stringify({
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: email,
          name: { givenName: 'Sweep', familyName: 'Directory' },
          emails: [{ value: email, primary: true }],
        }),
      });
      expect(scimUser.status, 'the directory made a user').toBe(201);
      const { id: scimUserId } = (await scimUser.json()) as { id: string };
      return {
        cleanup: async () => {
          await api.delete(`/scim-connections/${scim.id}`);
          await api.delete(`/users/${scimUserId}`);
          await api.delete(`/sso-connectors/${oidc.id}`);
          await api.delete(`/sso-connectors/${saml.id}`);
        },
        stops: [
          {
            name: 'list',
            path: 'enterprise-sso',
            ready: async (page) => {
              await expect(row(page, name)).toContainText('Incomplete');
            },
            dialogs: [
              {
                name: 'create dialog with errors',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Add enterprise connector' }).click();
                  const dialog = page.getByRole('dialog', { name: 'Add enterprise connector' });
                  await expect(dialog.getByRole('radio')).not.toHaveCount(0);
                  await dialog.getByRole('button', { name: 'Add connector' }).click();
                  await expect(dialog.getByTestId('connectorName-error')).toBeVisible();
                },
              },
            ],
            arabic: async (page) => {
              await expectHeading(page, 'الدخول الموحّد للمؤسسات');
              await expect(row(page, name)).toContainText('غير مكتمل');
            },
          },
          {
            ...detailTab('OIDC connection', `enterprise-sso/${oidc.id}/connection`, name),
            ready: async (page) => {
              await expectHeading(page, name);
              await expect(page.getByTestId('our-side').locator('code')).toContainText(`/callback/sso/`);
            },
            arabic: async (page) => {
              await expect(page.getByRole('link', { name: 'الاتصال' })).toHaveAttribute('aria-current', 'page');
              await expect(page.getByTestId('our-side').getByText('رابط إعادة التوجيه', { exact: true })).toBeVisible();
            },
          },
          detailTab('SAML connection', `enterprise-sso/${saml.id}/connection`, samlName),
          detailTab('experience', `enterprise-sso/${oidc.id}/experience`, name),
          {
            name: 'provisioning, none yet',
            path: `enterprise-sso/${saml.id}/provisioning`,
            ready: async (page) => {
              await expectHeading(page, samlName);
              await expect(page.getByRole('button', { name: 'Set up provisioning' })).toBeVisible();
            },
            dialogs: [
              {
                name: 'set-up dialog with errors',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Set up provisioning' }).click();
                  const dialog = page.getByRole('dialog', { name: 'Set up SCIM provisioning' });
                  await dialog.getByRole('radio', { name: /One organization/ }).check();
                  await dialog.getByRole('button', { name: 'Set up' }).click();
                  await expect(dialog.getByTestId('organizationId-error')).toBeVisible();
                },
              },
            ],
          },
          {
            name: 'provisioning',
            path: `enterprise-sso/${oidc.id}/provisioning`,
            ready: async (page) => {
              await expectHeading(page, name);
              await expect(page.getByRole('table', { name: 'Provisioned users' })).toContainText(email);
              await expect(page.getByRole('table', { name: 'Recent requests' })).toContainText('/Users');
              await settled(page);
            },
            dialogs: [
              {
                name: 'a new token, shown once',
                scope: '[data-testid="scim-endpoint"]',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Rotate token' }).click();
                  await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate' }).click();
                  await expect(page.getByTestId('scim-token').getByRole('alert')).toBeVisible();
                },
                close: async (page) => {
                  await page.getByRole('button', { name: 'Hide token' }).click();
                  await expect(page.getByTestId('scim-token').getByRole('alert')).toHaveCount(0);
                },
              },
            ],
            arabic: async (page) => {
              await expect(page.getByRole('link', { name: 'التزويد' })).toHaveAttribute('aria-current', 'page');
              await expect(page.getByRole('heading', { name: 'ربط الدليل' })).toBeVisible();
              await expect(page.getByRole('table', { name: 'المستخدمون المزوَّدون' })).toContainText(email);
            },
          },
        ],
      };
    },
  },
  signing_keys: {
    prepare: async () => ({
      stops: [
        {
          name: 'keys',
          path: 'signing-keys',
          ready: async (page) => {
            await expectHeading(page, 'Signing keys');
            const table = page.getByRole('table', { name: 'OIDC private keys' });
            await expect(table.getByRole('row').filter({ has: page.getByRole('cell') })).not.toHaveCount(0);
          },
          dialogs: [
            {
              name: 'rotate dialog',
              open: async (page) => {
                await page.getByRole('button', { name: 'Rotate private keys' }).click();
                await expect(page.getByRole('dialog', { name: 'Rotate the private keys?' })).toBeVisible();
              },
              close: async (page) => {
                await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
                await expect(page.getByRole('dialog')).toHaveCount(0);
              },
            },
          ],
          arabic: async (page) => {
            await expectHeading(page, 'مفاتيح التوقيع');
            await expect(page.getByRole('table', { name: 'مفاتيح OIDC الخاصة' })).toContainText('الحالي');
            await expect(page.getByLabel('الوحدة', { exact: true })).toBeVisible();
            await page.getByRole('button', { name: 'تدوير المفاتيح الخاصة' }).click();
            await expect(page.getByRole('dialog', { name: 'هل تريد تدوير المفاتيح الخاصة؟' })).toBeVisible();
            await page.keyboard.press('Escape');
            await expect(page.getByRole('dialog')).toHaveCount(0);
          },
        },
      ],
    }),
  },

  mfa: {
    // Nothing is saved: the stop reads the tenant's MFA settings, and the one state shows a refusal that sends nothing.
    prepare: async () => ({
      stops: [
        {
          name: 'mfa',
          path: 'mfa',
          ready: async (page) => {
            await expectHeading(page, 'Multi-factor authentication');
            await expect(page.getByRole('switch', { name: /^Authenticator app \(TOTP\)/ })).toBeVisible();
            await expect(page.getByRole('radiogroup', { name: 'MFA policy' })).toBeVisible();
          },
          dialogs: [
            {
              name: 'backup codes without the authenticator app refused',
              scope: 'main',
              open: async (page) => {
                const totp = page.getByRole('switch', { name: /^Authenticator app \(TOTP\)/ });
                if (await totp.isChecked()) await totp.click();
                await page.getByRole('switch', { name: /^Backup codes/ }).click();
                await page.getByRole('button', { name: 'Save changes' }).click();
                await expect(page.getByTestId('backupCode-error')).toBeVisible();
              },
              close: async (page) => {
                await page.getByRole('button', { name: 'Discard' }).click();
                await expect(page.getByRole('region', { name: 'Unsaved changes' })).toHaveCount(0);
              },
            },
          ],
          arabic: async (page) => {
            await expectHeading(page, 'المصادقة متعددة العوامل');
            await expect(page.getByRole('radiogroup', { name: 'سياسة المصادقة متعددة العوامل' })).toBeVisible();
          },
        },
      ],
    }),
  },
  security: {
    // Nothing is saved: the stop reads the tenant's settings, and the one state shows a refusal that sends nothing.
    prepare: async () => ({
      stops: [
        {
          name: 'security',
          path: 'security',
          ready: async (page) => {
            await expectHeading(page, 'Security');
            await expect(page.getByRole('spinbutton', { name: /^Failed attempts before lockout/ })).toBeVisible();
            await expect(page.getByRole('textbox', { name: /^Custom blocklist/ })).toBeVisible();
          },
          dialogs: [
            {
              name: 'a malformed blocklist line refused',
              scope: 'main',
              open: async (page) => {
                await page.getByRole('textbox', { name: /^Custom blocklist/ }).fill('not a domain');
                await page.getByRole('button', { name: 'Save changes' }).click();
                await expect(page.getByTestId('emailBlocklistPolicy.customBlocklist-error')).toBeVisible();
              },
              close: async (page) => {
                await page.getByRole('button', { name: 'Discard' }).click();
                await expect(page.getByRole('region', { name: 'Unsaved changes' })).toHaveCount(0);
              },
            },
          ],
          arabic: async (page) => {
            await expectHeading(page, 'الأمان');
            await expect(page.getByRole('spinbutton', { name: /^المحاولات الفاشلة قبل القفل/ })).toBeVisible();
          },
        },
      ],
    }),
  },
  customize_jwt: {
    prepare: async (api) => {
      // A saved machine-to-machine script for the edit page; removed again, so no other spec's tokens carry its claims.
      await api.put('/configs/jwt-customizer/client-credentials', {
        script: 'const getCustomJwtClaims = async () => ({ axe: true });',
        environmentVariables: { AXE_KEY: 'secret' },
      });
      const editor = (title: string) => async (page: Page) => {
        await expectHeading(page, title);
        await expect(page.getByRole('textbox', { name: /^Script/ })).toBeVisible();
        await expect(page.getByRole('textbox', { name: 'Type definitions' })).toBeVisible();
      };
      return {
        cleanup: async () => {
          await api.delete('/configs/jwt-customizer/client-credentials');
        },
        stops: [
          {
            name: 'index',
            path: 'customize-jwt',
            ready: async (page) => {
              await expectHeading(page, 'Custom JWT');
              await expect(page.getByRole('link', { name: 'Edit script' })).toBeVisible();
              await expect(page.getByRole('checkbox', { name: /Include roles in ID tokens/ })).toBeVisible();
            },
            dialogs: [
              {
                name: 'delete confirmation',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Delete script' }).click();
                  await expect(page.getByRole('alertdialog', { name: 'Delete this script?' })).toBeVisible();
                },
                close: async (page) => {
                  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
                  await expect(page.getByRole('alertdialog')).toHaveCount(0);
                },
              },
            ],
            arabic: async (page) => {
              await expectHeading(page, 'JWT مخصّص');
              await expect(page.getByRole('region', { name: 'رمز وصول المستخدم' })).toBeVisible();
              await expect(page.getByRole('link', { name: 'إضافة نص برمجي' })).toBeVisible();
            },
          },
          {
            name: 'create user access token script, tested',
            path: 'customize-jwt/access-token/create',
            ready: async (page) => {
              await editor('User access token')(page);
              await page.getByRole('button', { name: 'Run test' }).click();
              await expect(page.getByTestId('test-result')).toContainText('"sub"');
            },
          },
          {
            name: 'edit machine-to-machine script',
            path: 'customize-jwt/client-credentials/edit',
            ready: async (page) => {
              await editor('Machine-to-machine access token')(page);
              await expect(page.getByLabel('Value', { exact: true })).toHaveValue('********');
            },
            arabic: async (page) => {
              await expectHeading(page, 'رمز وصول بين الأجهزة');
              await expect(page.getByRole('button', { name: 'تشغيل الاختبار' })).toBeVisible();
              // Code stays left to right inside the right-to-left page.
              await expect(page.getByRole('textbox', { name: /^النص البرمجي/ })).toBeVisible();
              await page.getByRole('button', { name: 'تشغيل الاختبار' }).click();
              await expect(page.getByTestId('test-result')).toContainText('"axe": true');
            },
          },
        ],
      };
    },
  },

  webhooks: {
    prepare: async (api) => {
      const receiver = await startReceiver();
      const name = `Sweep hook ${suffix()}`;
      const hook = await api.post<{ id: string }>('/hooks', {
        name,
        events: ['User.Created'],
        config: { url: `${receiver.url}/axe`, headers: { 'X-Axe': '1' }, retries: 0 },
      });
      await api.createUser({ username: `sweep_${suffix()}` });
      // The worker delivers within a few seconds: wait for the request through the API, then link to it.
      let log: { id: string } | undefined;
      await expect
        .poll(
          async () => {
            [log] = await api.get<{ id: string }[]>(`/hooks/${hook.id}/recent-logs?page_size=1`);
            return Boolean(log);
          },
          { timeout: 20_000 },
        )
        .toBe(true);
      const testResult = (page: Page) => page.getByTestId('test-result');
      return {
        cleanup: async () => {
          await api.delete(`/hooks/${hook.id}`);
          await receiver.close();
        },
        stops: [
          {
            name: 'list',
            path: 'webhooks',
            ready: async (page) => {
              await expect(row(page, name)).toBeVisible();
            },
            dialogs: [
              {
                name: 'create dialog with errors',
                open: async (page) => {
                  await page.getByRole('button', { name: 'Create webhook' }).click();
                  const dialog = page.getByRole('dialog', { name: 'Create webhook' });
                  await dialog.getByRole('button', { name: 'Create webhook' }).click();
                  await expect(dialog.getByTestId('url-error')).toBeVisible();
                },
              },
            ],
            arabic: async (page) => {
              await expectHeading(page, 'خطافات الويب');
              await expect(row(page, name)).toContainText('مفعّل');
            },
          },
          {
            name: 'settings with a test result',
            path: `webhooks/${hook.id}/settings`,
            ready: async (page) => {
              await expectHeading(page, name);
              await page.getByRole('button', { name: 'Send test' }).click();
              await expect(testResult(page)).toBeVisible();
            },
            arabic: async (page) => {
              await expectHeading(page, name);
              await page.getByRole('button', { name: 'إرسال اختبار' }).click();
              await expect(testResult(page)).toContainText('نجح · 200');
            },
          },
          {
            name: 'recent requests',
            path: `webhooks/${hook.id}/recent-requests`,
            ready: async (page) => {
              await expect(row(page, 'User.Created')).toBeVisible();
            },
          },
          {
            name: 'request',
            path: `webhooks/${hook.id}/recent-requests/${log?.id}`,
            ready: heading('Request User.Created'),
            arabic: async (page) => {
              await expectHeading(page, 'الطلب User.Created');
              await expect(page.getByRole('button', { name: 'إعادة الإرسال' })).toBeVisible();
            },
          },
        ],
      };
    },
  },

  audit_logs: {
    prepare: async (api) => {
      await api.createRole({ name: `Sweep audit ${suffix()}` });
      const logTable = (page: Page) => page.getByRole('table', { name: 'Audit logs' });
      const entryOf = (table: Locator) =>
        // The row's first link opens the entry; its subject links to the role.
        table.getByRole('row').filter({ hasText: 'Admin.Role.Created' }).first().getByRole('link').first();
      const entry = await api.get<{ id: string }[]>('/logs?logKey=Admin.Role.Created&page_size=1');
      return {
        stops: [
          {
            name: 'list',
            path: 'audit-logs',
            ready: async (page) => {
              await expect(logTable(page).getByRole('row').nth(1)).toBeVisible();
            },
            dialogs: [
              {
                name: 'open log-key filter',
                scope: 'main',
                open: async (page) => {
                  await page.getByRole('combobox', { name: 'Log key' }).fill('role');
                  await expect(page.getByRole('listbox', { name: 'Log key' })).toBeVisible();
                },
              },
            ],
            arabic: async (page) => {
              await expectHeading(page, 'سجلات التدقيق');
              await expect(page.getByRole('combobox', { name: 'مفتاح السجل' })).toBeVisible();
              await entryOf(page.getByRole('table', { name: 'سجلات التدقيق' })).click();
              await expect(page.getByRole('table', { name: 'التغييرات' })).toBeVisible();
              await expect(page.getByRole('link', { name: 'العودة إلى سجلات التدقيق' })).toBeVisible();
            },
          },
          {
            name: 'entry',
            path: `audit-logs/${entry[0]?.id}`,
            ready: async (page) => {
              await expect(page.getByRole('table', { name: 'Changes' })).toBeVisible();
            },
          },
        ],
      };
    },
  },

  tenant_settings: {
    prepare: async () => ({
      stops: [
        {
          name: 'settings',
          path: 'tenant-settings/settings',
          ready: async (page) => {
            await expectHeading(page, 'Tenant settings');
            await expect(page.getByRole('textbox', { name: 'Tenant name' })).toBeVisible();
          },
          arabic: async (page) => {
            await expect(page.getByRole('heading', { level: 1, name: 'إعدادات المستأجر' })).toBeVisible();
          },
        },
        {
          name: 'members',
          path: 'tenant-settings/members',
          ready: async (page) => {
            await expect(page.getByRole('table', { name: 'Tenant members' }).getByRole('row')).not.toHaveCount(0);
          },
          arabic: async (page) => {
            await expect(page.getByRole('table', { name: 'أعضاء المستأجر' })).toContainText('مسؤول');
          },
        },
      ],
    }),
  },
};
