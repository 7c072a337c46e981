import type { Log } from '@gatehouse/schemas';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLogApplication, useLogUser } from '../../api/logs.ts';
import { Table, type TableColumn } from '../Table/Table.tsx';
import { UserText } from '../UserText.tsx';
import styles from './AuditLog.module.css';
import { LogResultTag } from './LogResultTag.tsx';
import { logApplicationId, logUserId } from './log-actors.ts';

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
  /** Columns that would repeat one value on every row: the user on a user's logs tab, the application on an app's. */
  hideColumns?: readonly ('user' | 'application')[];
};

/**
 * Audit-log entries newest first: what happened, who did it (user, application), whether it worked and when. Every
 * logs tab uses this one table.
 */
export function AuditLogTable({
  rows,
  totalCount,
  isTotalCapped,
  page,
  pageSize,
  onPageChange,
  hideColumns = [],
  ...props
}: AuditLogTableProps) {
  const { t, i18n } = useTranslation(['components_extra', 'components']);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  const allColumns: TableColumn<Log>[] = [
    { key: 'event', title: t('audit_log.event'), render: (log) => <code className={styles.key}>{log.key}</code> },
    { key: 'user', title: t('audit_log.user'), render: (log) => <LogUser id={logUserId(log)} /> },
    {
      key: 'application',
      title: t('audit_log.application'),
      render: (log) => <LogApplication id={logApplicationId(log)} />,
    },
    {
      key: 'result',
      title: t('audit_log.result'),
      width: '7rem',
      render: (log) => <LogResultTag result={log.payload.result} />,
    },
    {
      key: 'time',
      title: t('audit_log.time'),
      width: '13rem',
      noWrap: true,
      render: (log) => time.format(log.createdAt),
    },
  ];
  const columns = allColumns.filter((column) => !hideColumns.some((hidden) => hidden === column.key));
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

/** A user by name (else username, email), or by id while loading and when the user no longer exists. */
function LogUser({ id }: { id: string | undefined }) {
  const user = useLogUser(id);
  if (!id) return <NoActor />;
  const name = [user.data?.name, user.data?.username, user.data?.primaryEmail].find((value) => value?.trim());
  return name ? (
    <span className={styles.actor}>
      <UserText>{name}</UserText>
    </span>
  ) : (
    <code className={styles.actorId}>{id}</code>
  );
}

function LogApplication({ id }: { id: string | undefined }) {
  const application = useLogApplication(id);
  if (!id) return <NoActor />;
  return application.data ? (
    <span className={styles.actor}>
      <UserText>{application.data.name}</UserText>
    </span>
  ) : (
    <code className={styles.actorId}>{id}</code>
  );
}

function NoActor() {
  const { t } = useTranslation(['components_extra', 'components']);
  return <span className={styles.muted}>{t('audit_log.none')}</span>;
}
