import type { Log } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Table, type TableColumn } from '../Table/Table.tsx';
import styles from './AuditLog.module.css';
import { LogResultTag } from './LogResultTag.tsx';

export type AuditLogTableProps = {
  'aria-label': string;
  rows: readonly Log[] | undefined;
  totalCount: number;
  /** The server stopped counting (a very long log): the total is a lower bound. */
  isTotalCapped?: boolean;
  isLoading: boolean;
  error?: unknown;
  onRetry?: () => void;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Where an entry opens (spec §2.2: '{appId}/logs/{logId}', '{userId}/logs/{logId}'). */
  rowLink: (log: Log) => string;
  empty: ReactNode;
};

/** Audit-log entries newest first: what happened, whether it worked and when. Every logs tab uses this one table. */
export function AuditLogTable({
  rows,
  totalCount,
  isTotalCapped,
  page,
  pageSize,
  onPageChange,
  ...props
}: AuditLogTableProps) {
  const { t, i18n } = useTranslation('components');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  const columns: TableColumn<Log>[] = [
    { key: 'event', title: t('audit_log.event'), render: (log) => <code className={styles.key}>{log.key}</code> },
    { key: 'result', title: t('audit_log.result'), render: (log) => <LogResultTag result={log.payload.result} /> },
    { key: 'time', title: t('audit_log.time'), render: (log) => time.format(log.createdAt) },
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
      // A page's own empty state (an EmptyState) as it is; a sentence as muted text.
      empty={typeof props.empty === 'string' ? <p className={styles.muted}>{props.empty}</p> : props.empty}
    />
  );
}
