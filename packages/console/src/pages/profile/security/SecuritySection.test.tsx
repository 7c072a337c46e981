// @vitest-environment happy-dom
import type { Me, UserMfaVerification } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from '../../../api/client.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import profile from '../../../i18n/locales/en/profile.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { SecuritySection } from './SecuritySection.tsx';

/**
 * The 'me' API as the section meets it: the section's real hooks call this fake, which keeps the account's factors
 * and checks what a request carries (the password's proof in the body or the DELETE's header, the ticket, the code).
 */
const server = vi.hoisted(() => ({
  password: 'correct horse',
  recordId: 'record-1',
  factors: [] as UserMfaVerification[],
  /** The next passkey the browser answers with fails the server's verification. */
  refusePasskey: false,
  calls: [] as Array<{ call: string; body?: unknown; headers?: Record<string, string> }>,
}));

/** What the browser's WebAuthn prompt answers: mocked at the library's boundary, as happy-dom has no authenticator. */
const browser = vi.hoisted(() => ({ startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startRegistration: browser.startRegistration }));

vi.mock('../../../auth/session.ts', async (original) => ({
  ...(await original<typeof import('../../../auth/session.ts')>()),
  meResource: async () => 'https://admin.example/me',
}));

vi.mock('../../../api/client.ts', async (original) => {
  const real = await original<typeof import('../../../api/client.ts')>();
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const refuse = (status: number, message: string, code: string) => {
    throw new real.ApiError(status, message, code);
  };
  const backupCodes = Array.from({ length: 10 }, (_, index) => `code${String(index).padStart(6, '0')}`);

  /** The first factor comes with backup codes, once, as the server makes them. */
  function add(verification: UserMfaVerification) {
    const makesCodes = !server.factors.some((factor) => factor.type === 'BackupCode');
    server.factors.push(verification);
    if (!makesCodes) return json({ verification }, 201);
    server.factors.push({ id: 'codes', type: 'BackupCode', createdAt: 0, lastUsedAt: null, remainCodes: 10 });
    return json({ verification, backupCodes }, 201);
  }

  async function request(path: string, init: RequestOptions = {}): Promise<Response> {
    const method = init.method ?? 'GET';
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.json as Record<string, unknown> | undefined;
    server.calls.push({
      call: `${method} ${path}`,
      ...(body && { body }),
      ...(Object.keys(headers).length && { headers }),
    });
    const route = `${method} ${path.replace(/\/mfa-verifications\/(?!webauthn|totp)[^/]+$/, '/mfa-verifications/:id')}`;
    switch (route) {
      case 'GET /api/me/mfa-verifications':
        return json(server.factors);
      case 'POST /api/me/password/verify':
        if (body?.password !== server.password) refuse(422, 'Wrong password.', 'session.invalid_credentials');
        return json({ verificationRecordId: server.recordId, expiresAt: Date.now() + 600_000 });
      case 'POST /api/me/mfa-verifications/webauthn-registration':
        return json(
          { options: { challenge: 'Y2hhbGxlbmdl', rp: { name: 'Gatehouse' } }, ticket: 'passkey-ticket' },
          201,
        );
      case 'POST /api/me/mfa-verifications/totp-secret':
        return json(
          {
            secret: 'JBSWY3DPEHPK3PXP',
            secretQrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
            otpauthUri: 'otpauth://totp/Gatehouse:ada?secret=JBSWY3DPEHPK3PXP',
            ticket: 'totp-ticket',
          },
          201,
        );
      case 'POST /api/me/mfa-verifications': {
        if (body?.type === 'Totp') {
          if (body.code !== '123456') refuse(422, 'The code is invalid.', 'mfa.invalid_code');
          return add({ id: 'totp', type: 'Totp', createdAt: 0, lastUsedAt: null });
        }
        if (server.refusePasskey)
          refuse(422, 'The passkey could not be verified.', 'user.webauthn_verification_failed');
        return add({
          id: 'passkey-new',
          type: 'WebAuthn',
          name: String(body?.name),
          backedUp: true,
          createdAt: 0,
          lastUsedAt: null,
        });
      }
      case 'DELETE /api/me/mfa-verifications/:id': {
        if (headers['x-verification-record-id'] !== server.recordId) {
          refuse(422, 'Verify your password again.', 'verification_record.invalid');
        }
        const id = decodeURIComponent(path.split('/').pop() ?? '');
        server.factors = server.factors.filter((factor) => factor.id !== id);
        return new Response(null, { status: 204 });
      }
      default:
        throw new real.ApiError(404, `no route ${route}`);
    }
  }
  return {
    ...real,
    request,
    requestJson: async <T,>(path: string, schema: { parse: (value: unknown) => T }, init?: RequestOptions) =>
      schema.parse(await (await request(path, init)).json()),
  };
});

const chromeOnLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** What the browser's prompt gives back: a RegistrationResponseJSON. */
const registration = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'o2Nm', transports: ['internal'] },
  authenticatorAttachment: 'platform',
  clientExtensionResults: {},
};

const workLaptop: UserMfaVerification = {
  id: 'passkey-1',
  type: 'WebAuthn',
  name: 'Work laptop',
  backedUp: false,
  createdAt: Date.UTC(2026, 0, 2),
  lastUsedAt: null,
};

function account(hasPassword: boolean): Me {
  return {
    id: 'u1',
    username: 'ada',
    primaryEmail: 'ada@example.com',
    primaryEmailVerified: true,
    primaryPhone: null,
    name: null,
    avatar: null,
    customData: {},
    identities: {},
    hasPassword,
    lastSignInAt: null,
    createdAt: 0,
    updatedAt: 0,
  };
}

function setup({ hasPassword = true } = {}) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'profile', profile);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <KitProvider>
          <SecuritySection me={account(hasPassword)} />
        </KitProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { user: userEvent.setup() };
}

const section = () => screen.getByRole('region', { name: 'Two-step verification' });
/** The calls that change the account (not the list's reads). */
const changes = () => server.calls.filter(({ call }) => !call.startsWith('GET '));

async function verifyPassword(user: ReturnType<typeof userEvent.setup>, password = server.password) {
  const dialog = await screen.findByRole('dialog', { name: 'Verify your password' });
  const field = within(dialog).getByLabelText(/^Current password/);
  await user.clear(field);
  await user.type(field, password);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

beforeEach(() => {
  server.factors = [];
  server.refusePasskey = false;
  server.calls.length = 0;
  browser.startRegistration.mockReset();
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(chromeOnLinux);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SecuritySection', () => {
  it('adds a passkey: the password, the browser, a name; then shows the backup codes once', async () => {
    browser.startRegistration.mockResolvedValue(registration);
    const { user } = setup();
    expect(await within(section()).findByText('No passkeys yet.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await verifyPassword(user);

    const naming = await screen.findByRole('dialog', { name: 'Name your passkey' });
    const name = within(naming).getByLabelText(/^Name/) as HTMLInputElement;
    expect(name.value, 'offered from the user agent').toBe('Chrome on Linux');
    expect(browser.startRegistration).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'Y2hhbGxlbmdl', rp: { name: 'Gatehouse' } },
    });
    expect(changes().map(({ call }) => call)).toEqual([
      'POST /api/me/password/verify',
      'POST /api/me/mfa-verifications/webauthn-registration',
    ]);
    expect(changes()[1]?.body, 'the proof of the password goes with the registration').toEqual({
      verificationRecordId: 'record-1',
    });

    await user.clear(name);
    await user.type(name, 'Work laptop');
    await user.click(within(naming).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Passkey “Work laptop” added.')).toBeTruthy();
    expect(changes().at(-1)).toEqual({
      call: 'POST /api/me/mfa-verifications',
      body: { type: 'WebAuthn', ticket: 'passkey-ticket', name: 'Work laptop', response: registration },
    });
    const codes = await screen.findByRole('dialog', { name: 'Backup codes: save them now' });
    expect(codes.textContent).toContain('code000000');
    expect(codes.textContent).toContain('code000009');
    await user.click(within(codes).getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    const row = await within(section()).findByText('Work laptop');
    expect(row.closest('div')?.textContent).toContain('Synced between your devices');
    expect(within(section()).getByText('Unused codes: 10')).toBeTruthy();
  });

  it('saves nothing when the browser prompt is cancelled, and says so calmly', async () => {
    browser.startRegistration.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
    );
    const { user } = setup({ hasPassword: false });
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));

    await waitFor(() =>
      expect(within(section()).getByRole('status').textContent).toBe(
        'No passkey was added: the request was cancelled or timed out.',
      ),
    );
    expect(screen.queryByRole('dialog'), 'no password to verify, no name to ask').toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(changes()).toEqual([
      // Without a password there is no proof to send.
      { call: 'POST /api/me/mfa-verifications/webauthn-registration', body: {} },
    ]);
    expect(server.factors).toEqual([]);
  });

  it('shows a passkey the server refuses at the name field, and keeps nothing', async () => {
    browser.startRegistration.mockResolvedValue(registration);
    server.refusePasskey = true;
    const { user } = setup({ hasPassword: false });
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));

    const naming = await screen.findByRole('dialog', { name: 'Name your passkey' });
    await user.click(within(naming).getByRole('button', { name: 'Save' }));

    expect((await within(naming).findByTestId('name-error')).textContent).toBe(
      'The passkey could not be verified. Close this dialog and add it again.',
    );
    expect(screen.getByRole('dialog', { name: 'Name your passkey' }), 'the dialog stays open').toBeTruthy();
    expect(server.factors).toEqual([]);
    expect(screen.queryByText(/added\.$/)).toBeNull();
    expect(within(section()).getByText('No passkeys yet.')).toBeTruthy();
  });

  it('sets up an authenticator app: a wrong code is refused at the field, the right one adds it', async () => {
    server.factors = [workLaptop, { id: 'codes', type: 'BackupCode', createdAt: 0, lastUsedAt: null, remainCodes: 7 }];
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    await verifyPassword(user);

    const dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    const qrCode = within(dialog).getByRole('img', { name: 'QR code for your authenticator app' });
    expect(qrCode.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(within(dialog).getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy the key' })).toBeTruthy();
    expect(changes()[1]).toEqual({
      call: 'POST /api/me/mfa-verifications/totp-secret',
      body: { verificationRecordId: 'record-1' },
    });

    const code = within(dialog).getByLabelText(/^Code from the app/);
    await user.type(code, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect((await within(dialog).findByTestId('code-error')).textContent).toBe('Enter the 6 digits of the code.');
    expect(changes()).toHaveLength(2);

    await user.clear(code);
    await user.type(code, '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('code-error').textContent).toBe(
        'The code is incorrect. Enter the code the app shows now.',
      ),
    );
    expect(
      server.factors.some((factor) => factor.type === 'Totp'),
      'nothing kept',
    ).toBe(false);

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Authenticator app added.')).toBeTruthy();
    expect(changes().at(-1)).toEqual({
      call: 'POST /api/me/mfa-verifications',
      body: { type: 'Totp', ticket: 'totp-ticket', code: '123456' },
    });
    // Backup codes existed already: none are made, so none are shown.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(section()).findByRole('button', { name: 'Remove authenticator app' })).toBeTruthy();
    expect(within(section()).queryByRole('button', { name: 'Set up an authenticator app' })).toBeNull();
  });

  it('removes a factor after a confirmation and the password, sending the proof in a header', async () => {
    server.factors = [workLaptop];
    const { user } = setup();
    const remove = await screen.findByRole('button', { name: 'Remove passkey “Work laptop”' });

    await user.click(remove);
    const question = await screen.findByRole('alertdialog', { name: 'Remove passkey' });
    expect(question.textContent).toContain('You will no longer be able to sign in with the passkey “Work laptop”.');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Verify your password' })).toBeNull();

    await user.click(remove);
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Remove passkey' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    await verifyPassword(user, 'wrong');
    expect((await screen.findByTestId('password-error')).textContent).toBe('The password is incorrect.');
    expect(server.factors, 'nothing removed without the proof').toEqual([workLaptop]);

    await verifyPassword(user);
    expect(await screen.findByText('Passkey “Work laptop” removed.')).toBeTruthy();
    expect(changes().at(-1)).toEqual({
      call: 'DELETE /api/me/mfa-verifications/passkey-1',
      headers: { 'x-verification-record-id': 'record-1' },
    });
    expect(await within(section()).findByText('No passkeys yet.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('explains why passkeys cannot be added in a browser without WebAuthn', async () => {
    vi.unstubAllGlobals();
    setup();
    const add = await screen.findByRole('button', { name: 'Add a passkey' });
    expect(add.hasAttribute('disabled')).toBe(true);
    const reason = document.getElementById(add.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe(
      'This browser cannot create passkeys. Open your profile in a browser that supports them to add one.',
    );
    // Setting up an authenticator app needs no WebAuthn.
    expect(screen.getByRole('button', { name: 'Set up an authenticator app' }).hasAttribute('disabled')).toBe(false);
  });
});
