// @vitest-environment happy-dom
import type { Log } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import auditLogs from '../../i18n/locales/en/audit_logs.json';
import { renderPage } from '../testing/render-page.tsx';
import { AuditLogDetails } from './AuditLogDetails.tsx';
import type { LogLinks } from './log-references.ts';

/** A webhook update by a machine application, written by a path that also left a secret in it. */
const byMachine: Log = {
  id: 'log1',
  key: 'Admin.Hook.Updated',
  createdAt: Date.UTC(2026, 0, 2),
  payload: {
    result: 'Success',
    applicationId: 'app1',
    actor: { type: 'application', id: 'app1' },
    entity: { type: 'Hook', id: 'hook1' },
    ip: '203.0.113.7',
    before: { id: 'hook1', name: 'Old name', signingKey: 'old-s3cr3t' },
    after: { id: 'hook1', name: 'Order events', signingKey: 'new-s3cr3t' },
    changes: [
      { field: 'name', before: 'Old name', after: 'Order events' },
      { field: 'signingKey', before: 'old-s3cr3t', after: 'new-s3cr3t' },
    ],
  },
  names: { actor: 'Back office', application: 'Back office', entity: 'Order events' },
} as Log;

/** The console's pages of the kinds these entries name, as pages/audit-logs/log-links.ts builds them. */
const links: LogLinks = {
  Application: (id) => `applications/${id}/settings`,
  Hook: (id) => `webhooks/${id}/settings`,
};

function renderDetails(log: Log, admins: ReadonlyMap<string, string> = new Map()) {
  renderPage(<AuditLogDetails log={log} admins={admins} links={links} />, {
    path: '/audit-logs/log1',
    namespaces: { audit_logs: auditLogs },
  });
  const facts = screen.getByRole('region', { name: 'Details' });
  const fact = (label: string) => {
    const term = within(facts).getByText(label, { selector: 'dt' });
    return term.nextElementSibling as HTMLElement;
  };
  return { facts, fact };
}

describe('AuditLogDetails', () => {
  it('names the actor, the subject and the application, each linked to its page', () => {
    const { fact } = renderDetails(byMachine);
    expect(within(fact('Actor')).getByRole('link', { name: 'Back office' }).getAttribute('href')).toBe(
      '/applications/app1/settings',
    );
    expect(fact('Subject').textContent).toBe('Order eventsWebhook');
    expect(within(fact('Subject')).getByRole('link', { name: 'Order events' }).getAttribute('href')).toBe(
      '/webhooks/hook1/settings',
    );
    expect(within(fact('Application')).getByRole('link').getAttribute('href')).toBe('/applications/app1/settings');
    expect(fact('IP address').textContent).toBe('203.0.113.7');
  });

  it('names a console admin it knows without a link, and one it does not by id', () => {
    const log = {
      ...byMachine,
      payload: { result: 'Success', userId: 'admin1', actor: { type: 'user', id: 'admin1' } },
      names: undefined,
    } as Log;
    const known = renderDetails(log, new Map([['admin1', 'Olivia Admin']]));
    expect(known.fact('Actor').textContent).toBe('Olivia AdminConsole admin');
    expect(within(known.fact('Actor')).queryByRole('link')).toBeNull();
    expect(screen.queryByText('Subject', { selector: 'dt' }), 'no subject for an entry without one').toBeNull();
  });

  it('shows an unknown console admin by id, and Gatehouse by name', () => {
    const unknown = { ...byMachine, payload: { result: 'Success', actor: { type: 'user', id: 'admin9' } } } as Log;
    const { fact } = renderDetails({ ...unknown, names: undefined });
    expect(fact('Actor').textContent).toBe('admin9Console admin');
  });

  it('calls Gatehouse itself by name', () => {
    const bySystem = { ...byMachine, payload: { result: 'Success', actor: { type: 'system', id: 'cli' } } } as Log;
    const { fact } = renderDetails({ ...bySystem, names: undefined });
    expect(fact('Actor').textContent).toBe('Gatehouse');
  });

  it('names a SCIM provisioning connection as the actor of a directory change, never as a link', () => {
    const actor = { type: 'scim', id: 'conn1', name: 'Contoso Entra ID' };
    const byDirectory = { ...byMachine, payload: { result: 'Success', actor } } as Log;
    const { fact } = renderDetails({ ...byDirectory, names: undefined });
    expect(fact('Actor').textContent).toBe('Contoso Entra IDSCIM provisioning');
    expect(within(fact('Actor')).queryByRole('link')).toBeNull();
  });

  it('shows and hides the same values in the changes table and the payload', async () => {
    const user = userEvent.setup();
    renderDetails(byMachine);
    const table = screen.getByRole('table', { name: 'Changes' });
    expect(within(table).getByRole('row', { name: /^name/ }).textContent).toContain('Order events');
    await user.click(screen.getByRole('button', { name: 'Copy the payload' }));
    const json = await navigator.clipboard.readText();
    expect(json).toContain('"name": "Order events"');
    expect(document.body.textContent).not.toMatch(/s3cr3t/);
    expect(json).not.toMatch(/s3cr3t/);
  });
});
