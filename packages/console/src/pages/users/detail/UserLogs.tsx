import { AuditLogCard } from '../../../components/AuditLog/AuditLogCard.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { logLinks } from '../../audit-logs/log-links.ts';
import { toUserLog } from '../links.ts';
import { useUserOutlet } from './user-context.ts';

/** Spec §2.2 users/{id}/logs: what the user did (sign-ins and their other events), newest first (GET /logs?userId=…). */
export function UserLogs() {
  const { t } = useTranslation('users');
  const { user } = useUserOutlet();
  const resolve = useTenantPath();
  return (
    <AuditLogCard
      filter={{ userId: user.id }}
      title={t('logs.title')}
      description={t('logs.description')}
      empty={t('logs.empty')}
      links={logLinks}
      rowLink={(log) => resolve(toUserLog(user.id, log.id))}
    />
  );
}
