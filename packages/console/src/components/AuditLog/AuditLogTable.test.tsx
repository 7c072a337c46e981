// @vitest-environment happy-dom
import type { Log } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import auditLogs from '../../i18n/locales/en/audit_logs.json';
import { renderPage } from '../testing/render-page.tsx';
import { AuditLogTable, type AuditLogTableProps } from './AuditLogTable.tsx';
import type { LogLinks } from './log-references.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

// Names come with the page (GET /logs?includeNames=true): one user and one application exist, the rest were deleted.
const logs = [
  {
    id: 'l1',
    key: 'Admin.Role.Created',
    createdAt: 0,
    payload: { result: 'Success', actor: { type: 'user', id: 'u1' } },
    names: { actor: 'Ada Lovelace' },
  },
  {
    id: 'l2',
    key: 'ExchangeTokenBy.ClientCredentials',
    createdAt: 0,
    payload: { result: 'Error', applicationId: 'app1' },
    names: { application: 'Back office' },
  },
  { id: 'l3', key: 'Interaction.SignIn.Submit', createdAt: 0, payload: { result: 'Success', userId: 'gone42' } },
] as Log[];

/** The console's pages of users and applications, as pages/audit-logs/log-links.ts builds them. */
const links: LogLinks = {
  User: (id) => `users/${id}/settings`,
  Application: (id) => `applications/${id}/settings`,
};

function renderTable(props: Partial<AuditLogTableProps> = {}) {
  renderPage(
    <AuditLogTable
      aria-label="Audit logs"
      rows={logs}
      admins={new Map()}
      links={links}
      totalCount={3}
      isLoading={false}
      page={1}
      pageSize={20}
      onPageChange={() => {}}
      rowLink={(log) => `/audit-logs/${log.id}`}
      empty="No entries."
      {...props}
    />,
    { path: '/audit-logs', namespaces: { audit_logs: auditLogs } },
  );
  return within(screen.getByRole('table', { name: 'Audit logs' }));
}

describe('AuditLogTable', () => {
  it('names who made each entry: the user and the application, by name, or by id once deleted', () => {
    const table = renderTable();
    expect(table.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Event',
      'User',
      'Application',
      'Result',
      'Time',
    ]);
    const rows = table
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Admin.Role.Created', 'Ada Lovelace', '(none)'],
      ['ExchangeTokenBy.ClientCredentials', '(none)', 'Back office'],
      ['Interaction.SignIn.Submit', 'gone42', '(none)'],
    ]);
  });

  it('reads the names from the page, linking each, and names a console admin it knows without a request', () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const byAdmin = {
      id: 'l4',
      key: 'Admin.User.Suspended',
      createdAt: 0,
      payload: { result: 'Success', actor: { type: 'user', id: 'admin1' }, applicationId: 'app1' },
      names: { application: 'Back office' },
    } as Log;
    const table = renderTable({ rows: [...logs, byAdmin], admins: new Map([['admin1', 'Olivia Admin']]) });
    const row = table.getByRole('row', { name: /Admin\.User\.Suspended/ });
    expect(within(row).getByText('Olivia Admin')).toBeTruthy();
    expect(within(row).getByText('Console admin')).toBeTruthy();
    expect(within(row).queryByRole('link', { name: 'Olivia Admin' }), 'a console admin has no page here').toBeNull();
    expect(table.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe('/users/u1/settings');
    expect(table.getAllByRole('link', { name: 'Back office' })[0]?.getAttribute('href')).toBe(
      '/applications/app1/settings',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('leaves out a column that would repeat one value on every row, and keeps its columns when empty', () => {
    const table = renderTable({ rows: [], totalCount: 0, hideColumns: ['user'] });
    expect(table.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Event',
      'Application',
      'Result',
      'Time',
    ]);
    expect(table.getByText('No entries.')).toBeTruthy();
  });
});
