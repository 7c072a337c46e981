import type { Log } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LogResultTag } from '../../components/AuditLog/LogResultTag.tsx';
import { Table, type TableColumn } from '../../components/Table/Table.tsx';
import styles from './AuditLogs.module.css';
import { LogReferenceView } from './LogReferenceView.tsx';
import { type AdminNames, logActor, logApplication, logSubject } from './log-references.ts';

export type AuditLogsTableProps = {
  'aria-label': string;
  rows: readonly Log[] | undefined;
  /** Console admins the console can name (the log itself cannot: they are users of the admin tenant). */
  admins: AdminNames;
  totalCount: number;
  /** The server stopped counting (a very long log): the total is a lower bound. */
  isTotalCapped?: boolean | undefined;
  isLoading: boolean;
  error?: unknown;
  onRetry?: () => void;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  rowLink: (log: Log) => string;
  empty: ReactNode;
};

/**
 * The tenant's audit log, newest first: what happened, who did it, to what, in which application, whether it worked
 * and when. Names come with the page (the server reads them in one go); each links to its page where there is one.
 */
export function AuditLogsTable({
  rows,
  admins,
  totalCount,
  isTotalCapped,
  page,
  pageSize,
  onPageChange,
  ...props
}: AuditLogsTableProps) {
  const { t, i18n } = useTranslation('audit_logs');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  const columns: TableColumn<Log>[] = [
    { key: 'event', title: t('columns.event'), render: (log) => <code className={styles.key}>{log.key}</code> },
    {
      key: 'actor',
      title: t('columns.actor'),
      render: (log) => <LogReferenceView reference={logActor(log, admins)} />,
    },
    { key: 'subject', title: t('columns.subject'), render: (log) => <LogReferenceView reference={logSubject(log)} /> },
    {
      key: 'application',
      title: t('columns.application'),
      render: (log) => <LogReferenceView reference={logApplication(log)} />,
    },
    {
      key: 'result',
      title: t('columns.result'),
      width: '7rem',
      render: (log) => <LogResultTag result={log.payload.result} />,
    },
    {
      key: 'time',
      title: t('columns.time'),
      width: '13rem',
      noWrap: true,
      render: (log) => time.format(log.createdAt),
    },
  ];
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
      empty={props.empty}
    />
  );
}
