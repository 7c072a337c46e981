import type { Log } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { ApiError } from '../../api/client.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { BackLink } from '../BackLink/BackLink.tsx';
import { Button } from '../Button/Button.tsx';
import { Spinner } from '../Spinner/Spinner.tsx';
import { useDocumentTitle } from '../use-document-title.ts';
import styles from './AuditLog.module.css';
import { AuditLogDetails } from './AuditLogDetails.tsx';
import type { AdminNames, LogLinks } from './log-references.ts';

export type AuditLogEntryProps = {
  /** The list the entry was opened from, and its name ('Back to the user's logs', 'Back to audit logs'). */
  backTo: string;
  backLabel: string;
  /** The document's title until the entry has loaded (by default the back link's label). */
  title?: string | undefined;
  log: Log | undefined;
  isLoading: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Console admins the console can name (the log itself cannot: they are users of the admin tenant). */
  admins: AdminNames;
  /** The pages of what the entry names (pages/audit-logs/log-links.ts). */
  links: LogLinks;
};

/**
 * One audit-log entry as a page (the tenant's audit log and every logs tab): who did what to what, by name and
 * linked, its facts, what an admin write changed (before and after), and the payload.
 */
export function AuditLogEntry(props: AuditLogEntryProps) {
  const { backTo, backLabel, title, log, isLoading, error, onRetry, admins, links } = props;
  const { t } = useTranslation(['components_extra', 'components']);
  useDocumentTitle(log?.key ?? title ?? backLabel);
  const back = <BackLink to={backTo}>{backLabel}</BackLink>;
  let content: ReactNode;
  if (isLoading) {
    content = (
      <p role="status" className={styles.state}>
        <Spinner /> {t('components:loading')}
      </p>
    );
  } else if (error || !log) {
    const isMissing = error instanceof ApiError && error.status === 404;
    content = (
      <>
        <p role="alert" className={styles.state}>
          {isMissing ? t('audit_log.not_found') : t('audit_log.load_failed')}
        </p>
        {!isMissing && onRetry && <Button onClick={onRetry}>{t('components:table.retry')}</Button>}
      </>
    );
  } else {
    content = <AuditLogDetails log={log} admins={admins} links={links} />;
  }
  return (
    <div className={styles.page}>
      {back}
      {content}
    </div>
  );
}
