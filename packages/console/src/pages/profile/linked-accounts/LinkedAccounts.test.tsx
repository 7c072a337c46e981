// @vitest-environment happy-dom
import { LINKING_SOCIAL_CONNECTOR_STORAGE_KEY, type Me, type MeSocialConnector } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from '../../../api/client.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import profile from '../../../i18n/locales/en/profile.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import type { ProfileOutletContext } from '../ProfilePage.tsx';
import { LinkEmailModal } from './LinkEmailModal.tsx';
import { LinkedAccountsSection } from './LinkedAccountsSection.tsx';
import { VerificationCodeModal } from './VerificationCodeModal.tsx';

/**
 * The 'me' API as the section and its dialogs meet it: the real hooks call this fake, which keeps the account's email
 * and social identities and checks what each request carries (the proof of the password, the code, the state).
 */
const server = vi.hoisted(() => ({
  password: 'correct horse',
  recordId: 'record-1',
  code: '246810',
  /** Where the last code went. */
  codeTo: undefined as string | undefined,
  taken: 'bob@example.com',
  /** The next change refuses the proof as expired once. */
  expireProofOnce: false,
  connectors: [] as MeSocialConnector[],
  calls: [] as Array<{ call: string; body?: Record<string, unknown> }>,
}));

vi.mock('./offered.ts', () => ({ linkedAccountsOffered: true }));
vi.mock('../../../auth/session.ts', async (original) => ({
  ...(await original<typeof import('../../../auth/session.ts')>()),
  meResource: async () => 'https://admin.example/me',
  accessTokenFor: async () => 'me-token',
}));

vi.mock('../../../api/client.ts', async (original) => {
  const real = await original<typeof import('../../../api/client.ts')>();
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const refuse = (status: number, message: string, code: string): never => {
    throw new real.ApiError(status, message, code);
  };
  const me = (email: string) => ({
    id: 'u1',
    username: 'ada',
    primaryEmail: email,
    primaryEmailVerified: true,
    primaryPhone: null,
    name: null,
    avatar: null,
    customData: {},
    identities: {},
    hasPassword: true,
    lastSignInAt: null,
    createdAt: 0,
    updatedAt: 0,
  });

  async function request(path: string, init: RequestOptions = {}): Promise<Response> {
    const method = init.method ?? 'GET';
    const body = init.json as Record<string, unknown> | undefined;
    server.calls.push({ call: `${method} ${path}`, ...(body && { body }) });
    switch (`${method} ${path}`) {
      case 'GET /api/me/social/connectors':
        return json(server.connectors);
      case 'POST /api/me/password/verify':
        if (body?.password !== server.password) refuse(422, 'Wrong password.', 'session.invalid_credentials');
        return json({ verificationRecordId: server.recordId, expiresAt: Date.now() + 600_000 });
      case 'POST /api/me/email/link/verification-code':
        if (String(body?.email).toLowerCase() === server.taken) {
          refuse(422, 'This email address is already in use.', 'user.email_already_in_use');
        }
        server.codeTo = String(body?.email);
        return new Response(null, { status: 204 });
      case 'POST /api/me/email': {
        if (server.expireProofOnce) {
          server.expireProofOnce = false;
          refuse(422, 'Please verify your current password again.', 'verification_record.invalid');
        }
        if (body?.verificationRecordId !== server.recordId) {
          refuse(422, 'Please verify your current password again.', 'verification_record.invalid');
        }
        if (body?.code !== server.code || body?.email !== server.codeTo) {
          refuse(422, 'The code is wrong or has expired.', 'verification_code.code_mismatch');
        }
        return json(me(String(body?.email)));
      }
      case 'POST /api/me/social/authorization-uri':
        return json({ redirectTo: `https://idp.example/auth?state=${String(body?.state)}` });
      default: {
        const unlink = /^DELETE \/api\/me\/social\/identity\/(.+)$/.exec(`${method} ${path}`);
        if (unlink) {
          server.connectors = server.connectors.map((connector) =>
            connector.id === decodeURIComponent(unlink[1] ?? '') ? { ...connector, identity: null } : connector,
          );
          return new Response(null, { status: 204 });
        }
        throw new real.ApiError(404, `no route ${method} ${path}`);
      }
    }
  }
  return {
    ...real,
    request,
    requestJson: async <T,>(path: string, schema: { parse: (value: unknown) => T }, init?: RequestOptions) =>
      schema.parse(await (await request(path, init)).json()),
  };
});

