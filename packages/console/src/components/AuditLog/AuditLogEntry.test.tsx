// @vitest-environment happy-dom
import type { Log } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import auditLogs from '../../i18n/locales/en/audit_logs.json';
import { renderPage } from '../testing/render-page.tsx';
import { AuditLogEntry } from './AuditLogEntry.tsx';

/** A key rotation (the reported entry) written by a path that also left a client secret and a header in it. */
const log: Log = {
  id: 'log1',
  key: 'Admin.OidcPrivateKeys.Rotated',
  createdAt: Date.UTC(2026, 0, 2),
  payload: {
    result: 'Success',
    actor: { type: 'user', id: 'admin1' },
    before: { keys: [{ id: 'k1', status: 'Current', signingKeyAlgorithm: 'RSA' }] },
    after: {
      keys: [
        { id: 'k2', status: 'Current', signingKeyAlgorithm: 'EC' },
        { id: 'k1', status: 'Previous', signingKeyAlgorithm: 'RSA' },
      ],
    },
    changes: [
      {
        field: 'keys',
        before: [{ id: 'k1', status: 'Current', signingKeyAlgorithm: 'RSA' }],
        after: [
          { id: 'k2', status: 'Current', signingKeyAlgorithm: 'EC' },
          { id: 'k1', status: 'Previous', signingKeyAlgorithm: 'RSA' },
        ],
      },
      { field: 'clientSecret', before: 'old-s3cr3t', after: 'new-s3cr3t' },
      { field: 'config', before: null, after: { headers: { Authorization: 'Bearer t0k3n' } } },
    ],
  },
} as Log;

describe('AuditLogEntry', () => {
  it('shows and hides the same values in the changes table and the payload', async () => {
    const user = userEvent.setup();
    renderPage(
      <AuditLogEntry backTo="/audit-logs" backLabel="Back" log={log} isLoading={false} admins={new Map()} links={{}} />,
      { path: '/audit-logs/log1', namespaces: { audit_logs: auditLogs } },
    );
    const table = screen.getByRole('table', { name: 'Changes' });
    const keys = within(table).getByRole('row', { name: /^keys/ });
    expect(keys.textContent).toContain('"signingKeyAlgorithm":"RSA"');
    // The payload as copied: the same algorithm shown, the same secrets hidden.
    await user.click(screen.getByRole('button', { name: 'Copy the payload' }));
    const json = await navigator.clipboard.readText();
    expect(json).toContain('"signingKeyAlgorithm": "RSA"');
    expect(json).toContain('"Authorization": "[hidden]"');
    expect(within(table).getByRole('row', { name: /^config/ }).textContent).toContain('"Authorization":"[hidden]"');
    expect(document.body.textContent).not.toMatch(/s3cr3t|t0k3n/);
    expect(json).not.toMatch(/s3cr3t|t0k3n/);
  });
});
