// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogFilter } from '../../api/logs.ts';
import { renderPage } from '../../components/testing/render-page.tsx';
import auditLogs from '../../i18n/locales/en/audit_logs.json';
import { AuditLogsPage } from './AuditLogsPage.tsx';

/** What the page asked GET /logs for, last. */
const asked = vi.hoisted(() => ({ filter: undefined as unknown, page: 0 }));

vi.mock('../../api/logs.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/logs.ts')>()),
  useLogs: (filter: LogFilter, { page }: { page: number }) => {
    asked.filter = filter;
    asked.page = page;
    return { data: { items: [], total: 0 }, isPending: false, error: null, refetch: () => {} };
  },
  useConsoleAdminNames: () => new Map([['admin1', 'Olivia Admin']]),
}));

// The filter bar's pickers load their options from the API: an empty page each, instead of a request to nowhere.
vi.stubGlobal(
  'fetch',
  async () => new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json', 'Total-Number': '0' } }),
);

beforeEach(() => {
  asked.filter = undefined;
  asked.page = 0;
});

function renderList(path: string) {
  return renderPage(<AuditLogsPage />, { path, route: '/audit-logs', namespaces: { audit_logs: auditLogs } });
}

describe('AuditLogsPage', () => {
  it('keeps the two ends of the time range together in the filter bar, and the columns with no entry', () => {
    renderList('/audit-logs?result=error');
    const range = screen.getByRole('group', { name: 'Time range' });
    expect(within(range).getByLabelText('From')).toBeTruthy();
    expect(within(range).getByLabelText('To')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Audit logs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Event', 'Actor', 'Subject', 'Application', 'Result', 'Time']);
  });

  it('reads the event key, user, application and page from the URL, and shows a console admin by name', () => {
    renderList('/audit-logs?logKey=Admin.Role.Updated&userId=admin1&applicationId=app1&page=3');
    expect(asked.filter).toMatchObject({ logKey: 'Admin.Role.Updated', userId: 'admin1', applicationId: 'app1' });
    expect(asked.page).toBe(3);
    expect(screen.getByRole('combobox', { name: 'Log key' })).toHaveProperty('value', 'Admin.Role.Updated');
    expect(screen.getByRole('combobox', { name: 'User' })).toHaveProperty('value', 'Olivia Admin');
  });

  it('writes a filter into the URL and goes back to the first page', async () => {
    const user = userEvent.setup();
    const { router } = renderList('/audit-logs?userId=admin1&page=3');
    await user.click(screen.getByRole('button', { name: 'Clear User' }));
    expect(router.state.location.search).toBe('');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Result' }), 'error');
    expect(router.state.location.search).toBe('?result=error');
    expect(asked.filter).toMatchObject({ result: 'Error' });
  });
});
