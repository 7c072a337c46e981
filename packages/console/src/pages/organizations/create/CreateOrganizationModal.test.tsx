// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../components/testing/render-page.tsx';
import organizations from '../../../i18n/locales/en/organizations.json';
import { CreateOrganizationModal } from './CreateOrganizationModal.tsx';

// What the dialog sends is under test, not the API (the server tests cover it): every create is recorded here.
const created: unknown[] = [];
vi.mock('../../../api/organizations.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/organizations.ts')>()),
  useCreateOrganization: () => ({
    mutateAsync: async (input: { name: string }) => {
      created.push(input);
      return { id: 'org1', name: input.name };
    },
  }),
}));

const errorOf = async (field: string) => (await screen.findByTestId(`${field}-error`)).textContent;

describe('create organization: refusals beside the field, nothing sent (spec §5)', () => {
  beforeEach(() => {
    created.length = 0;
  });

  it('refuses an empty name, spaces alone, a 129-character name and a 257-character description', async () => {
    const user = userEvent.setup();
    renderPage(<CreateOrganizationModal />, { path: '/organizations/create', namespaces: { organizations } });
    const submit = screen.getByRole('button', { name: 'Create organization' });
    await user.click(submit);
    expect(await errorOf('name')).toBe('Organization name is required.');
    await user.type(screen.getByLabelText(/^Organization name/), '   ');
    await user.click(submit);
    await waitFor(async () =>
      expect(await errorOf('name'), 'spaces alone are no name').toBe('Organization name is required.'),
    );

    await user.clear(screen.getByLabelText(/^Organization name/));
    await user.type(screen.getByLabelText(/^Organization name/), 'x'.repeat(129));
    await user.type(screen.getByLabelText(/^Description/), 'd'.repeat(257));
    await user.click(submit);
    await waitFor(async () => expect(await errorOf('name')).toBe('Organization name can have at most 128 characters.'));
    expect(await errorOf('description')).toBe('Description can have at most 256 characters.');
    expect(created, 'the form checks the rules before any request').toEqual([]);
  });

  it('sends a name and a description at their limits', async () => {
    const user = userEvent.setup();
    const { router } = renderPage(<CreateOrganizationModal />, {
      path: '/organizations/create',
      namespaces: { organizations },
    });
    await user.type(screen.getByLabelText(/^Organization name/), 'y'.repeat(128));
    await user.type(screen.getByLabelText(/^Description/), 'd'.repeat(256));
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    await waitFor(() => expect(created).toEqual([{ name: 'y'.repeat(128), description: 'd'.repeat(256) }]));
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/org1/settings'));
  });
});
