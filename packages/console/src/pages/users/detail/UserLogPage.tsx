import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useLog } from '../../../api/logs.ts';
import { AuditLogEntry } from '../../../components/AuditLog/AuditLogEntry.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { toUser } from '../links.ts';

/** Spec §2.2 users/{userId}/logs/{logId}: one entry of the user's logs. */
export function UserLogPage() {
  const { t } = useTranslation('users');
  const { userId = '', logId = '' } = useParams();
  const resolve = useTenantPath();
  const log = useLog(logId);
  return (
    <AuditLogEntry
      backTo={resolve(toUser(userId, 'logs'))}
      backLabel={t('logs.back')}
      log={log.data}
      isLoading={log.isPending}
      error={log.error}
      onRetry={() => void log.refetch()}
    />
  );
}
