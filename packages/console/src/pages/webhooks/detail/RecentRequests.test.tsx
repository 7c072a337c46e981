// @vitest-environment happy-dom
import type { Hook, HookLog } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../components/testing/render-page.tsx';
import webhooks from '../../../i18n/locales/en/webhooks.json';
import { RecentRequests } from './RecentRequests.tsx';

// The rows are under test, not the API (hooks-delivery.test.ts records the attempts against a real receiver).
let logs: HookLog[] = [];
vi.mock('../../../api/webhooks.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/webhooks.ts')>()),
  useHookLogs: () => ({
    data: { items: logs, total: logs.length },
    isPending: false,
    isFetching: false,
    error: null,
    refetch: () => {},
  }),
}));
const hook = { id: 'h1', name: 'Orders', events: ['User.Created'] } as Hook;
vi.mock('./hook-context.ts', () => ({ useHookOutlet: () => ({ hook }) }));

function attempt(attempt: number, fields: Partial<HookLog>): HookLog {
  return {
    id: `log${attempt}`,
    hookId: 'h1',
    deliveryId: 'd1',
    event: 'User.Created',
    attempt,
    maxAttempts: 3,
    request: { url: 'https://example.com/hook', headers: {}, body: '{}' },
    responseStatus: null,
    responseBody: null,
    durationMs: 0,
    error: null,
    errorKind: null,
    replayOf: null,
    success: false,
    createdAt: Date.UTC(2026, 0, 2, 10, attempt),
    key: 'TriggerHook.User.Created',
    payload: { key: 'TriggerHook.User.Created', result: 'Error', hookId: 'h1', hookRequest: { body: {} } },
    ...fields,
  };
}

describe('RecentRequests', () => {
  it('tells the retries of one delivery apart: the attempt number and what each attempt got', () => {
    logs = [
      attempt(3, { success: true, responseStatus: 200, durationMs: 42 }),
      attempt(2, { responseStatus: 503, durationMs: 120, error: 'The endpoint answered 503.' }),
      attempt(1, { durationMs: 10000, error: 'No answer within 10000 ms.', errorKind: 'timeout' }),
    ];
    renderPage(<RecentRequests />, { path: '/webhooks/h1/recent-requests', namespaces: { webhooks } });
    const table = screen.getByRole('table', { name: 'Recent requests' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Event', 'Attempt', 'Status', 'Duration', 'Time']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1, 4)
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['3 of 3', 'Succeeded · 200', '42 ms'],
      ['2 of 3', 'Failed · 503', '120 ms'],
      ['1 of 3', 'Failed · Timed out', '10000 ms'],
    ]);
  });

  it('shows the bare number for attempts logged before the count was kept', () => {
    logs = [attempt(1, { maxAttempts: null, errorKind: 'refused' })];
    renderPage(<RecentRequests />, { path: '/webhooks/h1/recent-requests', namespaces: { webhooks } });
    const [, row] = within(screen.getByRole('table', { name: 'Recent requests' })).getAllByRole('row');
    expect(row?.textContent).toContain('Failed · Connection refused');
    expect(within(row as HTMLElement).getAllByRole('cell')[1]?.textContent).toBe('1');
  });
});
