// @vitest-environment happy-dom
import type { Domain, DomainCreate } from '@gatehouse/schemas';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { KitProvider } from '../../../components/KitProvider.tsx';
import { createTestI18n } from '../../../components/testing/render.tsx';
import domainsStrings from '../../../i18n/locales/en/domains.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { DomainsTab } from './DomainsTab.tsx';

// The API is not under test here (the server tests cover it): what the tab sends and shows is.
const state: { list: Domain[]; created: DomainCreate[]; deleted: string[]; refetches: number; failWith?: ApiError } = {
  list: [],
  created: [],
  deleted: [],
  refetches: 0,
};
vi.mock('../../../api/domains.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/domains.ts')>()),
  useDomains: () => ({
    data: state.list,
    isPending: false,
    isError: false,
    isFetching: false,
    refetch: async () => {
      state.refetches++;
    },
  }),
  useCreateDomain: () => ({
    mutateAsync: async (input: DomainCreate) => {
      if (state.failWith) throw state.failWith;
      state.created.push(input);
      return { ...domain('PendingVerification'), domain: input.domain };
    },
  }),
  useDeleteDomain: () => ({
    mutateAsync: async (id: string) => {
      state.deleted.push(id);
    },
  }),
}));

function domain(status: Domain['status'], errorMessage: string | null = null): Domain {
  return {
    id: 'dom1',
    domain: 'auth.acme.example',
    status,
    errorMessage,
    dnsRecords: [
      { name: 'auth.acme.example', type: 'CNAME', value: 'edge.gatehouse.test' },
      { name: '_gatehouse-challenge.auth.acme.example', type: 'TXT', value: 'token-123' },
    ],
    createdAt: 1,
    updatedAt: 1,
  };
}

function setup() {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'domains', domainsStrings);
  render(
    <I18nProvider i18n={i18n}>
      <KitProvider>
        <DomainsTab />
      </KitProvider>
    </I18nProvider>,
  );
}

beforeEach(() => {
  state.list = [];
  state.created = [];
  state.deleted = [];
  state.refetches = 0;
  state.failWith = undefined;
});

describe('DomainsTab without a domain', () => {
  it('validates on blur, submits with Enter, and sends the normalised name', async () => {
    setup();
    const input = screen.getByRole('textbox', { name: /Domain/ });
    await userEvent.type(input, 'https://auth.acme.example');
    await userEvent.tab();
    expect(await screen.findByText(/Enter only the host name/)).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, ' Auth.ACME.example{Enter}');
    await vi.waitFor(() => expect(state.created).toEqual([{ domain: 'auth.acme.example' }]));
    expect(screen.queryByText(/Enter only the host name/)).toBeNull();
  });

  it("shows the server's refusal under the field, and the domain someone else added", async () => {
    state.failWith = new ApiError(422, 'This tenant already has a custom domain.', 'domain.limit_reached');
    setup();
    await userEvent.type(screen.getByRole('textbox', { name: /Domain/ }), 'auth.acme.example{Enter}');
    expect(await screen.findByText('This tenant already has a custom domain.')).toBeTruthy();
    expect(state.refetches).toBe(1);

    state.failWith = new ApiError(400, 'Invalid input.', 'guard.invalid_input');
    await userEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    expect(await screen.findByText(/This domain cannot be used/)).toBeTruthy();
  });
});

describe('DomainsTab with a domain', () => {
  it('shows the status, the last check and the records to copy; checks on demand', async () => {
    state.list = [domain('Error', 'The CNAME record of auth.acme.example points to old.example.net.')];
    setup();
    expect(screen.getByTestId('domain-name').textContent).toBe('auth.acme.example');
    expect(within(screen.getByTestId('domain-status')).getByText('Error')).toBeTruthy();
    expect(screen.getByTestId('domain-message').textContent).toContain('points to old.example.net');
    const table = screen.getByRole('table', { name: 'DNS records' });
    const txt = within(table).getByRole('row', { name: /TXT/ });
    expect(txt.textContent).toContain('_gatehouse-challenge.auth.acme.example');
    expect(txt.textContent).toContain('token-123');
    expect(within(txt).getByRole('button', { name: 'Copy the value of the TXT record' })).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Copy the name of the CNAME record' })).toBeTruthy();
    expect(screen.getByText(/every 10 seconds/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(state.refetches).toBe(1);
  });

  it('an Active domain is final: no check button, no polling note, no message', () => {
    state.list = [domain('Active')];
    setup();
    expect(within(screen.getByTestId('domain-status')).getByText('Active')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Check now' })).toBeNull();
    expect(screen.queryByText(/every 10 seconds/)).toBeNull();
    expect(screen.queryByTestId('domain-message')).toBeNull();
  });

  it('deletes only after the confirmation', async () => {
    state.list = [domain('PendingSsl', 'HTTPS check failed')];
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Delete domain' }));
    const first = await screen.findByRole('alertdialog', { name: 'Delete the custom domain?' });
    await userEvent.click(within(first).getByRole('button', { name: 'Cancel' }));
    expect(state.deleted).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Delete domain' }));
    const second = await screen.findByRole('alertdialog', { name: 'Delete the custom domain?' });
    await userEvent.click(within(second).getByRole('button', { name: 'Delete domain' }));
    expect(state.deleted).toEqual(['dom1']);
  });
});
