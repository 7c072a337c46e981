import type { Log } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { type LogFilter, useLogs } from '../../api/logs.ts';
import { Card } from '../Card/Card.tsx';
import { useListParams } from '../Table/use-list-params.ts';
import { AuditLogTable } from './AuditLogTable.tsx';

export type AuditLogCardProps = {
  /** Whose entries: `{ userId }` for a user's logs tab, `{ applicationId }` for an application's. */
  filter: LogFilter;
  /** The card's title, which also names the table. */
  title: string;
  description?: ReactNode;
  empty: ReactNode;
  rowLink: (log: Log) => string;
};

/**
 * A logs tab (spec §2.2 users/{id}/logs, applications/{id}/logs): the audit-log entries of one user or application,
 * newest first, with the page kept in the URL.
 */
export function AuditLogCard({ filter, title, description, empty, rowLink }: AuditLogCardProps) {
  const { page, pageSize, setPage } = useListParams();
  const logs = useLogs(filter, { page, pageSize });
  return (
    <Card title={title} description={description}>
      <AuditLogTable
        aria-label={title}
        rows={logs.data?.items}
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
