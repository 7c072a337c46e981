// @vitest-environment happy-dom
import {
  type Connector,
  defaultSignInExperience,
  type SignInExperience,
  type SignInExperiencePatch,
  signInExperiencePatchSchema,
} from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Navigate, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { KitProvider } from '../../components/KitProvider.tsx';
import { createTestI18n } from '../../components/testing/render.tsx';
import strings from '../../i18n/locales/en/sign_in_experience.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { SignInExperiencePage } from './SignInExperiencePage.tsx';
import { BrandingTab } from './tabs/BrandingTab.tsx';
import { PasswordPolicyTab } from './tabs/PasswordPolicyTab.tsx';
import { SignUpAndSignInTab } from './tabs/SignUpAndSignInTab.tsx';

// What the page sends is under test, not the API (the server tests cover it): saves and previews are recorded here.
const saved: SignInExperience = { tenantId: 'default', id: 'default', ...structuredClone(defaultSignInExperience) };
const state: { patches: SignInExperiencePatch[]; previews: SignInExperiencePatch[]; failWith?: ApiError } = {
  patches: [],
  previews: [],
};
vi.mock('../../api/sign-in-experience.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/sign-in-experience.ts')>()),
  useSignInExperience: () => ({ isPending: false, data: saved, refetch: async () => undefined }),
  useUpdateSignInExperience: () => ({
    mutateAsync: async (patch: SignInExperiencePatch) => {
      if (state.failWith) throw state.failWith;
      state.patches.push(patch);
      return saved;
    },
  }),
  useSignInPreview: () => ({
    isError: false,
    mutateAsync: async ({ settings }: { settings: SignInExperiencePatch }) => {
      state.previews.push(settings);
      return { url: '/sign-in-preview/default/token', expiresAt: Date.now() + 600_000 };
    },
  }),
}));

// The applications users sign in to, oldest first: the preview is named for one of them (issue 40, item 10).
vi.mock('../../api/applications.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/applications.ts')>()),
  useSignInApplications: () => ({
    data: [
      { id: 'shop', name: 'Storefront' },
      { id: 'office', name: 'Back office' },
    ],
  }),
}));

/** A social connector of the tenant; the email one shows that only social connectors are listed. */
const connector = (id: string, type: Connector['type'], target: string, name: string): Connector => ({
  id,
  connectorId: id,
  config: {},
  metadata: { name: { en: name } },
  syncProfile: false,
  enableTokenStorage: false,
  createdAt: Date.UTC(2026, 0, 1),
  type,
  platform: type === 'Social' ? 'Universal' : null,
  target,
  name: { en: name },
  logo: '/console/connectors/oidc.svg',
  logoDark: null,
  formItems: [],
});
const connectors: { data: Connector[] } = { data: [] };
vi.mock('../../api/connectors.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/connectors.ts')>()),
  useConnectors: () => ({ isPending: false, isError: false, data: connectors.data }),
}));

function open(tab: string) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'sign_in_experience', strings);
  const router = createMemoryRouter(
    [
      {
        path: '/sign-in-experience',
        element: <SignInExperiencePage />,
        children: [
          { index: true, element: <Navigate to="branding" replace /> },
          { path: 'branding', element: <BrandingTab /> },
          { path: 'sign-up-and-sign-in', element: <SignUpAndSignInTab /> },
          { path: 'password-policy', element: <PasswordPolicyTab /> },
        ],
      },
    ],
    { initialEntries: [`/sign-in-experience/${tab}`] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={i18n}>
        <KitProvider>
          <RouterProvider router={router} />
        </KitProvider>
      </I18nProvider>
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), router };
}

const save = () => screen.getByRole('button', { name: 'Save changes' });

beforeEach(() => {
  connectors.data = [];
  saved.socialSignInConnectorTargets = [];
  saved.passkeySignIn = { ...defaultSignInExperience.passkeySignIn };
  state.patches = [];
  state.previews = [];
  state.failWith = undefined;
});

