// @vitest-environment happy-dom
import { defaultSignInExperience, type SignInExperience, type SignInExperiencePatch } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { KitProvider } from '../../components/KitProvider.tsx';
import { createTestI18n } from '../../components/testing/render.tsx';
import strings from '../../i18n/locales/en/mfa.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { MfaPage } from './MfaPage.tsx';

// What the page sends is under test, not the API (the server tests cover it): saves are recorded here.
const state: { saved: SignInExperience; patches: SignInExperiencePatch[]; failWith?: ApiError } = {
  saved: { tenantId: 'default', id: 'default', ...structuredClone(defaultSignInExperience) },
  patches: [],
};
vi.mock('../../api/sign-in-experience.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/sign-in-experience.ts')>()),
  useSignInExperience: () => ({ isPending: false, data: state.saved, refetch: async () => undefined }),
  useUpdateSignInExperience: () => ({
    mutateAsync: async (patch: SignInExperiencePatch) => {
      if (state.failWith) throw state.failWith;
      state.patches.push(patch);
      return { ...state.saved, ...patch };
    },
  }),
}));

function open() {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'mfa', strings);
  const router = createMemoryRouter([{ path: '/mfa', element: <MfaPage /> }], { initialEntries: ['/mfa'] });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={i18n}>
        <KitProvider>
          <RouterProvider router={router} />
        </KitProvider>
      </I18nProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const save = () => screen.getByRole('button', { name: 'Save changes' });
const totp = () => screen.getByRole('switch', { name: /^Authenticator app \(TOTP\)/ });
const passkeys = () => screen.getByRole('switch', { name: /^Passkeys \(WebAuthn\)/ });
const backupCodes = () => screen.getByRole('switch', { name: /^Backup codes/ });
const policy = (name: string) => screen.getByRole('radio', { name: new RegExp(`^${name}`) });

beforeEach(() => {
  state.saved = { tenantId: 'default', id: 'default', ...structuredClone(defaultSignInExperience) };
  state.patches = [];
  state.failWith = undefined;
});

describe('MFA settings', () => {
  it('turns the authenticator app and backup codes on, makes MFA required, and sends only the mfa settings', async () => {
    const user = open();
    expect(policy('Required'), 'no factor on: a policy that sets one up is not offered').toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByText(strings.policy.needs_factor)).toBeTruthy();
    expect(policy('Never offered')).toHaveProperty('disabled', false);

    await user.click(totp());
    await user.click(backupCodes());
    expect(policy('Required')).toHaveProperty('disabled', false);
    expect(screen.queryByText(strings.policy.needs_factor)).toBeNull();
    await user.click(policy('Required'));
    await user.click(policy('Not asked'));
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual({
      mfa: { factors: ['Totp', 'BackupCode'], policy: 'Mandatory', organizationRequiredMfaPolicy: 'NoPrompt' },
    });
    expect(await screen.findByText(strings.saved)).toBeTruthy();
  });

  it('refuses backup codes without the authenticator app at the field, and sends nothing', async () => {
    const user = open();
    await user.click(backupCodes());
    await user.click(save());
    expect((await screen.findByTestId('backupCode-error')).textContent).toBe(
      strings.errors.backup_code_requires_factor,
    );
    expect(state.patches, 'nothing is sent').toEqual([]);
  });

  it('refuses a policy that sets up a factor once the authenticator app is turned off', async () => {
    state.saved.mfa = { factors: ['Totp'], policy: 'Mandatory' };
    const user = open();
    expect((totp() as HTMLInputElement).checked).toBe(true);
    await user.click(totp());
    expect(policy('Required')).toHaveProperty('disabled', true);
    await user.click(save());
    expect((await screen.findByTestId('policy-error')).textContent).toBe(strings.errors.policy_requires_factor);
    expect(state.patches, 'nothing is sent').toEqual([]);
    await user.click(policy('Up to the user'));
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.mfa).toEqual({
      factors: [],
      policy: 'UserControlled',
      organizationRequiredMfaPolicy: 'Mandatory',
    });
  });

  it('keeps factors the page does not offer, and shows the server refusal at the field', async () => {
    state.saved.mfa = { factors: ['EmailVerificationCode'], policy: 'UserControlled' };
    state.failWith = new ApiError(
      400,
      'Backup codes need an authenticator app or a passkey',
      'sign_in_experiences.backup_code_requires_totp',
    );
    const user = open();
    await user.click(totp());
    await user.click(save());
    expect((await screen.findByTestId('backupCode-error')).textContent).toBe(
      'Backup codes need an authenticator app or a passkey',
    );
    state.failWith = undefined;
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.mfa?.factors).toEqual(['Totp', 'EmailVerificationCode']);
  });
});

describe('MFA settings: passkeys (WebAuthn)', () => {
  it('shows the passkeys switch from the saved factors and keeps it on when saving other changes', async () => {
    state.saved.mfa = { factors: ['Totp', 'WebAuthn', 'BackupCode'], policy: 'UserControlled' };
    const user = open();
    expect((passkeys() as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(strings.factors.webauthn_description)).toBeTruthy();
    await user.click(policy('Required'));
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.mfa?.factors).toEqual(['Totp', 'WebAuthn', 'BackupCode']);
  });

  it('lets passkeys alone back up codes and the policies that have users set up a factor', async () => {
    const user = open();
    await user.click(passkeys());
    expect(policy('Required'), 'a passkey is a factor users can set up').toHaveProperty('disabled', false);
    expect(policy('Offered at sign-in only')).toHaveProperty('disabled', false);
    expect(screen.queryByText(strings.policy.needs_factor)).toBeNull();
    expect(screen.queryByText(strings.organization.needs_factor)).toBeNull();
    await user.click(backupCodes());
    await user.click(policy('Offered at sign-in and sign-up'));
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual({
      mfa: {
        factors: ['WebAuthn', 'BackupCode'],
        policy: 'PromptAtSignInAndSignUp',
        organizationRequiredMfaPolicy: 'Mandatory',
      },
    });
    expect(screen.queryByTestId('backupCode-error')).toBeNull();
  });

  it('refuses backup codes and a prompting policy once passkeys, the only factor to set up, are turned off', async () => {
    state.saved.mfa = { factors: ['WebAuthn', 'BackupCode'], policy: 'PromptOnlyAtSignIn' };
    const user = open();
    expect((totp() as HTMLInputElement).checked).toBe(false);
    expect(policy('Offered at sign-in only')).toHaveProperty('disabled', false);
    await user.click(passkeys());
    expect(policy('Offered at sign-in only')).toHaveProperty('disabled', true);
    expect(screen.getByText(strings.policy.needs_factor)).toBeTruthy();
    expect(screen.getByText(strings.organization.needs_factor)).toBeTruthy();
    await user.click(save());
    expect((await screen.findByTestId('backupCode-error')).textContent).toBe(
      strings.errors.backup_code_requires_factor,
    );
    expect(screen.getByTestId('policy-error').textContent).toBe(strings.errors.policy_requires_factor);
    expect(state.patches, 'nothing is sent').toEqual([]);

    // The authenticator app instead of passkeys: both rules are met again.
    await user.click(totp());
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.mfa).toEqual({
      factors: ['Totp', 'BackupCode'],
      policy: 'PromptOnlyAtSignIn',
      organizationRequiredMfaPolicy: 'Mandatory',
    });
  });
});
