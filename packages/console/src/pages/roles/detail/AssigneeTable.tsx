import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import type { Page } from '../../../api/client.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import shared from '../../../components/shared.module.css';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import type { useListParams } from '../../../components/Table/use-list-params.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from './RoleTabs.module.css';

export type AssigneeTableProps<Row> = {
  'aria-label': string;
  columns: ReadonlyArray<TableColumn<Row>>;
  query: UseQueryResult<Page<Row>>;
  list: ReturnType<typeof useListParams>;
  rowKey: (row: Row) => string;
  searchPlaceholder: string;
  /** Shown with no rows at all, and when a search matched none. */
  emptyText: string;
  noMatchText: string;
  assignLabel: string;
  onAssign: () => void;
  /** The remove button's accessible name, which names the row ('Remove read:orders'). */
  removeLabel: (row: Row) => string;
  onRemove: (row: Row) => Promise<unknown>;
  children?: ReactNode;
};

/**
 * A tab listing what the role holds or who holds it: server-side search and pages in the URL, 'Assign …' in the
 * toolbar and a remove button on every row.
 */
export function AssigneeTable<Row>({
  'aria-label': ariaLabel,
  columns,
  query,
  list,
  rowKey,
  searchPlaceholder,
  emptyText,
  noMatchText,
  assignLabel,
  onAssign,
  removeLabel,
  onRemove,
  children,
}: AssigneeTableProps<Row>) {
  const { t } = useTranslation('roles');
  const { page, pageSize, search, setPage, setSearch } = list;
  const total = query.data?.total;

  // Removing the last row of the last page leaves an empty page: step back to the one that now ends the list.
  useEffect(() => {
    if (total === undefined || query.isPlaceholderData) return;
    const lastPage = Math.max(1, Math.ceil(total / pageSize));
    if (page > lastPage) setPage(lastPage);
  }, [total, page, pageSize, setPage, query.isPlaceholderData]);

  const removeColumn: TableColumn<Row> = {
    key: 'remove',
    title: <span className={shared.visuallyHidden}>{t('actions')}</span>,
    className: styles.actionsCell,
    render: (row) => (
      <Button
        variant="text"
        size="small"
        icon={<TrashIcon />}
        aria-label={removeLabel(row)}
        title={removeLabel(row)}
        onClick={() => onRemove(row)}
      />
    ),
  };

  return (
    <>
      <Table
        aria-label={ariaLabel}
        columns={[...columns, removeColumn]}
        rows={query.data?.items}
        rowKey={rowKey}
        isLoading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        empty={<p className={styles.empty}>{search ? noMatchText : emptyText}</p>}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: searchPlaceholder }}
        toolbar={
          <Button variant="primary" icon={<PlusIcon />} onClick={onAssign}>
            {assignLabel}
          </Button>
        }
        pagination={{ page, pageSize, totalCount: total ?? 0, onPageChange: setPage }}
      />
      {children}
    </>
  );
}