describe('sign-in experience: refusals beside the field, nothing sent', () => {
  it('refuses a colour that is not #rgb or #rrggbb (spec §5)', async () => {
    const { user } = open('branding');
    const primary = screen.getByRole('textbox', { name: /^Primary color/ });
    await user.clear(primary);
    await user.type(primary, '#12345');
    await user.tab();
    expect((await screen.findByTestId('color.primaryColor-error')).textContent).toBe(
      'Enter a hex color such as #6139F6 or #63F.',
    );
    await user.click(save());
    expect(state.patches, 'nothing is sent').toEqual([]);

    await user.clear(primary);
    await user.type(primary, '#0a0');
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.color).toEqual({
      primaryColor: '#0a0',
      isDarkModeEnabled: false,
      darkPrimaryColor: '#8768F8',
    });
  });

  it('refuses a minimum length above the maximum', async () => {
    const { user } = open('password-policy');
    const min = screen.getByRole('spinbutton', { name: /^Minimum length/ });
    const max = screen.getByRole('spinbutton', { name: /^Maximum length/ });
    await user.clear(min);
    await user.type(min, '20');
    await user.clear(max);
    await user.type(max, '10');
    await user.click(save());
    expect((await screen.findByTestId('passwordPolicy.length.min-error')).textContent).toBe(
      'The minimum length cannot be more than the maximum length.',
    );
    await user.clear(max);
    await user.type(max, '300');
    await user.click(save());
    expect((await screen.findByTestId('passwordPolicy.length.max-error')).textContent).toBe(
      'Enter a whole number from 1 to 256.',
    );
    expect(state.patches, 'nothing is sent').toEqual([]);
  });

  it('keeps edits across tabs and opens the tab of a field a refusal names', async () => {
    const { user, router } = open('branding');
    const primary = screen.getByRole('textbox', { name: /^Primary color/ });
    await user.clear(primary);
    await user.type(primary, '#123456');
    await user.click(screen.getByRole('link', { name: 'Password policy' }));
    expect(router.state.location.pathname, 'switching tabs does not ask').toBe('/sign-in-experience/password-policy');
    await user.click(screen.getByRole('link', { name: 'Branding' }));
    expect((screen.getByRole('textbox', { name: /^Primary color/ }) as HTMLInputElement).value).toBe('#123456');

    state.failWith = new ApiError(
      400,
      'Sign-up identifiers must be sign-in methods.',
      'sign_in_experiences.miss_sign_up_identifier_in_sign_in',
    );
    await user.click(save());
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in-experience/sign-up-and-sign-in'));
    expect((await screen.findByTestId('signInMethods-error')).textContent).toBe(
      'Sign-up identifiers must be sign-in methods.',
    );
  });

  it('saves a proof ticked on a sign-in method as the API takes it, without the row keys of the form', async () => {
    const { user } = open('sign-up-and-sign-in');
    await user.click(screen.getByRole('checkbox', { name: 'Verification code for Email address' }));
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    const methods = state.patches[0]?.signIn?.methods;
    expect(methods).toEqual([
      { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
      { identifier: 'email', password: true, verificationCode: true, isPasswordPrimary: true },
    ]);
    expect(signInExperiencePatchSchema.safeParse(state.patches[0]).success, 'the API schema accepts it').toBe(true);
  });

  it('asks the preview for the unsaved changes, leaving out values not valid yet', async () => {
    const { user } = open('branding');
    await waitFor(() => expect(state.previews.length).toBeGreaterThan(0), { timeout: 2000 });
    const primary = screen.getByRole('textbox', { name: /^Primary color/ });
    await user.clear(primary);
    await user.type(primary, '#abc');
    await waitFor(() => expect(state.previews.at(-1)?.color?.primaryColor).toBe('#abc'), { timeout: 2000 });
    await user.type(primary, 'x');
    await waitFor(() => expect(state.previews.at(-1)?.color).not.toHaveProperty('primaryColor'), { timeout: 2000 });
    expect(screen.getByTitle('Preview of the sign-in page').getAttribute('src')).toBe(
      '/sign-in-preview/default/token?screen=sign_in&lang=en&theme=light&app=shop',
    );
  });

  it('previews the page as a chosen application, as the real page is named for it (issue 40, item 10)', async () => {
    const { user } = open('branding');
    const frame = async () => (await screen.findByTitle('Preview of the sign-in page')).getAttribute('src');
    await waitFor(async () => expect(await frame()).toContain('app=shop'), { timeout: 2000 });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Application' }), 'Back office');
    expect(await frame()).toContain('app=office');
  });
});

