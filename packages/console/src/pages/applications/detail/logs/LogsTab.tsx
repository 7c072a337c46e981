import { useTranslation } from 'react-i18next';
import { useLogs } from '../../../../api/logs.ts';
import { AuditLogTable } from '../../../../components/AuditLog/AuditLogTable.tsx';
import { Card } from '../../../../components/Card/Card.tsx';
import { useTenantPath } from '../../../../components/routing/tenant-path.ts';
import { useListParams } from '../../../../components/Table/use-list-params.ts';
import { toApplicationLog } from '../../links.ts';
import { useApplicationOutlet } from '../ApplicationDetailPage.tsx';

/** Spec §2.2 logs tab: audit-log entries made through this application (GET /logs?applicationId=…), newest first. */
export function LogsTab() {
  const { t } = useTranslation('applications');
  const { application } = useApplicationOutlet();
  const resolve = useTenantPath();
  const { page, pageSize, setPage } = useListParams();
  const logs = useLogs({ applicationId: application.id }, { page, pageSize });
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
        rowLink={(log) => resolve(toApplicationLog(application.id, log.id))}
        empty={t('logs.empty')}
      />
    </Card>
  );
}
