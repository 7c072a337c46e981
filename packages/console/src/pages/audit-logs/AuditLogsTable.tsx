import { AuditLogTable, type AuditLogTableProps } from '../../components/AuditLog/AuditLogTable.tsx';
import { logLinks } from './log-links.ts';

export type AuditLogsTableProps = Omit<AuditLogTableProps, 'columns' | 'links' | 'hideColumns'>;

/**
 * The tenant's audit log, newest first: what happened, who did it, to what, in which application, whether it worked
 * and when, each named thing linked to its page where there is one.
 */
export function AuditLogsTable(props: AuditLogsTableProps) {
  return (
    <AuditLogTable
      {...props}
      columns={['event', 'actor', 'subject', 'application', 'result', 'time']}
      links={logLinks}
    />
  );
}