const gatehouseId: MeSocialConnector = {
  id: 'gatehouse-id',
  target: 'gatehouse',
  name: { en: 'Gatehouse ID', de: 'Gatehouse-ID' },
  logo: '/console/connectors/oidc.svg',
  logoDark: null,
  identity: null,
};
const github: MeSocialConnector = {
  id: 'github',
  target: 'github',
  name: { en: 'GitHub' },
  logo: '/console/connectors/github.svg',
  logoDark: null,
  identity: { userId: '42', email: 'ada@github.example', name: 'Ada' },
};

function account(overrides: Partial<Me> = {}): Me {
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
    hasPassword: true,
    lastSignInAt: null,
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

/** Where the router is, and the state it carries. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname} ${JSON.stringify(location.state)}`}</output>;
}

/** The profile page's frame: the section, the dialog routes as its outlet (with the account), and where it is. */
function setup(me: Me, path = '/profile', state?: unknown) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'profile', profile);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  function Page() {
    return (
      <>
        <LinkedAccountsSection me={me} />
        <Where />
        <Outlet context={{ me } satisfies ProfileOutletContext} />
      </>
    );
  }
  const router = createMemoryRouter(
    [
      {
        path: '/profile',
        element: <Page />,
        children: [
          { path: 'link-email', element: <LinkEmailModal /> },
          { path: 'verification-code', element: <VerificationCodeModal /> },
        ],
      },
    ],
    { initialEntries: [{ pathname: path, state }] },
  );
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <KitProvider>
          <RouterProvider router={router} />
        </KitProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { user: userEvent.setup(), router };
}

const section = () => screen.getByRole('region', { name: 'Linked accounts' });
/** The value cell of a row, found by its label. */
const rowValue = (label: string) =>
  within(section()).getByText(label, { selector: 'dt, dt *' }).closest('div')?.querySelector('dd')?.textContent;

