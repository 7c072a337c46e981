import type { ReactNode } from 'react';
import { Outlet, useNavigate } from 'react-router';
import type { Page } from '../../api/client.ts';
import { Button } from '../Button/Button.tsx';
import { PlusIcon } from '../icons.tsx';
import { PageHeader } from '../PageHeader/PageHeader.tsx';
import { useDocumentTitle } from '../use-document-title.ts';
import styles from './ListPage.module.css';
import { Table, type TableColumn } from './Table.tsx';
import type { useListParams } from './use-list-params.ts';

/** The list query's state, as TanStack Query gives it. */
type ListQuery<Row> = { data?: Page<Row> | undefined; isPending: boolean; error: unknown; refetch: () => unknown };

export type ListPageProps<Row> = {
  /** The page's heading, document title and the table's name. */
  title: string;
  subtitle: ReactNode;
  /** The create dialog's route and its button's label; `aside` goes before the button (a plan gate, cloud). */
  create: { path: string; label: ReactNode; aside?: ReactNode };
  /** The page, search and filters kept in the URL (useListParams). */
  list: ReturnType<typeof useListParams>;
  query: ListQuery<Row>;
  columns: readonly TableColumn<Row>[];
  rowKey: (row: Row) => string;
  rowLink: (row: Row) => string;
  /** What an empty page says (none yet, or none matching the search and filters). */
  empty: ReactNode;
  searchPlaceholder: string;
  /** Filters beside the search box. */
  toolbar?: ReactNode;
};

/**
 * An area's index (spec §2.2: organizations, roles, webhooks): heading with the create action, then the one table with
 * server-side search and 20 rows a page kept in the URL. The create dialog is a child route over the list.
 */
export function ListPage<Row>({
  title,
  subtitle,
  create,
  list,
  query,
  empty,
  searchPlaceholder,
  ...table
}: ListPageProps<Row>) {
  useDocumentTitle(title);
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          <>
            {create.aside}
            <Button
              variant="primary"
              icon={<PlusIcon />}
              // Keeps the list's query, so closing the dialog returns to the same rows.
              onClick={() => navigate({ pathname: create.path, search: list.params.toString() })}
            >
              {create.label}
            </Button>
          </>
        }
      />
      <Table
        aria-label={title}
        {...table}
        rows={query.data?.items}
        isLoading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        empty={<p className={styles.empty}>{empty}</p>}
        search={{ onSearch: list.setSearch, defaultValue: list.search, placeholder: searchPlaceholder }}
        pagination={{
          page: list.page,
          pageSize: list.pageSize,
          totalCount: query.data?.total ?? 0,
          onPageChange: list.setPage,
        }}
      />
      <Outlet />
    </>
  );
}
