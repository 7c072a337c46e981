// @vitest-environment happy-dom
import type { Log } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../testing/render-page.tsx';
import { AuditLogTable, type AuditLogTableProps } from './AuditLogTable.tsx';

// Names come from the users and applications APIs; here, one of each exists and the rest were deleted.
vi.mock('../../api/logs.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/logs.ts')>()),
  useLogUser: (id: string | undefined) => ({ data: id === 'u1' ? { name: 'Ada Lovelace' } : undefined }),
  useLogApplication: (id: string | undefined) => ({ data: id === 'app1' ? { name: 'Back office' } : undefined }),
}));

const logs = [
  {
    id: 'l1',
    key: 'Admin.Role.Created',
    createdAt: 0,
    payload: { result: 'Success', actor: { type: 'user', id: 'u1' } },
  },
  {
    id: 'l2',
    key: 'ExchangeTokenBy.ClientCredentials',
    createdAt: 0,
    payload: { result: 'Error', applicationId: 'app1' },
  },
  { id: 'l3', key: 'Interaction.SignIn.Submit', createdAt: 0, payload: { result: 'Success', userId: 'gone42' } },
] as Log[];

function renderTable(props: Partial<AuditLogTableProps> = {}) {
  renderPage(
    <AuditLogTable
      aria-label="Audit logs"
      rows={logs}
      totalCount={3}
      isLoading={false}
      page={1}
      pageSize={20}
      onPageChange={() => {}}
      rowLink={(log) => `/audit-logs/${log.id}`}
      empty="No entries."
      {...props}
    />,
    { path: '/audit-logs' },
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