beforeEach(() => {
  server.codeTo = undefined;
  server.expireProofOnce = false;
  server.connectors = [gatehouseId, github];
  server.calls.length = 0;
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('LinkedAccountsSection (spec §2.12)', () => {
  it('shows the email with Change, and one row per social connector', async () => {
    setup(account());
    expect(rowValue('Email')).toBe('ada@example.com');
    const change = within(section()).getByRole('button', { name: 'Change email' });
    expect(change.textContent).toBe('Change');
    expect(await within(section()).findByRole('button', { name: 'Connect Gatehouse ID' })).toBeTruthy();
    expect(rowValue('Gatehouse ID')).toBe('Not connected');
    expect(rowValue('GitHub')).toBe('ada@github.example');
    expect(within(section()).getByRole('button', { name: 'Disconnect GitHub' }).textContent).toBe('Disconnect');
  });

  it("reads 'Link' without an email, and carries the current email and changeEmail to link-email", async () => {
    const { user } = setup(account({ primaryEmail: null }));
    expect(rowValue('Email')).toBe('Not set');
    const link = within(section()).getByRole('button', { name: 'Link email' });
    expect(link.textContent).toBe('Link');
    await user.click(link);
    expect(screen.getByTestId('where').textContent).toBe('/profile/link-email {"action":"changeEmail"}');
  });

  it('disconnects a social account after a confirmation', async () => {
    const { user } = setup(account());
    await user.click(await within(section()).findByRole('button', { name: 'Disconnect GitHub' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('You will no longer be able to sign in with your GitHub account.');
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Social account “GitHub” removed.')).toBeTruthy();
    expect(server.calls.map(({ call }) => call)).toContain('DELETE /api/me/social/identity/github');
    await waitFor(() => expect(rowValue('GitHub')).toBe('Not connected'));
  });

  it('keeps the link when the confirmation is cancelled', async () => {
    const { user } = setup(account());
    await user.click(await within(section()).findByRole('button', { name: 'Disconnect GitHub' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.some(({ call }) => call.startsWith('DELETE'))).toBe(false);
  });

  it('connects through a 600×640 popup, the connector id stored before it opens, an 8-character state', async () => {
    const opened: Array<{ url: string; features: string; storedId: string | null }> = [];
    const popup = { closed: false, focus: vi.fn() };
    vi.spyOn(window, 'open').mockImplementation((url, _name, features) => {
      opened.push({
        url: String(url),
        features: String(features),
        storedId: sessionStorage.getItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY),
      });
      return popup as unknown as Window;
    });
    const { user } = setup(account());
    await user.click(await within(section()).findByRole('button', { name: 'Connect Gatehouse ID' }));
    await waitFor(() => expect(opened).toHaveLength(1));
    const start = server.calls.find(({ call }) => call === 'POST /api/me/social/authorization-uri');
    expect(start?.body).toEqual({
      connectorId: 'gatehouse-id',
      state: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      redirectUri: `${window.location.origin}/handle-social`,
    });
    expect(opened[0]).toMatchObject({
      url: `https://idp.example/auth?state=${String(start?.body?.state)}`,
      features: expect.stringMatching(/^popup,width=600,height=640,left=\d+,top=\d+$/),
      storedId: 'gatehouse-id',
    });

    // The landing page tells the profile; the list is read again and the toast names the account.
    server.connectors = [{ ...gatehouseId, identity: { userId: 'r1', email: 'river@idp.test', name: null } }, github];
    window.dispatchEvent(
      new MessageEvent('message', {
        origin: window.location.origin,
        data: {
          type: 'gatehouse:social-linking',
          state: start?.body?.state,
          connectorId: 'gatehouse-id',
          outcome: 'linked',
        },
      }),
    );
    expect(await screen.findByText('Social account “Gatehouse ID” added.')).toBeTruthy();
    await waitFor(() => expect(rowValue('Gatehouse ID')).toBe('river@idp.test'));
    expect(sessionStorage.getItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY)).toBeNull();
  });

  it('ignores the word of another linking; once the popup reads as closed, Connect works again and the word counts', async () => {
    const popup = { closed: false, focus: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const { user } = setup(account());
    const connect = await within(section()).findByRole('button', { name: 'Connect Gatehouse ID' });
    await user.click(connect);
    await waitFor(() => expect(window.open).toHaveBeenCalled());
    const state = server.calls.find(({ call }) => call === 'POST /api/me/social/authorization-uri')?.body?.state;
    const word = (of: unknown) =>
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'gatehouse:social-linking', state: of, connectorId: 'gatehouse-id', outcome: 'linked' },
        }),
      );
    word('zzzzzzzz');
    expect(connect).toHaveProperty('disabled', true);
    // The provider's page cut the popup off from the profile (Cross-Origin-Opener-Policy): it reads as closed.
    popup.closed = true;
    await waitFor(() => expect(connect).toHaveProperty('disabled', false), { timeout: 2000 });
    expect(sessionStorage.getItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY)).toBeNull();
    expect(screen.queryByText('Social account “Gatehouse ID” added.')).toBeNull();

    server.connectors = [{ ...gatehouseId, identity: { userId: 'r1', email: null, name: 'River' } }, github];
    word(state);
    expect(await screen.findByText('Social account “Gatehouse ID” added.')).toBeTruthy();
    await waitFor(() => expect(rowValue('Gatehouse ID')).toBe('River'));
  });

  it('says so when the browser blocks the popup', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = setup(account());
    await user.click(await within(section()).findByRole('button', { name: 'Connect Gatehouse ID' }));
    expect(
      await screen.findByText('The sign-in window could not open. Allow pop-ups for this site and try again.'),
    ).toBeTruthy();
    expect(sessionStorage.getItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY)).toBeNull();
  });
});

