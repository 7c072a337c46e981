import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { LogEntryPage } from './LogEntryPage.tsx';
import { toAuditLogs } from './links.ts';
import { lastListSearch } from './list-search.ts';

/**
 * Spec §2.2 audit-logs/{logId}: one entry with all its fields, who did it and to what by name, and, for an admin
 * write, what it changed. Back returns to the list with the filters and page it was opened from.
 */
export function AuditLogPage() {
  const { t } = useTranslation('audit_logs');
  const resolve = useTenantPath();
  return <LogEntryPage backTo={resolve(toAuditLogs(lastListSearch()))} backLabel={t('back')} title={t('title')} />;
}
