// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../components/testing/render-page.tsx';
import auditLogs from '../../i18n/locales/en/audit_logs.json';
import { AuditLogsPage } from './AuditLogsPage.tsx';

vi.mock('../../api/logs.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/logs.ts')>()),
  useLogs: () => ({ data: { items: [], total: 0 }, isPending: false, error: null, refetch: () => {} }),
}));

// The filter bar's pickers load their options from the API: an empty page each, instead of a request to nowhere.
vi.stubGlobal(
  'fetch',
  async () => new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json', 'Total-Number': '0' } }),
);

describe('AuditLogsPage', () => {
  it('keeps the two ends of the time range together in the filter bar, and the columns with no entry', () => {
    renderPage(<AuditLogsPage />, {
      path: '/audit-logs?result=error',
      route: '/audit-logs',
      namespaces: { audit_logs: auditLogs },
    });
    const range = screen.getByRole('group', { name: 'Time range' });
    expect(within(range).getByLabelText('From')).toBeTruthy();
    expect(within(range).getByLabelText('To')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Audit logs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Event', 'User', 'Application', 'Result', 'Time']);
  });
});
