// @vitest-environment happy-dom
import type { User } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../components/testing/render-page.tsx';
import users from '../../../i18n/locales/en/users.json';
import { UsersPage } from './UsersPage.tsx';

// The rows are under test, not the API.
let items: User[] = [];
vi.mock('../../../api/users.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/users.ts')>()),
  useUsers: () => ({ data: { items, total: items.length }, isPending: false, error: null, refetch: () => {} }),
}));

const person = (fields: Partial<User>) =>
  ({
    id: 'u1',
    name: null,
    username: null,
    primaryEmail: null,
    primaryPhone: null,
    avatar: null,
    isSuspended: false,
    lastSignInAt: null,
    createdAt: Date.UTC(2026, 0, 2, 10),
    ...fields,
  }) as User;

describe('UsersPage', () => {
  it('shows the email in its column, not again under the name, even when the email is the name (issue 40, 9)', () => {
    items = [
      person({ id: 'u1', name: 'Ada', username: 'ada', primaryEmail: 'ada@example.com', primaryPhone: '+15550100' }),
      person({ id: 'u2', primaryEmail: 'grace@example.com' }),
    ];
    renderPage(<UsersPage />, { path: '/users', namespaces: { users } });
    const [, ada, grace] = within(screen.getByRole('table', { name: 'User management' })).getAllByRole('row');
    const count = (row: HTMLElement | undefined, text: string) => row?.textContent?.split(text).length ?? 0;
    expect(count(ada, 'ada@example.com') - 1).toBe(1);
    expect(ada?.textContent).toContain('ada');
    expect(ada?.textContent).toContain('+15550100');
    // The email names the user; the "Email and phone" column still shows it (it was empty, read as "no email").
    const [, graceContact] = within(grace as HTMLElement).getAllByRole('cell');
    expect(graceContact?.textContent).toBe('grace@example.com');
    expect(within(grace as HTMLElement).queryByText('None')).toBeNull();
  });
});
