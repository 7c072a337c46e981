import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useLog } from '../../api/logs.ts';
import { AuditLogEntry } from '../../components/AuditLog/AuditLogEntry.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { toAuditLogs } from './links.ts';
import { lastListSearch } from './list-search.ts';

/** Spec §2.2 audit-logs/{logId}: one entry with all its fields and, for an admin write, what it changed. */
export function AuditLogPage() {
  const { t } = useTranslation('audit_logs');
  const { logId = '' } = useParams();
  const resolve = useTenantPath();
  const log = useLog(logId);
  return (
    <AuditLogEntry
      backTo={resolve(toAuditLogs(lastListSearch()))}
      backLabel={t('back')}
      log={log.data}
      isLoading={log.isPending}
      error={log.error}
      onRetry={() => void log.refetch()}
    />
  );
}
