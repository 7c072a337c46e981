// @vitest-environment happy-dom
import { LINKING_SOCIAL_CONNECTOR_STORAGE_KEY } from '@gatehouse/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from '../../../api/client.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import profile from '../../../i18n/locales/en/profile.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { HandleSocialPage } from './HandleSocialPage.tsx';

/** `link-identity` as the landing page meets it: what it was sent, and the answer the test chose. */
const server = vi.hoisted(() => ({
  calls: [] as Array<{ call: string; body?: unknown }>,
  refusal: undefined as { status: number; message: string; code: string } | undefined,
}));

vi.mock('../../../auth/session.ts', async (original) => ({
  ...(await original<typeof import('../../../auth/session.ts')>()),
  meResource: async () => 'https://admin.example/me',
}));

vi.mock('../../../api/client.ts', async (original) => {
  const real = await original<typeof import('../../../api/client.ts')>();
  async function request(path: string, init: RequestOptions = {}): Promise<Response> {
    server.calls.push({ call: `${init.method ?? 'GET'} ${path}`, body: init.json });
    if (server.refusal) throw new real.ApiError(server.refusal.status, server.refusal.message, server.refusal.code);
    const connector = {
      id: 'gatehouse-id',
      target: 'gatehouse',
      name: { en: 'Gatehouse ID' },
      logo: '/logo.svg',
      logoDark: null,
      identity: { userId: 'r1', email: 'river@idp.test', name: null },
    };
    return new Response(JSON.stringify(connector), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }
  return {
    ...real,
    request,
    requestJson: async <T,>(path: string, schema: { parse: (value: unknown) => T }, init?: RequestOptions) =>
      schema.parse(await (await request(path, init)).json()),
  };
});

function setup() {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'profile', profile);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <KitProvider>
          <HandleSocialPage />
        </KitProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { user: userEvent.setup() };
}

/** The opener (the profile) and the window's own close, watched. */
let opener: { postMessage: ReturnType<typeof vi.fn> };
let close: ReturnType<typeof vi.fn<() => void>>;

beforeEach(() => {
  server.calls.length = 0;
  server.refusal = undefined;
  sessionStorage.clear();
  window.history.replaceState(null, '', '/handle-social?code=abc&state=aB3dE6gH&iss=https%3A%2F%2Fidp.example');
  opener = { postMessage: vi.fn() };
  close = vi.fn<() => void>();
  Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true });
  vi.spyOn(window, 'close').mockImplementation(close);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('HandleSocialPage (spec §2.1, §4, §7)', () => {
  it('reads and removes the stored connector, posts every query parameter and its address, tells the opener, closes', async () => {
    sessionStorage.setItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY, 'gatehouse-id');
    setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Linking your account' })).toBeTruthy();
    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(sessionStorage.getItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY)).toBeNull();
    expect(server.calls).toEqual([
      {
        call: 'POST /api/me/social/link-identity',
        body: {
          connectorId: 'gatehouse-id',
          connectorData: {
            code: 'abc',
            state: 'aB3dE6gH',
            iss: 'https://idp.example',
            redirectUri: `${window.location.origin}/handle-social`,
          },
        },
      },
    ]);
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: 'gatehouse:social-linking', state: 'aB3dE6gH', connectorId: 'gatehouse-id', outcome: 'linked' },
      window.location.origin,
    );
  });

  it('shows user.identity_already_in_use in an alert, then closes (spec §8)', async () => {
    sessionStorage.setItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY, 'gatehouse-id');
    server.refusal = {
      status: 422,
      message: 'This social account is already linked to another account.',
      code: 'user.identity_already_in_use',
    };
    const { user } = setup();
    const alert = await screen.findByRole('alertdialog');
    expect(alert.textContent).toContain('This social account is already linked to another account.');
    expect(close).not.toHaveBeenCalled();
    await user.click(within(alert).getByRole('button', { name: 'Got it' }));
    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(opener.postMessage).toHaveBeenCalledWith(
      expect.objectContaining({ outcome: 'failed' }),
      window.location.origin,
    );
  });

  it('keeps other refusals on the page, with a way to close it', async () => {
    sessionStorage.setItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY, 'gatehouse-id');
    server.refusal = {
      status: 400,
      message: 'The social sign-in has expired or was started elsewhere. Please try again.',
      code: 'session.connector_session_not_found',
    };
    const { user } = setup();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The social sign-in has expired or was started elsewhere. Please try again.',
    );
    expect(close).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Close window' }));
    expect(close).toHaveBeenCalled();
  });

  it('posts nothing when no linking was started in this window', async () => {
    setup();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No account linking is in progress in this window. Close it and start again from your profile.',
    );
    expect(server.calls).toEqual([]);
  });
});