describe('link-email and verification-code (spec §2.1, §2.12)', () => {
  const flow = { email: 'ada@example.com', action: 'changeEmail' };

  it('asks for the password first, then the new address, then the code, and saves the email', async () => {
    const { user } = setup(account(), '/profile/link-email', flow);
    const verify = await screen.findByRole('dialog', { name: 'Verify your password' });
    expect(verify.textContent).toContain('Enter your current password before you change your email.');
    await user.type(within(verify).getByLabelText(/^Current password/), server.password);
    await user.click(within(verify).getByRole('button', { name: 'Continue' }));

    const linkDialog = await screen.findByRole('dialog', { name: 'Change email' });
    expect(within(linkDialog).getByTestId('current-email').textContent).toBe('Current email: ada@example.com');
    const field = within(linkDialog).getByLabelText(/^New email address/);
    await user.type(field, 'not-an-address');
    await user.click(within(linkDialog).getByRole('button', { name: 'Send code' }));
    expect(await within(linkDialog).findByText('Enter a valid email address.')).toBeTruthy();
    await user.clear(field);
    await user.type(field, 'bob@example.com');
    await user.click(within(linkDialog).getByRole('button', { name: 'Send code' }));
    expect(await within(linkDialog).findByText('This email address is already in use.')).toBeTruthy();
    await user.clear(field);
    await user.type(field, 'ada.new@example.com');
    await user.click(within(linkDialog).getByRole('button', { name: 'Send code' }));

    const codeDialog = await screen.findByRole('dialog', { name: 'Enter the code' });
    expect(within(codeDialog).getByTestId('code-sent-to').textContent).toBe('Code sent to: ada.new@example.com');
    expect(within(codeDialog).getByRole('button', { name: /^Send a new code in \d+ s$/ })).toHaveProperty(
      'disabled',
      true,
    );
    const code = within(codeDialog).getByLabelText(/^Verification code/);
    await user.type(code, '12');
    await user.click(within(codeDialog).getByRole('button', { name: 'Verify' }));
    expect(await within(codeDialog).findByText('Enter the 6 digits of the code.')).toBeTruthy();
    await user.clear(code);
    await user.type(code, '111111');
    await user.click(within(codeDialog).getByRole('button', { name: 'Verify' }));
    expect(await within(codeDialog).findByText('The code is wrong or has expired.')).toBeTruthy();
    await user.clear(code);
    await user.type(code, server.code);
    await user.click(within(codeDialog).getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('Email address “ada.new@example.com” saved.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/profile null'));
    expect(server.calls.filter(({ call }) => call === 'POST /api/me/email').at(-1)?.body).toEqual({
      email: 'ada.new@example.com',
      code: server.code,
      verificationRecordId: server.recordId,
    });
  });

  it('sends no proof for an account without a password, and reads "Link email" without an email', async () => {
    const { user } = setup(account({ hasPassword: false, primaryEmail: null }), '/profile/link-email', {
      action: 'changeEmail',
    });
    const linkDialog = await screen.findByRole('dialog', { name: 'Link email' });
    expect(within(linkDialog).queryByTestId('current-email')).toBeNull();
    await user.type(within(linkDialog).getByLabelText(/^New email address/), 'ada@example.com');
    await user.click(within(linkDialog).getByRole('button', { name: 'Send code' }));
    await screen.findByRole('dialog', { name: 'Enter the code' });
    expect(screen.getByTestId('where').textContent).toBe(
      '/profile/verification-code {"email":"ada@example.com","action":"changeEmail"}',
    );
  });

  it('asks for the password again when the proof expired, and sends the same code with the new proof', async () => {
    server.codeTo = 'ada.new@example.com';
    server.expireProofOnce = true;
    const { user } = setup(account(), '/profile/verification-code', {
      email: 'ada.new@example.com',
      action: 'changeEmail',
      verificationRecordId: server.recordId,
    });
    const codeDialog = await screen.findByRole('dialog', { name: 'Enter the code' });
    await user.type(within(codeDialog).getByLabelText(/^Verification code/), server.code);
    await user.click(within(codeDialog).getByRole('button', { name: 'Verify' }));
    const verify = await screen.findByRole('dialog', { name: 'Verify your password' });
    await user.type(within(verify).getByLabelText(/^Current password/), server.password);
    await user.click(within(verify).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Email address “ada.new@example.com” saved.')).toBeTruthy();
    expect(server.calls.filter(({ call }) => call === 'POST /api/me/email')).toHaveLength(2);
  });

  it('goes back to link-email when verification-code is opened without an address', async () => {
    setup(account(), '/profile/verification-code', { email: 'not an email', action: 'changeEmail' });
    expect(await screen.findByRole('dialog', { name: 'Verify your password' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/profile/link-email null');
  });
});
