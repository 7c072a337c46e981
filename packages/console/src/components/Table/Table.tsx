import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { Button } from '../Button/Button.tsx';
import { classNames } from '../class-names.ts';
import shared from '../shared.module.css';
import { Pagination, type PaginationProps } from './Pagination.tsx';
import { SearchBox, type SearchBoxProps } from './SearchBox.tsx';
import styles from './Table.module.css';
import { TableCell, TableRow } from './TableRow.tsx';

export type TableColumn<Row> = {
  key: string;
  title: ReactNode;
  render: (row: Row) => ReactNode;
  className?: string;
  /**
   * The column's width ('9rem'), for columns whose content has a known size (a tag, a count, a date): the columns keep
   * their place when a search leaves no row, instead of shrinking to their titles. At least the content's width.
   */
  width?: string;
  /** Values that must stay on one line, such as dates and counts (a date broken mid-way reads as two values). */
  noWrap?: boolean;
};

export type TableProps<Row> = {
  /** Names the table for screen readers ('Users'). */
  'aria-label': string;
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  /** Makes each row open this path; the first cell holds the link, the whole row is clickable. */
  rowLink?: (row: Row) => string;
  isLoading?: boolean;
  /** A failed load: shown in place of the rows, with Retry when onRetry is given. */
  error?: unknown;
  onRetry?: () => void;
  empty?: ReactNode;
  search?: SearchBoxProps;
  pagination?: PaginationProps;
  /** Extra controls beside the search box (filters, 'Create'). */
  toolbar?: ReactNode;
};

const skeletonRowCount = 5;

/** The one list table (ARCHITECTURE.md): search, states for loading, empty and failed, and pagination. */
export function Table<Row>({
  'aria-label': ariaLabel,
  columns,
  rows,
  rowKey,
  rowLink,
  isLoading = false,
  error,
  onRetry,
  empty,
  search,
  pagination,
  toolbar,
}: TableProps<Row>) {
  const { t } = useTranslation('components');
  const span = columns.length;

  function body(): ReactNode {
    if (isLoading) {
      return Array.from({ length: skeletonRowCount }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing but their position.
        <tr key={index} data-testid="table-skeleton-row">
          {columns.map((column) => (
            <td key={column.key} className={styles.cell}>
              <span className={styles.skeleton} />
            </td>
          ))}
        </tr>
      ));
    }
    if (error) {
      return (
        <tr>
          <td colSpan={span} className={styles.state}>
            <div role="alert">
              <p className={styles.stateTitle}>{t('table.error')}</p>
              {error instanceof Error && error.message && <p className={styles.stateDetail}>{error.message}</p>}
            </div>
            {onRetry && <Button onClick={onRetry}>{t('table.retry')}</Button>}
          </td>
        </tr>
      );
    }
    if (!rows || rows.length === 0) {
      return (
        <tr>
          <td colSpan={span} className={styles.state}>
            {empty ?? <p className={styles.stateTitle}>{t('table.empty')}</p>}
          </td>
        </tr>
      );
    }
    return rows.map((row) => (
      <TableRow key={rowKey(row)} to={rowLink?.(row)}>
        {columns.map((column, index) => (
          <TableCell
            key={column.key}
            className={classNames(styles.cell, column.className, column.noWrap && shared.noWrap)}
            linkTo={index === 0 ? rowLink?.(row) : undefined}
            label={typeof column.title === 'string' ? column.title : undefined}
          >
            {column.render(row)}
          </TableCell>
        ))}
      </TableRow>
    ));
  }

  return (
    <div className={styles.container}>
      {(search || toolbar) && (
        <div className={styles.toolbar}>
          {search && <SearchBox {...search} />}
          {toolbar}
        </div>
      )}
      <div className={styles.scroller}>
        <table className={styles.table} aria-label={ariaLabel} aria-busy={isLoading || undefined}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={classNames(styles.headerCell, column.className, column.noWrap && shared.noWrap)}
                  style={column.width ? { width: column.width } : undefined}
                >
                  {column.title}
                </th>
              ))}
            </tr>
          </thead>
          {/* Placeholder rows are only a picture of loading; the status text below says it. */}
          <tbody aria-hidden={isLoading || undefined}>{body()}</tbody>
        </table>
        {isLoading && (
          <p role="status" className={shared.visuallyHidden}>
            {t('loading')}
          </p>
        )}
      </div>
      {pagination && !error && pagination.totalCount > 0 && <Pagination {...pagination} />}
    </div>
  );
}
