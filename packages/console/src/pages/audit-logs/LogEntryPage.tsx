import { useParams } from 'react-router';
import { useConsoleAdminNames, useLog } from '../../api/logs.ts';
import { AuditLogEntry, type AuditLogEntryProps } from '../../components/AuditLog/AuditLogEntry.tsx';
import { logLinks } from './log-links.ts';

/**
 * The entry of the route's `logId` as a page, wherever it opens (audit-logs/{logId}, users/{userId}/logs/{logId},
 * applications/{id}/logs/{logId}): named and linked as the audit-logs page names it, with Back to where it was opened.
 */
export function LogEntryPage({ backTo, backLabel, title }: Pick<AuditLogEntryProps, 'backTo' | 'backLabel' | 'title'>) {
  const { logId = '' } = useParams();
  const log = useLog(logId);
  const admins = useConsoleAdminNames();
  return (
    <AuditLogEntry
      backTo={backTo}
      backLabel={backLabel}
      title={title}
      log={log.data}
      isLoading={log.isPending}
      error={log.error}
      onRetry={() => void log.refetch()}
      admins={admins}
      links={logLinks}
    />
  );
}
