import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useLog } from '../../../../api/logs.ts';
import { AuditLogEntry } from '../../../../components/AuditLog/AuditLogEntry.tsx';
import { useTenantPath } from '../../../../components/routing/tenant-path.ts';
import { toApplication } from '../../links.ts';

/** Spec §2.2 'applications/{appId}/logs/{logId}': one audit-log entry, with its whole payload. */
export function LogDetailsPage() {
  const { t } = useTranslation('applications');
  const { id = '', logId = '' } = useParams();
  const resolve = useTenantPath();
  const log = useLog(logId);
  return (
    <AuditLogEntry
      backTo={resolve(toApplication(id, 'logs'))}
      backLabel={t('logs.back')}
      log={log.data}
      isLoading={log.isPending}
      error={log.error}
      onRetry={() => void log.refetch()}
    />
  );
}
