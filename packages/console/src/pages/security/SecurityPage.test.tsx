// @vitest-environment happy-dom
import {
  type CaptchaProvider,
  type CaptchaProviderPut,
  defaultSignInExperience,
  isEmailListEntry as isListEntry,
  type SignInExperience,
  type SignInExperiencePatch,
} from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { KitProvider } from '../../components/KitProvider.tsx';
import { createTestI18n } from '../../components/testing/render.tsx';
import strings from '../../i18n/locales/en/security.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { SecurityPage } from './SecurityPage.tsx';
import { listProblem } from './security-form.ts';

// What the page sends is under test, not the API (the server tests cover it): saves are recorded here.
const state: {
  saved: SignInExperience;
  patches: SignInExperiencePatch[];
  failWith?: ApiError;
  putFailsWith?: ApiError;
  loadFails?: boolean;
  provider: CaptchaProvider | null;
  puts: CaptchaProviderPut[];
  deletes: number;
} = {
  saved: { tenantId: 'default', id: 'default', ...structuredClone(defaultSignInExperience) },
  patches: [],
  provider: null,
  puts: [],
  deletes: 0,
};
const refetch = vi.fn(async () => undefined);
vi.mock('../../api/sign-in-experience.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/sign-in-experience.ts')>()),
  useSignInExperience: () => ({ isPending: false, data: state.loadFails ? undefined : state.saved, refetch }),
  useUpdateSignInExperience: () => ({
    mutateAsync: async (patch: SignInExperiencePatch) => {
      if (state.failWith) throw state.failWith;
      state.patches.push(patch);
      state.saved = { ...state.saved, ...patch } as SignInExperience;
      return state.saved;
    },
  }),
}));
// The provider as the server keeps it (the secret key answered masked), re-rendering its readers like the query cache.
const providerListeners = new Set<() => void>();
function setProvider(provider: CaptchaProvider | null) {
  state.provider = provider;
  for (const listener of providerListeners) listener();
}
vi.mock('../../api/captcha-provider.ts', async () => {
  const { useSyncExternalStore } = await import('react');
  const subscribe = (listener: () => void) => {
    providerListeners.add(listener);
    return () => providerListeners.delete(listener);
  };
  return {
    useCaptchaProvider: () => ({
      isPending: false,
      data: useSyncExternalStore(subscribe, () => state.provider),
      refetch,
    }),
    useSaveCaptchaProvider: () => ({
      mutateAsync: async (put: CaptchaProviderPut) => {
        if (state.putFailsWith) throw state.putFailsWith;
        state.puts.push(put);
        setProvider({ config: { ...put.config, secretKey: '********' }, createdAt: 1, updatedAt: 2 });
        return state.provider;
      },
    }),
    useDeleteCaptchaProvider: () => ({
      mutateAsync: async () => {
        state.deletes += 1;
        setProvider(null);
      },
    }),
  };
});

function open() {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'security', strings);
  const router = createMemoryRouter([{ path: '/security', element: <SecurityPage /> }], {
    initialEntries: ['/security'],
  });
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
const maxAttempts = () =>
  screen.getByRole('spinbutton', { name: /^Failed attempts before lockout/ }) as HTMLInputElement;
const lockoutDuration = () =>
  screen.getByRole('spinbutton', { name: /^Lockout duration \(minutes\)/ }) as HTMLInputElement;
const disposable = () => screen.getByRole('switch', { name: /^Block disposable email addresses/ }) as HTMLInputElement;
const subaddressing = () => screen.getByRole('switch', { name: /^Block sub-addressing/ }) as HTMLInputElement;
const blocklist = () => screen.getByRole('textbox', { name: /^Custom blocklist/ }) as HTMLTextAreaElement;
const allowlist = () => screen.getByRole('textbox', { name: /^Allowlist/ }) as HTMLTextAreaElement;
const captchaSwitch = () => screen.getByRole('switch', { name: /^Ask for a captcha at sign-in/ }) as HTMLInputElement;
const turnstile = () => screen.getByRole('radio', { name: /^Cloudflare Turnstile/ }) as HTMLInputElement;
const recaptcha = () => screen.getByRole('radio', { name: /^Google reCAPTCHA Enterprise/ }) as HTMLInputElement;
const siteKey = () => screen.getByRole('textbox', { name: /^Site key/ }) as HTMLInputElement;
// A password input has no role: found by its label.
const secretKey = () => screen.getByLabelText(/^Secret key/) as HTMLInputElement;
const projectId = () => screen.getByRole('textbox', { name: /^Google Cloud project ID/ }) as HTMLInputElement;
const minimumScore = () => screen.getByRole('spinbutton', { name: /^Minimum score/ }) as HTMLInputElement;
const verifyUrl = () => screen.getByRole('textbox', { name: /^Verification URL/ }) as HTMLInputElement;
const removeProvider = () => screen.getByRole('button', { name: strings.captcha.remove });

