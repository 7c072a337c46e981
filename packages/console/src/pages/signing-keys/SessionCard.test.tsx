// @vitest-environment happy-dom
import type { OidcSessionConfig } from '@gatehouse/schemas';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../components/testing/render-page.tsx';
import signingKeys from '../../i18n/locales/en/signing_keys.json';
import { SessionCard } from './SessionCard.tsx';

// What the form refuses and sends is under test, not the API.
const sent: OidcSessionConfig[] = [];
vi.mock('../../api/signing-keys.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/signing-keys.ts')>()),
  useOidcSessionConfig: () => ({ data: { ttl: 1_209_600 }, isPending: false, isError: false, refetch: () => {} }),
  useUpdateOidcSessionConfig: () => ({
    mutateAsync: async (config: OidcSessionConfig) => {
      sent.push(config);
      return config;
    },
  }),
}));

function setup() {
  const user = userEvent.setup();
  renderPage(<SessionCard />, { path: '/signing-keys', namespaces: { signing_keys: signingKeys } });
  return user;
}

beforeEach(() => {
  sent.length = 0;
});

const range = 'A whole number, from 1 second to 365 days.';

describe('session lifetime (reference: 1 second to 1 year)', () => {
  it('shows the stored seconds in the largest whole unit', () => {
    setup();
    expect(screen.getByLabelText(/^Session lifetime/)).toHaveProperty('value', '14');
    expect(screen.getByLabelText('Unit')).toHaveProperty('value', 'days');
  });

  it('refuses 0 and more than a year, with nothing sent', async () => {
    const user = setup();
    const lifetime = screen.getByLabelText(/^Session lifetime/);
    await user.clear(lifetime);
    await user.type(lifetime, '0');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('value-error')).textContent).toBe(range);

    await user.clear(lifetime);
    await user.type(lifetime, '366');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('value-error')).textContent).toBe(range);

    await user.clear(lifetime);
    await user.type(lifetime, '31536001');
    await user.selectOptions(screen.getByLabelText('Unit'), 'seconds');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('value-error')).textContent).toBe(range);
    expect(sent, 'nothing is sent').toEqual([]);
  });

  it('sends the lifetime in seconds: 365 days, and 1 second', async () => {
    const user = setup();
    const lifetime = screen.getByLabelText(/^Session lifetime/);
    await user.clear(lifetime);
    await user.type(lifetime, '365');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Session lifetime saved.')).toBeTruthy();

    await user.clear(lifetime);
    await user.type(lifetime, '1');
    await user.selectOptions(screen.getByLabelText('Unit'), 'seconds');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await vi.waitFor(() => expect(sent).toEqual([{ ttl: 31_536_000 }, { ttl: 1 }]));
  });
});