describe('sign-in experience: social sign-in', () => {
  const socialList = () => within(screen.getByTestId('socialTargets'));
  const rowTargets = () =>
    socialList()
      .getAllByRole('listitem')
      .map((row) => row.getAttribute('data-testid')?.replace('social-target-', ''));

  it('links to the connectors area when the tenant has no social connector', async () => {
    connectors.data = [connector('mail', 'Email', 'smtp', 'SMTP')];
    open('sign-up-and-sign-in');
    const empty = await screen.findByTestId('social-sign-in-empty');
    expect(empty.textContent).toContain('The tenant has no social connectors yet.');
    expect(within(empty).getByRole('link', { name: 'Set one up in Connectors' }).getAttribute('href')).toBe(
      '/connectors/social',
    );
  });

  it('ticks a connector into socialSignInConnectorTargets, orders the ticked ones and saves them', async () => {
    connectors.data = [
      connector('mail', 'Email', 'smtp', 'SMTP'),
      connector('google', 'Social', 'google', 'Google'),
      connector('oidc', 'Social', 'oidc', 'Company SSO'),
      connector('github', 'Social', 'github', 'GitHub'),
    ];
    saved.socialSignInConnectorTargets = ['github'];
    const { user } = open('sign-up-and-sign-in');
    await screen.findByTestId('socialTargets');
    expect(socialList().queryByText('SMTP')).toBeNull();
    // The ticked ones first, in button order; then the others.
    expect(rowTargets()).toEqual(['github', 'google', 'oidc']);
    expect((socialList().getByRole('checkbox', { name: 'GitHub' }) as HTMLInputElement).checked).toBe(true);
    expect((socialList().getByRole('checkbox', { name: 'Google' }) as HTMLInputElement).checked).toBe(false);
    expect(socialList().queryByRole('button', { name: 'Move Google up' }), 'unticked rows have no order').toBeNull();

    await user.click(socialList().getByRole('checkbox', { name: 'Company SSO' }));
    await user.click(socialList().getByRole('checkbox', { name: 'Google' }));
    expect(rowTargets()).toEqual(['github', 'oidc', 'google']);
    await user.click(socialList().getByRole('button', { name: 'Move Google up' }));
    expect(rowTargets()).toEqual(['github', 'google', 'oidc']);
    expect((socialList().getByRole('button', { name: 'Move GitHub up' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(socialList().getByRole('button', { name: 'Move GitHub down' }));
    expect(rowTargets()).toEqual(['google', 'github', 'oidc']);
    await user.click(socialList().getByRole('checkbox', { name: 'GitHub' }));
    expect(rowTargets()).toEqual(['google', 'oidc', 'github']);
    // The live preview shows the buttons before saving.
    await waitFor(() => expect(state.previews.at(-1)?.socialSignInConnectorTargets).toEqual(['google', 'oidc']), {
      timeout: 2000,
    });

    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.socialSignInConnectorTargets).toEqual(['google', 'oidc']);
  });

  it('keeps a listed target whose connector is gone until it is unticked', async () => {
    connectors.data = [connector('google', 'Social', 'google', 'Google')];
    saved.socialSignInConnectorTargets = ['gone', 'google'];
    const { user } = open('sign-up-and-sign-in');
    await screen.findByTestId('socialTargets');
    expect(rowTargets()).toEqual(['gone', 'google']);
    expect(socialList().getByTestId('social-target-gone').textContent).toContain('no connector has this target');
    await user.click(socialList().getByRole('checkbox', { name: 'gone' }));
    expect(rowTargets()).toEqual(['google']);
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.socialSignInConnectorTargets).toEqual(['google']);
  });

  it('turns enterprise SSO on for the sign-in page (singleSignOnEnabled)', async () => {
    const { user } = open('sign-up-and-sign-in');
    await user.click(await screen.findByRole('switch', { name: /Offer enterprise SSO on the sign-in page/ }));
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.singleSignOnEnabled).toBe(true);
  });
});

describe('sign-in experience: passkey sign-in', () => {
  const passkeySwitch = () => screen.getByRole('switch', { name: /Let users sign in with a passkey, no password/ });
  const buttonBox = () => screen.queryByRole('checkbox', { name: /Show a “Sign in with a passkey” button/ });
  const autofillBox = () => screen.queryByRole('checkbox', { name: /Offer passkeys in the browser's autofill/ });

  it('turns passkey sign-in on with how users start it, previews it and saves passkeySignIn', async () => {
    const { user } = open('sign-up-and-sign-in');
    expect((passkeySwitch() as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText(strings.passkey.note)).toBeTruthy();
    expect(buttonBox(), 'the ways to start it show only while it is on').toBeNull();
    expect(autofillBox()).toBeNull();

    await user.click(passkeySwitch());
    expect((buttonBox() as HTMLInputElement).checked, 'the default: a button').toBe(true);
    expect((autofillBox() as HTMLInputElement).checked, 'the default: the autofill').toBe(true);
    await user.click(autofillBox() as HTMLElement);
    await waitFor(
      () =>
        expect(state.previews.at(-1)?.passkeySignIn).toEqual({
          enabled: true,
          showPasskeyButton: true,
          allowAutofill: false,
        }),
      { timeout: 2000 },
    );

    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.passkeySignIn).toEqual({ enabled: true, showPasskeyButton: true, allowAutofill: false });
    expect(signInExperiencePatchSchema.safeParse(state.patches[0]).success, 'the API schema accepts it').toBe(true);
  });

  it('shows the saved choices, and keeps them when passkey sign-in is turned off', async () => {
    saved.passkeySignIn = { enabled: true, showPasskeyButton: false, allowAutofill: true };
    const { user } = open('sign-up-and-sign-in');
    expect((passkeySwitch() as HTMLInputElement).checked).toBe(true);
    expect((buttonBox() as HTMLInputElement).checked).toBe(false);
    expect((autofillBox() as HTMLInputElement).checked).toBe(true);

    await user.click(passkeySwitch());
    expect(buttonBox()).toBeNull();
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.passkeySignIn).toEqual({ enabled: false, showPasskeyButton: false, allowAutofill: true });
  });
});