const storedTurnstile = (): CaptchaProvider => ({
  config: { type: 'Turnstile', siteKey: '0x4AAAAAAA-site', secretKey: '********' },
  createdAt: 1,
  updatedAt: 1,
});

async function replace(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.clear(field);
  if (text) await user.type(field, text);
}

beforeEach(() => {
  state.saved = { tenantId: 'default', id: 'default', ...structuredClone(defaultSignInExperience) };
  state.patches = [];
  state.failWith = undefined;
  state.putFailsWith = undefined;
  state.loadFails = false;
  state.provider = null;
  state.puts = [];
  state.deletes = 0;
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
      captchaPolicy: { enabled: false },
    });
    expect(state.puts, 'no provider started, none sent').toEqual([]);
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

describe('captcha', () => {
  it('loads the stored provider into the fields, the secret key shown as stored and never filled', () => {
    state.saved.captchaPolicy = { enabled: true };
    state.provider = {
      config: {
        type: 'RecaptchaEnterprise',
        siteKey: '6Lc-site',
        secretKey: '********',
        projectId: 'acme-prod',
        minimumScore: 0.7,
        verifyUrl: 'https://captcha-proxy.example.com/verify',
      },
      createdAt: 1,
      updatedAt: 1,
    };
    open();
    expect(captchaSwitch().checked).toBe(true);
    expect(recaptcha().checked).toBe(true);
    expect(turnstile().checked).toBe(false);
    expect(siteKey().value).toBe('6Lc-site');
    expect(secretKey().value, 'the stored key is not in the page').toBe('');
    expect(secretKey().type).toBe('password');
    expect(secretKey().placeholder).toBe(strings.captcha.secret_key_stored_placeholder);
    expect(screen.getByText(strings.captcha.secret_key_stored)).toBeTruthy();
    expect(projectId().value).toBe('acme-prod');
    expect(minimumScore().value).toBe('0.7');
    expect(verifyUrl().value, 'a set address opens the advanced part').toBe('https://captcha-proxy.example.com/verify');
    expect(screen.getByText(strings.captcha.description)).toBeTruthy();
    expect(removeProvider()).toBeTruthy();
  });

  it('saves a new provider with a PUT, then turns the switch on with the PATCH', async () => {
    const user = open();
    expect(screen.queryByRole('button', { name: strings.captcha.remove }), 'nothing to remove').toBeNull();
    expect(screen.queryByRole('textbox', { name: /^Google Cloud project ID/ }), 'reCAPTCHA only').toBeNull();
    expect(turnstile().checked).toBe(true);
    await user.click(captchaSwitch());
    await user.type(siteKey(), '  0x4AAAAAAA-site ');
    await user.type(secretKey(), '0x4AAAAAAA-secret');
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.puts).toEqual([
      { config: { type: 'Turnstile', siteKey: '0x4AAAAAAA-site', secretKey: '0x4AAAAAAA-secret' } },
    ]);
    expect(state.patches[0]?.captchaPolicy).toEqual({ enabled: true });
    expect(await screen.findByText(strings.saved)).toBeTruthy();
    expect(secretKey().value, 'the saved key is not kept in the page').toBe('');
    expect(secretKey().placeholder).toBe(strings.captcha.secret_key_stored_placeholder);
    expect(removeProvider()).toBeTruthy();
  });

  it('sends a reCAPTCHA Enterprise provider with its project, score and addresses', async () => {
    const user = open();
    await user.click(recaptcha());
    await user.type(siteKey(), '6Lc-site');
    await user.type(secretKey(), 'api-key');
    await user.type(projectId(), 'acme-prod');
    await replace(user, minimumScore(), '0.3');
    await user.click(screen.getByText(strings.captcha.advanced));
    await user.type(screen.getByRole('textbox', { name: /^Script URL/ }), 'https://cdn.example.com/enterprise.js');
    await user.click(save());
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]).toEqual({
      config: {
        type: 'RecaptchaEnterprise',
        siteKey: '6Lc-site',
        secretKey: 'api-key',
        scriptUrl: 'https://cdn.example.com/enterprise.js',
        projectId: 'acme-prod',
        minimumScore: 0.3,
      },
    });
  });

  it('keeps the stored secret key: ******** is sent unless a new one is typed; an untouched provider is not sent', async () => {
    state.provider = storedTurnstile();
    const user = open();
    await replace(user, maxAttempts(), '4');
    await user.click(save());
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.puts, 'the provider did not change').toEqual([]);

    await replace(user, siteKey(), '0x4AAAAAAA-other');
    await user.click(save());
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]).toEqual({
      config: { type: 'Turnstile', siteKey: '0x4AAAAAAA-other', secretKey: '********' },
    });
  });

  it('asks for a new secret key when the type changes', async () => {
    state.provider = storedTurnstile();
    const user = open();
    await user.click(recaptcha());
    await user.type(projectId(), 'acme-prod');
    expect(screen.getByText(strings.captcha.secret_key_other_type)).toBeTruthy();
    await user.click(save());
    expect((await screen.findByTestId('captcha.secretKey-error')).textContent).toBe(strings.errors.secret_key_new_type);
    expect(state.puts).toEqual([]);
  });

  it('refuses a missing site key with its message and sends nothing', async () => {
    const user = open();
    await user.type(secretKey(), 'a-secret');
    await user.click(save());
    expect((await screen.findByTestId('captcha.siteKey-error')).textContent).toBe('Enter the site key.');
    expect(siteKey()).toBe(document.activeElement);
    expect(state.puts, 'no PUT').toEqual([]);
    expect(state.patches, 'no PATCH').toEqual([]);
  });

  it('refuses a malformed address and a score out of range', async () => {
    state.provider = {
      config: { type: 'RecaptchaEnterprise', siteKey: '6Lc-site', secretKey: '********', projectId: 'acme' },
      createdAt: 1,
      updatedAt: 1,
    };
    const user = open();
    expect(minimumScore().value, 'unset shows the default').toBe('0.5');
    await replace(user, minimumScore(), '2');
    await user.click(screen.getByText(strings.captcha.advanced));
    await user.type(verifyUrl(), 'ftp://example.com/verify');
    await user.click(save());
    expect((await screen.findByTestId('captcha.minimumScore-error')).textContent).toBe('Enter a number from 0 to 1.');
    expect(screen.getByTestId('captcha.verifyUrl-error').textContent).toBe(
      'Enter an address starting with http:// or https://, of at most 2048 characters.',
    );
    expect(state.puts).toEqual([]);
    expect(state.patches).toEqual([]);
  });

  it('refuses to turn the switch on without a provider, and says why', async () => {
    const user = open();
    await user.click(captchaSwitch());
    await user.click(save());
    expect((await screen.findByTestId('captchaPolicy.enabled-error')).textContent).toBe(
      strings.errors.captcha_needs_provider,
    );
    expect(state.puts).toEqual([]);
    expect(state.patches, 'nothing is sent').toEqual([]);
  });

  it('removes the provider after a confirmation, and turns the switch off', async () => {
    state.saved.captchaPolicy = { enabled: true };
    state.provider = storedTurnstile();
    const user = open();
    await replace(user, maxAttempts(), '9');

    await user.click(removeProvider());
    let dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(strings.captcha.remove_content)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(state.deletes, 'cancelled: nothing removed').toBe(0);

    await user.click(removeProvider());
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: strings.captcha.remove_confirm }));
    expect(await screen.findByText(strings.captcha.removed)).toBeTruthy();
    expect(state.deletes).toBe(1);
    expect(state.patches).toEqual([{ captchaPolicy: { enabled: false } }]);
    expect(captchaSwitch().checked).toBe(false);
    expect(siteKey().value).toBe('');
    expect(secretKey().placeholder).toBe('');
    expect(screen.queryByRole('button', { name: strings.captcha.remove })).toBeNull();
    expect(maxAttempts().value, "the page's other unsaved changes stay").toBe('9');
  });
});

