import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useConsoleAdminNames, useLog } from '../../api/logs.ts';
import entryStyles from '../../components/AuditLog/AuditLog.module.css';
import { BackLink } from '../../components/BackLink/BackLink.tsx';
import { Button } from '../../components/Button/Button.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Spinner } from '../../components/Spinner/Spinner.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { AuditLogDetails } from './AuditLogDetails.tsx';
import { toAuditLogs } from './links.ts';
import { lastListSearch } from './list-search.ts';

/**
 * Spec §2.2 audit-logs/{logId}: one entry with all its fields, who did it and to what by name, and, for an admin
 * write, what it changed. Back returns to the list with the filters and page it was opened from.
 */
export function AuditLogPage() {
  const { t } = useTranslation(['audit_logs', 'components_extra', 'components']);
  const { logId = '' } = useParams();
  const resolve = useTenantPath();
  const log = useLog(logId);
  const admins = useConsoleAdminNames();
  useDocumentTitle(log.data?.key ?? t('audit_logs:title'));
  let content: ReactNode;
  if (log.isPending) {
    content = (
      <p role="status" className={entryStyles.state}>
        <Spinner /> {t('components:loading')}
      </p>
    );
  } else if (log.error || !log.data) {
    const isMissing = log.error instanceof ApiError && log.error.status === 404;
    content = (
      <>
        <p role="alert" className={entryStyles.state}>
          {isMissing ? t('components_extra:audit_log.not_found') : t('components_extra:audit_log.load_failed')}
        </p>
        {!isMissing && <Button onClick={() => void log.refetch()}>{t('components:table.retry')}</Button>}
      </>
    );
  } else {
    content = <AuditLogDetails log={log.data} admins={admins} />;
  }
  return (
    <div className={entryStyles.page}>
      <BackLink to={resolve(toAuditLogs(lastListSearch()))}>{t('audit_logs:back')}</BackLink>
      {content}
    </div>
  );
}
