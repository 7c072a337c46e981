// @vitest-environment happy-dom
import type { RoleListItem } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../components/testing/render-page.tsx';
import roles from '../../i18n/locales/en/roles.json';
import { RolesPage } from './RolesPage.tsx';

// The rows are under test, not the API (roles.test.ts counts against the database).
let items: RoleListItem[] = [];
vi.mock('../../api/roles.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/roles.ts')>()),
  useRoles: () => ({ data: { items, total: items.length }, isPending: false, error: null, refetch: () => {} }),
}));

function role(name: string, fields: Partial<RoleListItem>): RoleListItem {
  return {
    tenantId: 'default',
    id: name,
    name,
    description: `${name} description`,
    type: 'User',
    isDefault: false,
    createdAt: 0,
    usersCount: 0,
    featuredUsers: [],
    applicationsCount: 0,
    featuredApplications: [],
    scopesCount: 0,
    ...fields,
  };
}

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('RolesPage', () => {
  it('shows who holds each role and how many permissions it grants', () => {
    items = [
      role('Editors', { usersCount: 1234, scopesCount: 2 }),
      role('Robots', { type: 'MachineToMachine', applicationsCount: 1, scopesCount: 0 }),
    ];
    renderPage(<RolesPage />, { path: '/roles', namespaces: { roles } });
    const table = screen.getByRole('table', { name: 'Roles' });
    const [, editors, robots] = within(table).getAllByRole('row') as HTMLElement[];
    expect(cells(editors as HTMLElement)).toEqual(['Editors', 'User', 'Users: 1,234', '2', 'Editors description']);
    expect(cells(robots as HTMLElement)).toEqual([
      'Robots',
      'Machine-to-machine',
      'Apps: 1',
      '0',
      'Robots description',
    ]);
  });

  it('keeps its columns when a search finds nothing', () => {
    items = [];
    renderPage(<RolesPage />, { path: '/roles?search=zz', route: '/roles', namespaces: { roles } });
    const headers = within(screen.getByRole('table', { name: 'Roles' })).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'Role name',
      'Role type',
      'Assigned to',
      'Permissions',
      'Description',
    ]);
    expect(headers.map((header) => header.style.width)).toEqual(['', '11rem', '9rem', '8rem', '']);
    expect(screen.getByTestId('no-results').textContent).toContain('zz');
  });
});
