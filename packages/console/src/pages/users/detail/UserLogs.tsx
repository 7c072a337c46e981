import { useTranslation } from 'react-i18next';
import { useLogs } from '../../../api/logs.ts';
import { AuditLogTable } from '../../../components/AuditLog/AuditLogTable.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { toUserLog } from '../links.ts';
import { useUserOutlet } from './user-context.ts';

/** Spec §2.2 users/{id}/logs: what the user did (sign-ins and their other events), newest first (GET /logs?userId=…). */
export function UserLogs() {
  const { t } = useTranslation('users');
  const { user } = useUserOutlet();
  const resolve = useTenantPath();
  const { page, pageSize, setPage } = useListParams();
  const logs = useLogs({ userId: user.id }, { page, pageSize });
  return (
    <Card title={t('logs.title')} description={t('logs.description')}>
      <AuditLogTable
        aria-label={t('logs.title')}
        rows={logs.data?.items}
        totalCount={logs.data?.total ?? 0}
        isTotalCapped={logs.data?.isTotalCapped}
        isLoading={logs.isPending}
        error={logs.error}
        onRetry={() => void logs.refetch()}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        rowLink={(log) => resolve(toUserLog(user.id, log.id))}
        empty={t('logs.empty')}
      />
    </Card>
  );
}
