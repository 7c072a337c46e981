// @vitest-environment happy-dom
import { defaultSignInExperience, type SignInExperience, type SignInExperiencePatch } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { KitProvider } from '../../components/KitProvider.tsx';
import { createTestI18n } from '../../components/testing/render.tsx';
import strings from '../../i18n/locales/en/security.json';
import { SecurityPage } from './SecurityPage.tsx';
import { isListEntry, listProblem } from './security-form.ts';

// What the page sends is under test, not the API (the server tests cover it): saves are recorded here.
const state: {
  saved: SignInExperience;
  patches: SignInExperiencePatch[];
  failWith?: ApiError;
  loadFails?: boolean;
} = {
  saved: { tenantId: 'default', id: 'default', ...structuredClone(defaultSignInExperience) },
  patches: [],
};
const refetch = vi.fn(async () => undefined);
vi.mock('../../api/sign-in-experience.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/sign-in-experience.ts')>()),
  useSignInExperience: () => ({ isPending: false, data: state.loadFails ? undefined : state.saved, refetch }),
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
  i18n.addResourceBundle('en', 'security', strings);
  const router = createMemoryRouter([{ path: '/security', element: <SecurityPage /> }], {
    initialEntries: ['/security'],
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <KitProvider>
          <RouterProvider router={router} />
        </KitProvider>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const save = () => screen.getByRole('button', { name: 'Save changes' });
const maxAttempts = () =>
  screen.getByRole('spinbutton', { name: /^Failed attempts before lockout/ }) as HTMLInputElement;
const lockoutDuration = () =>
  screen.getByRole('spinbutton', { name: /^Lockout duration \(minutes\)/ }) as HTMLInputElement;
const disposable = () => screen.getByRole('switch', { name: /^Block disposable email addresses/ }) as HTMLInputElement;
const subaddressing = () => screen.getByRole('switch', { name: /^Block sub-addressing/ }) as HTMLInputElement;
const blocklist = () => screen.getByRole('textbox', { name: /^Custom blocklist/ }) as HTMLTextAreaElement;
const allowlist = () => screen.getByRole('textbox', { name: /^Allowlist/ }) as HTMLTextAreaElement;

async function replace(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.clear(field);
  if (text) await user.type(field, text);
}

beforeEach(() => {
  state.saved = { tenantId: 'default', id: 'default', ...structuredClone(defaultSignInExperience) };
  state.patches = [];
  state.failWith = undefined;
  state.loadFails = false;
  refetch.mockClear();
});

describe('security settings', () => {
  it('shows the defaults for an unset lockout and empty lists', () => {
    open();
    expect(maxAttempts().value).toBe('5');
    expect(lockoutDuration().value).toBe('15');
    expect(disposable().checked).toBe(false);
    expect(subaddressing().checked).toBe(false);
    expect(blocklist().value).toBe('');
    expect(allowlist().value).toBe('');
    expect(screen.getByText(strings.lockout.description)).toBeTruthy();
    expect(screen.getByText(strings.blocklist.description)).toBeTruthy();
  });

  it('loads the saved settings into the form and saves both objects whole', async () => {
    state.saved.sentinelPolicy = { maxAttempts: 7, lockoutDuration: 60 };
    state.saved.emailBlocklistPolicy = {
      blockDisposableAddresses: true,
      customBlocklist: ['@mailinator.com', 'spam.example'],
      customAllowlist: ['boss@mailinator.com'],
    };
    const user = open();
    expect(maxAttempts().value).toBe('7');
    expect(lockoutDuration().value).toBe('60');
    expect(disposable().checked).toBe(true);
    expect(subaddressing().checked).toBe(false);
    expect(blocklist().value).toBe('@mailinator.com\nspam.example');
    expect(allowlist().value).toBe('boss@mailinator.com');

    await replace(user, maxAttempts(), '3');
    await user.click(subaddressing());
    // Entries are trimmed, blank lines left out.
    await replace(
      user,
      blocklist(),
      '  @mailinator.com  {Enter}{Enter}guerrillamail.com{Enter}someone@example.org{Enter}',
    );
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual({
      sentinelPolicy: { maxAttempts: 3, lockoutDuration: 60 },
      emailBlocklistPolicy: {
        blockDisposableAddresses: true,
        blockSubaddressing: true,
        customBlocklist: ['@mailinator.com', 'guerrillamail.com', 'someone@example.org'],
        customAllowlist: ['boss@mailinator.com'],
      },
    });
    expect(await screen.findByText(strings.saved)).toBeTruthy();
    expect(blocklist().value, 'the saved list, as the server answered it').toBe(
      '@mailinator.com\nguerrillamail.com\nsomeone@example.org',
    );
  });

  it('refuses an attempt count out of range with the translated message, and sends nothing', async () => {
    const user = open();
    await replace(user, maxAttempts(), '101');
    await user.click(save());
    expect((await screen.findByTestId('sentinelPolicy.maxAttempts-error')).textContent).toBe(
      'Enter a whole number from 1 to 100.',
    );
    await replace(user, maxAttempts(), '');
    await replace(user, lockoutDuration(), '0');
    await user.click(save());
    expect((await screen.findByTestId('sentinelPolicy.lockoutDuration-error')).textContent).toBe(
      'Enter a whole number of minutes from 1 to 1440.',
    );
    expect(screen.getByTestId('sentinelPolicy.maxAttempts-error').textContent, 'empty is no number').toBe(
      'Enter a whole number from 1 to 100.',
    );
    expect(state.patches, 'nothing is sent').toEqual([]);
  });

  it('refuses a malformed list line, naming its line, and sends nothing', async () => {
    const user = open();
    await replace(user, blocklist(), '@mailinator.com{Enter}{Enter}not a domain');
    await replace(user, allowlist(), 'ok@example.com{Enter}a@b@example.com');
    await user.click(save());
    expect((await screen.findByTestId('emailBlocklistPolicy.customBlocklist-error')).textContent).toBe(
      'Line 3: “not a domain” is not an address, an @domain or a domain.',
    );
    expect(screen.getByTestId('emailBlocklistPolicy.customAllowlist-error').textContent).toBe(
      'Line 2: “a@b@example.com” is not an address, an @domain or a domain.',
    );
    expect(state.patches, 'nothing is sent').toEqual([]);
  });

  it('shows a server 400 on an API path at its field', async () => {
    state.failWith = new ApiError(400, 'Invalid request body.', 'guard.invalid_input', [
      {
        path: 'emailBlocklistPolicy.customBlocklist.0',
        message: 'Too big: expected string to have <=256 characters',
        code: 'too_big',
      },
      { path: 'sentinelPolicy.lockoutDuration', message: 'Too big: expected number to be <=1440', code: 'too_big' },
    ]);
    const user = open();
    await user.click(disposable());
    await user.click(save());
    expect((await screen.findByTestId('emailBlocklistPolicy.customBlocklist-error')).textContent).toBe(
      'Too big: expected string to have <=256 characters',
    );
    expect(screen.getByTestId('sentinelPolicy.lockoutDuration-error').textContent).toBe(
      'Too big: expected number to be <=1440',
    );
    state.failWith = undefined;
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]?.emailBlocklistPolicy?.blockDisposableAddresses).toBe(true);
  });

  it('says when the settings could not be loaded, and tries again', async () => {
    state.loadFails = true;
    const user = open();
    expect(screen.getByText(strings.load_failed)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: strings.retry }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });
});

describe('list entries', () => {
  it('takes an address, an @domain or a bare domain, as the server reads them', () => {
    for (const entry of ['someone@example.com', 'name+tag@sub.example.co.uk', '@example.com', 'example.com', 'ru']) {
      expect(isListEntry(entry), entry).toBe(true);
    }
    for (const entry of [
      'not a domain',
      'a@b@example.com',
      'example..com',
      '-example.com',
      '@',
      'someone@',
      'x,y.com',
    ]) {
      expect(isListEntry(entry), entry).toBe(false);
    }
  });

  it('limits an entry to 256 characters and a list to 500 entries', () => {
    expect(listProblem(`ok.com\n${'a'.repeat(250)}.example`)).toEqual({ kind: 'entry_too_long', line: 2 });
    const many = Array.from({ length: 501 }, (_, index) => `d${index}.example`).join('\n');
    expect(listProblem(many)).toEqual({ kind: 'too_many_entries', count: 501 });
    expect(listProblem(`\n\n${many.split('\n').slice(1).join('\n')}\n`)).toBeUndefined();
  });
});