describe('the stored secret key and a new verification URL (issue 39, item 3)', () => {
  const hint = 'Enter the secret again: a stored secret is never sent to a new host.';
  const note = () => screen.queryByTestId('captcha.secretKey-note');
  const storedWithProxy = (): CaptchaProvider => ({
    config: {
      type: 'Turnstile',
      siteKey: '0x4AAAAAAA-site',
      secretKey: '********',
      verifyUrl: 'https://captcha-proxy.example.com/verify',
    },
    createdAt: 1,
    updatedAt: 1,
  });

  it('asks for the key again when the verification URL changes, and keeps the stored one when it is put back', async () => {
    state.provider = storedWithProxy();
    const user = open();
    expect(secretKey().value).toBe('');
    expect(secretKey().placeholder).toBe(strings.captcha.secret_key_stored_placeholder);
    expect(note()).toBeNull();

    await replace(user, verifyUrl(), 'https://captcha.attacker.test/verify');
    expect(secretKey().value, 'the key field is empty, no longer standing for the stored key').toBe('');
    expect(secretKey().placeholder).toBe('');
    expect(screen.queryByText(strings.captcha.secret_key_stored), 'no longer "leave this empty to keep it"').toBeNull();
    expect(note()?.textContent).toBe(hint);
    expect(secretKey().getAttribute('aria-describedby')?.split(' ')).toContain(note()?.id);
    // The script URL is not where the key goes: it changes nothing.
    await user.type(screen.getByRole('textbox', { name: /^Script URL/ }), 'https://cdn.example.com/api.js');
    expect(note()?.textContent).toBe(hint);

    await user.click(save());
    expect((await screen.findByTestId('captcha.secretKey-error')).textContent).toBe(strings.errors.secret_key_required);
    expect(state.puts, 'the stored key is not sent to the new address').toEqual([]);
    expect(state.patches).toEqual([]);

    // Back to the stored address (as typed, with blanks around it): the stored key is kept again.
    await replace(user, verifyUrl(), ' https://captcha-proxy.example.com/verify ');
    expect(secretKey().placeholder).toBe(strings.captcha.secret_key_stored_placeholder);
    expect(screen.getByText(strings.captcha.secret_key_stored)).toBeTruthy();
    expect(note()).toBeNull();
    await user.click(save());
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]).toEqual({
      config: {
        type: 'Turnstile',
        siteKey: '0x4AAAAAAA-site',
        secretKey: '********',
        verifyUrl: 'https://captcha-proxy.example.com/verify',
        scriptUrl: 'https://cdn.example.com/api.js',
      },
    });
  });

  it('sends the key typed again with the new address; an emptied address is a new one too', async () => {
    state.provider = storedWithProxy();
    const user = open();
    await replace(user, verifyUrl(), '');
    expect(note()?.textContent, "the provider's own address is another destination").toBe(hint);
    await user.type(secretKey(), '0x4AAAAAAA-typed-again');
    expect(note()).toBeNull();
    await user.click(save());
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]).toEqual({
      config: { type: 'Turnstile', siteKey: '0x4AAAAAAA-site', secretKey: '0x4AAAAAAA-typed-again' },
    });
  });

  it('says the server’s refusal of a key kept for a new verification URL at the field, in the console’s words', async () => {
    state.provider = storedTurnstile();
    state.putFailsWith = new ApiError(400, 'The request is invalid.', 'guard.invalid_input', [
      {
        path: 'config.secretKey',
        message: 'Enter this secret again: verifyUrl changed, and a stored secret is never sent to a new destination.',
        code: 'secret_required',
      },
    ]);
    const user = open();
    await replace(user, siteKey(), '0x4AAAAAAA-other');
    await user.click(save());
    await waitFor(() => expect(screen.getByTestId('captcha.secretKey-error').textContent).toBe(hint));
    expect(secretKey()).toBe(document.activeElement);
    expect(state.patches, 'the sign-in experience is not sent after a refused provider').toEqual([]);
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
