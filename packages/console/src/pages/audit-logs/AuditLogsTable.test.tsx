// @vitest-environment happy-dom
import type { Log } from '@gatehouse/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../components/testing/render-page.tsx';
import auditLogs from '../../i18n/locales/en/audit_logs.json';
import { AuditLogsTable } from './AuditLogsTable.tsx';

/** Entries as GET /logs answers them: ids in the payload as recorded, `names` for what the tenant holds now. */
const logs = [
  {
    // The reported entry: a console admin (a user of the admin tenant) rotated keys.
    id: 'l1',
    key: 'Admin.OidcPrivateKeys.Rotated',
    createdAt: 0,
    payload: {
      result: 'Success',
      userId: 'k67y2tvcyps1',
      actor: { type: 'user', id: 'k67y2tvcyps1' },
      entity: { type: 'OidcPrivateKeys', id: 'private-keys' },
    },
  },
  {
    // A machine application created a role.
    id: 'l2',
    key: 'Admin.Role.Created',
    createdAt: 0,
    payload: {
      result: 'Success',
      applicationId: 'app1',
      actor: { type: 'application', id: 'app1' },
      entity: { type: 'Role', id: 'role1' },
    },
    names: { actor: 'Back office', application: 'Back office', entity: 'Support agents' },
  },
  {
    // A user of the tenant signed in to an application.
    id: 'l3',
    key: 'Interaction.SignIn.Submit',
    createdAt: 0,
    payload: { result: 'Success', userId: 'u1', applicationId: 'app2' },
    names: { user: 'Ada Lovelace', application: 'Storefront' },
  },
  {
    // Gatehouse itself registered a user, since deleted: the name it was recorded with, no link.
    id: 'l4',
    key: 'Admin.User.Created',
    createdAt: 0,
    payload: {
      result: 'Success',
      actor: { type: 'system', id: 'registration' },
      entity: { type: 'User', id: 'gone1' },
      after: { id: 'gone1', username: 'grace', name: null },
    },
  },
  {
    // An admin the console does not know, about a user the tenant no longer holds and nothing recorded names.
    id: 'l5',
    key: 'Admin.User.Roles.Updated',
    createdAt: 0,
    payload: {
      result: 'Success',
      actor: { type: 'user', id: 'stranger1' },
      entity: { type: 'User', id: 'gone2' },
      after: { roleIds: ['r1'] },
    },
  },
  {
    // A sign-in of a user deleted since: the id, as nothing better is known.
    id: 'l6',
    key: 'Interaction.SignIn.Submit',
    createdAt: 0,
    payload: { result: 'Error', userId: 'gone3' },
  },
  {
    // A console admin the console does not know, named by the token they made the change with.
    id: 'l7',
    key: 'Admin.User.Roles.Updated',
    createdAt: 0,
    payload: {
      result: 'Success',
      actor: { type: 'user', id: 'remote7', name: 'Marie Curie' },
      entity: { type: 'User', id: 'gone2' },
    },
  },
] as Log[];

function renderTable() {
  renderPage(
    <AuditLogsTable
      aria-label="Audit logs"
      rows={logs}
      admins={new Map([['k67y2tvcyps1', 'Olivia Admin']])}
      totalCount={logs.length}
      isLoading={false}
      page={1}
      pageSize={20}
      onPageChange={() => {}}
      rowLink={(log) => `/audit-logs/${log.id}`}
      empty="No entries."
    />,
    { path: '/audit-logs', namespaces: { audit_logs: auditLogs } },
  );
  return within(screen.getByRole('table', { name: 'Audit logs' }));
}

/** The actor, subject and application cells of each row, as read. */
function cells(table: ReturnType<typeof renderTable>) {
  return table
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(1, 4)
        .map((cell) => cell.textContent),
    );
}

const hrefOf = (table: ReturnType<typeof renderTable>, name: string) =>
  table
    .getAllByRole('link', { name })
    .map((link) => link.getAttribute('href'))
    .filter((href, index, all) => all.indexOf(href) === index);

describe('AuditLogsTable', () => {
  it('names who did it, to what and in which application, with a raw id only when nothing better is known', () => {
    const table = renderTable();
    expect(table.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Event',
      'Actor',
      'Subject',
      'Application',
      'Result',
      'Time',
    ]);
    expect(cells(table)).toEqual([
      ['Olivia AdminConsole admin', 'private-keysOidcPrivateKeys', '(none)'],
      ['Back office', 'Support agentsRole', 'Back office'],
      ['Ada Lovelace', '(none)', 'Storefront'],
      ['Gatehouse', 'graceUser', '(none)'],
      ['stranger1Console admin', 'gone2User', '(none)'],
      ['gone3', '(none)', '(none)'],
      ['Marie CurieConsole admin', 'gone2User', '(none)'],
    ]);
    expect(document.body.textContent).not.toContain('k67y2tvcyps1');
  });

  it('links what the tenant holds to its page, and never a console admin or something deleted', () => {
    const table = renderTable();
    expect(hrefOf(table, 'Back office')).toEqual(['/applications/app1/settings']);
    expect(hrefOf(table, 'Support agents')).toEqual(['/roles/role1/permissions']);
    expect(hrefOf(table, 'Ada Lovelace')).toEqual(['/users/u1/settings']);
    expect(hrefOf(table, 'Storefront')).toEqual(['/applications/app2/settings']);
    for (const name of ['Olivia Admin', 'grace', 'stranger1', 'gone2', 'gone3', 'Gatehouse']) {
      expect(table.queryByRole('link', { name }), name).toBeNull();
    }
    // Each row still opens its entry from its first cell.
    expect(table.getByRole('link', { name: 'Admin.Role.Created' }).getAttribute('href')).toBe('/audit-logs/l2');
  });
});
