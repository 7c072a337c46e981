// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import strings from '../../../i18n/locales/en/organizations.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { JitSsoConnectors } from './JitSsoConnectors.tsx';

// What the card shows and sends is under test, not the API: the PUTs are recorded here.
const state: { all: { id: string; connectorName: string }[]; picked: { id: string }[]; puts: string[][] } = {
  all: [],
  picked: [],
  puts: [],
};

vi.mock('../../../api/sso-connectors.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/sso-connectors.ts')>()),
  useAllSsoConnectors: () => ({
    isPending: false,
    isError: false,
    data: { items: state.all, total: state.all.length },
  }),
  useOrganizationJitSsoConnectors: () => ({
    isPending: false,
    isError: false,
    data: { items: state.picked, total: state.picked.length },
  }),
  useReplaceOrganizationJitSsoConnectors: () => ({
    isPending: false,
    mutateAsync: async (ids: string[]) => {
      state.puts.push(ids);
    },
  }),
}));

function open() {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'organizations', strings);
  const router = createMemoryRouter([{ path: '*', element: <JitSsoConnectors organizationId="org1" /> }]);
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

beforeEach(() => {
  state.all = [];
  state.picked = [];
  state.puts = [];
});

describe('the organization’s enterprise SSO provisioning', () => {
  it('ticks the connectors that provision members and saves the whole set on a tick', async () => {
    state.all = [
      { id: 'a', connectorName: 'Acme' },
      { id: 'b', connectorName: 'Globex' },
    ];
    state.picked = [{ id: 'a' }];
    const user = open();
    const acme = screen.getByRole('checkbox', { name: 'Acme' }) as HTMLInputElement;
    expect(acme.checked).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Globex' }));
    await waitFor(() => expect(state.puts).toEqual([['a', 'b']]));
  });

  it('points to the enterprise SSO area when the tenant has no connector', () => {
    open();
    expect(screen.getByRole('link', { name: 'Add one in Enterprise SSO' }).getAttribute('href')).toBe(
      '/enterprise-sso',
    );
  });
});
