import type { Log } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { Table, type TableColumn } from '../Table/Table.tsx';
import styles from './AuditLog.module.css';
import { LogReferenceView } from './LogReferenceView.tsx';
import { LogResultTag } from './LogResultTag.tsx';
import { type AdminNames, type LogLinks, logActor, logApplication, logSubject, logUser } from './log-references.ts';

/** What a column shows: the event, who did it (`actor`) or whose entry it is (`user`), to what, where, how, when. */
export type AuditLogColumn = 'event' | 'actor' | 'user' | 'subject' | 'application' | 'result' | 'time';

/** A logs tab's columns: the entries of one user or application, by the user and the application they name. */
const tabColumns: readonly AuditLogColumn[] = ['event', 'user', 'application', 'result', 'time'];

export type AuditLogTableProps = {
  'aria-label': string;
  rows: readonly Log[] | undefined;
  /** Console admins the console can name (the log itself cannot: they are users of the admin tenant). */
  admins: AdminNames;
  /** The pages of what the entries name (pages/audit-logs/log-links.ts). */
  links: LogLinks;
  /** Which columns, in order: a logs tab's by default; the tenant's audit log shows the actor and subject instead. */
  columns?: readonly AuditLogColumn[];
  totalCount: number;
  /** The server stopped counting (a very long log): the total is a lower bound. */
  isTotalCapped?: boolean | undefined;
  isLoading: boolean;
  error?: unknown;
  onRetry?: () => void;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Where an entry opens (spec §2.2: '{appId}/logs/{logId}', '{userId}/logs/{logId}', 'audit-logs/{logId}'). */
  rowLink: (log: Log) => string;
  empty: ReactNode;
  /** Columns that would repeat one value on every row: the user on a user's logs tab, the application on an app's. */
  hideColumns?: readonly AuditLogColumn[];
};

/**
 * Audit-log entries newest first: what happened, who did it, to what, in which application, whether it worked and
 * when. Names come with the page (the server reads them in one go, `includeNames`), never one request per row; each
 * links to its page where there is one. The audit-logs page and every logs tab use this one table.
 */
export function AuditLogTable({
  rows,
  admins,
  links,
  columns: shown = tabColumns,
  totalCount,
  isTotalCapped,
  page,
  pageSize,
  onPageChange,
  hideColumns = [],
  ...props
}: AuditLogTableProps) {
  const { t, i18n } = useTranslation(['components_extra', 'audit_logs']);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  const allColumns: Record<AuditLogColumn, TableColumn<Log>> = {
    event: {
      key: 'event',
      title: t('audit_log.event'),
      render: (log) => <code className={styles.key}>{log.key}</code>,
    },
    actor: {
      key: 'actor',
      title: t('audit_logs:columns.actor'),
      render: (log) => <LogReferenceView reference={logActor(log, admins, links)} />,
    },
    user: {
      key: 'user',
      title: t('audit_log.user'),
      render: (log) => <LogReferenceView reference={logUser(log, admins, links)} />,
    },
    subject: {
      key: 'subject',
      title: t('audit_logs:columns.subject'),
      render: (log) => <LogReferenceView reference={logSubject(log, links)} />,
    },
    application: {
      key: 'application',
      title: t('audit_log.application'),
      render: (log) => <LogReferenceView reference={logApplication(log, links)} />,
    },
    result: {
      key: 'result',
      title: t('audit_log.result'),
      width: '7rem',
      render: (log) => <LogResultTag result={log.payload.result} />,
    },
    time: {
      key: 'time',
      title: t('audit_log.time'),
      width: '13rem',
      noWrap: true,
      render: (log) => time.format(log.createdAt),
    },
  };
  const columns = shown.filter((key) => !hideColumns.includes(key)).map((key) => allColumns[key]);
  return (
    <Table
      aria-label={props['aria-label']}
      columns={columns}
      rows={rows}
      rowKey={(log) => log.id}
      rowLink={props.rowLink}
      isLoading={props.isLoading}
      error={props.error}
      onRetry={props.onRetry}
      pagination={{ page, pageSize, totalCount, onPageChange, isTotalCapped, pageRowCount: rows?.length }}
      // A page's own empty state (an EmptyState) as it is; a sentence as muted text.
      empty={typeof props.empty === 'string' ? <p className={styles.muted}>{props.empty}</p> : props.empty}
    />
  );
}
