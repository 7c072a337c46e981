// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../components/testing/render-page.tsx';
import organizations from '../../../i18n/locales/en/organizations.json';
import { InviteMembersModal } from './InviteMembersModal.tsx';

// What the dialog sends is under test, not the API (the e2e spec keeps the server's refusal of an address).
const sent: unknown[] = [];
vi.mock('../../../api/organization-invitations.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/organization-invitations.ts')>()),
  useInvite: () => ({
    mutateAsync: async (input: unknown) => {
      sent.push(input);
      return [];
    },
  }),
}));
vi.mock('../../../api/organizations.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/organizations.ts')>()),
  useOrganizationPickerLoaders: () => ({
    roles: async () => ({ items: [], total: 0 }),
    key: (...parts: readonly unknown[]) => ['picker', ...parts],
  }),
}));

describe('invite members: refusals in the dialog, nothing sent', () => {
  beforeEach(() => {
    sent.length = 0;
  });

  it('marks a malformed address, needs one valid address, and refuses a non-web acceptance link', async () => {
    const user = userEvent.setup();
    renderPage(<InviteMembersModal organizationId="org1" organizationName="Acme" onClose={() => undefined} />, {
      path: '/organizations/org1/members',
      namespaces: { organizations },
    });
    const dialog = within(screen.getByRole('dialog', { name: 'Invite members' }));
    await user.type(dialog.getByRole('textbox', { name: 'Email addresses' }), 'not-an-email{Enter}');
    expect(await dialog.findByText('Not a valid email address: not-an-email')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Send invitations' }));
    expect(await dialog.findByText('Enter at least one valid email address.')).toBeTruthy();
    await user.type(dialog.getByLabelText(/^Acceptance link/), 'ftp://files.example.com');
    await user.click(dialog.getByRole('button', { name: 'Send invitations' }));
    expect(await dialog.findByText('Enter an http:// or https:// URL, or leave the field empty.')).toBeTruthy();
    expect(sent, 'nothing is sent').toEqual([]);
  });
});
