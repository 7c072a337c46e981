import type { Log } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { type LogFilter, useConsoleAdminNames, useLogs } from '../../api/logs.ts';
import { Card } from '../Card/Card.tsx';
import { useListParams } from '../Table/use-list-params.ts';
import { AuditLogTable } from './AuditLogTable.tsx';
import type { LogLinks } from './log-references.ts';

export type AuditLogCardProps = {
  /** Whose entries: `{ userId }` for a user's logs tab, `{ applicationId }` for an application's. */
  filter: LogFilter;
  /** The card's title, which also names the table. */
  title: string;
  description?: ReactNode;
  empty: ReactNode;
  rowLink: (log: Log) => string;
  /** The pages of what the entries name (pages/audit-logs/log-links.ts). */
  links: LogLinks;
};

/**
 * A logs tab (spec §2.2 users/{id}/logs, applications/{id}/logs): the audit-log entries of one user or application,
 * newest first, with the page kept in the URL. Who and what each entry names come with the page (`names`), console
 * admins by the names the console knows.
 */
export function AuditLogCard({ filter, title, description, empty, rowLink, links }: AuditLogCardProps) {
  const { page, pageSize, setPage } = useListParams();
  const logs = useLogs(filter, { page, pageSize });
  const admins = useConsoleAdminNames();
  return (
    <Card title={title} description={description}>
      <AuditLogTable
        aria-label={title}
        rows={logs.data?.items}
        admins={admins}
        links={links}
        totalCount={logs.data?.total ?? 0}
        isTotalCapped={logs.data?.isTotalCapped}
        isLoading={logs.isPending}
        error={logs.error}
        onRetry={() => void logs.refetch()}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        rowLink={rowLink}
        empty={empty}
        hideColumns={[
          ...(filter.userId ? ['user' as const] : []),
          ...(filter.applicationId ? ['application' as const] : []),
        ]}
      />
    </Card>
  );
}
