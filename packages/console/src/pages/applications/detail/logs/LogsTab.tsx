import { AuditLogCard } from '../../../../components/AuditLog/AuditLogCard.tsx';
import { useTenantPath } from '../../../../components/routing/tenant-path.ts';
import { useTranslation } from '../../../../i18n/react.tsx';
import { logLinks } from '../../../audit-logs/log-links.ts';
import { toApplicationLog } from '../../links.ts';
import { useApplicationOutlet } from '../ApplicationDetailPage.tsx';

/** Spec §2.2 logs tab: audit-log entries made through this application (GET /logs?applicationId=…), newest first. */
export function LogsTab() {
  const { t } = useTranslation('applications');
  const { application } = useApplicationOutlet();
  const resolve = useTenantPath();
  return (
    <AuditLogCard
      filter={{ applicationId: application.id }}
      title={t('logs.title')}
      description={t('logs.description')}
      empty={t('logs.empty')}
      links={logLinks}
      rowLink={(log) => resolve(toApplicationLog(application.id, log.id))}
    />
  );
}
