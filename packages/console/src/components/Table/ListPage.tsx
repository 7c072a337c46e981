import type { ReactNode } from 'react';
import { Outlet, useNavigate } from 'react-router';
import type { Page } from '../../api/client.ts';
import { Button } from '../Button/Button.tsx';
import { EmptyState, type EmptyStateProps, NoResults } from '../EmptyState/EmptyState.tsx';
import { showsEmptyState } from '../EmptyState/shows-empty-state.ts';
import { PlusIcon } from '../icons.tsx';
import { PageHeader } from '../PageHeader/PageHeader.tsx';
import { useDocumentTitle } from '../use-document-title.ts';
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
  /** What the list says when nothing exists yet (what the thing is for); the create button is its action. */
  empty: Omit<EmptyStateProps, 'action'>;
  /** The page's words when its filters (other than the search) find nothing; a search says 'No results for …'. */
  noMatch?: string;
  /** Whether filters other than the search are set. */
  isFiltered?: boolean;
  /** The search box's placeholder; without it the list has no search (an API that cannot search, e.g. SSO connectors). */
  searchPlaceholder?: string;
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
  noMatch,
  isFiltered = false,
  searchPlaceholder,
  ...table
}: ListPageProps<Row>) {
  useDocumentTitle(title);
  const navigate = useNavigate();
  // The create action with its plan mark (cloud), in the header or, while the list is empty, in the empty state.
  const createButton = (
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
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={showsEmptyState(query, Boolean(list.search) || isFiltered) ? undefined : createButton}
      />
      <Table
        aria-label={title}
        {...table}
        rows={query.data?.items}
        isLoading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        empty={
          list.search || isFiltered ? (
            <NoResults search={list.search}>{noMatch}</NoResults>
          ) : (
            <EmptyState {...empty} action={createButton} />
          )
        }
        search={
          searchPlaceholder === undefined
            ? undefined
            : { onSearch: list.setSearch, defaultValue: list.search, placeholder: searchPlaceholder }
        }
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
