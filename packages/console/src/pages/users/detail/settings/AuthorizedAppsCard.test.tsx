// @vitest-environment happy-dom
import type { User, UserGrant } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../../components/testing/render-page.tsx';
import users from '../../../../i18n/locales/en/users.json';
import { AuthorizedAppsCard } from './AuthorizedAppsCard.tsx';

// What the card shows and sends is under test, not the API (the server tests cover the grants routes).
const revoked: string[] = [];
let grants: UserGrant[] = [];
vi.mock('../../../../api/users.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../api/users.ts')>()),
  useUserGrants: () => ({ data: grants, isPending: false, error: null, refetch: () => {} }),
  useRevokeUserGrant: () => ({
    mutateAsync: async (grantId: string) => {
      revoked.push(grantId);
      grants = grants.filter((grant) => grant.id !== grantId);
    },
  }),
}));

const user = { id: 'u1', name: 'Ada Lovelace', username: 'ada' } as User;

function grant(id: string, name: string): UserGrant {
  return {
    id,
    applicationId: `app-${id}`,
    application: { id: `app-${id}`, name, type: 'Traditional', isThirdParty: true },
    scopes: ['openid', 'profile'],
    resourceScopes: { 'https://api.example.com': ['read:orders'] },
    createdAt: Date.UTC(2026, 0, 2),
    expiresAt: null,
  };
}

beforeEach(() => {
  revoked.length = 0;
  grants = [grant('g1', 'Partner portal')];
});

describe('AuthorizedAppsCard', () => {
  it('lists each grant with a link to its application and the scopes it holds', () => {
    renderPage(<AuthorizedAppsCard user={user} />, { path: '/users/u1/settings', namespaces: { users } });
    const table = screen.getByRole('table', { name: 'Authorized apps' });
    const row = within(table).getByRole('row', { name: /Partner portal/ });
    expect(within(row).getByRole('link', { name: 'Partner portal' }).getAttribute('href')).toBe(
      '/applications/app-g1/settings',
    );
    expect(row.textContent).toContain('openid');
    expect(row.textContent).toContain('profile');
    expect(row.textContent).toContain('read:orders (https://api.example.com)');
  });

  it('says so when the user authorized nothing', () => {
    grants = [];
    renderPage(<AuthorizedAppsCard user={user} />, { path: '/users/u1/settings', namespaces: { users } });
    expect(screen.getByText('The user has not authorized any third-party application.')).toBeTruthy();
  });

  it('revokes only after a confirmation, then says so', async () => {
    const clicker = userEvent.setup();
    renderPage(<AuthorizedAppsCard user={user} />, { path: '/users/u1/settings', namespaces: { users } });
    const revoke = screen.getByRole('button', { name: 'Revoke access of Partner portal' });

    await clicker.click(revoke);
    const confirmation = await screen.findByRole('alertdialog', { name: 'Revoke access?' });
    expect(confirmation.textContent).toContain("Partner portal loses access to Ada Lovelace's account");
    await clicker.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    expect(revoked, 'nothing is sent when cancelled').toEqual([]);

    await clicker.click(revoke);
    const again = await screen.findByRole('alertdialog', { name: 'Revoke access?' });
    await clicker.click(within(again).getByRole('button', { name: 'Revoke' }));
    expect(revoked).toEqual(['g1']);
    expect(await screen.findByText('Access of application “Partner portal” revoked.')).toBeTruthy();
  });
});
