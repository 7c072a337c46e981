// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { cappedPageRange, pageRange } from './Pagination.tsx';
import { searchDebounceMs } from './SearchBox.tsx';
import { Table, type TableColumn, type TableProps } from './Table.tsx';

type User = { id: string; name: string; email: string };
const users: User[] = [
  { id: 'u1', name: 'Ada', email: 'ada@example.com' },
  { id: 'u2', name: 'Grace', email: 'grace@example.com' },
];
const columns: TableColumn<User>[] = [
  { key: 'name', title: 'Name', render: (user) => user.name },
  { key: 'email', title: 'Email', render: (user) => user.email },
];

function Where() {
  return <span data-testid="location">{useLocation().pathname}</span>;
}

/** Tables link rows with the router, so they render inside one, as in the app. */
function renderTable(props: Partial<TableProps<User>> = {}): void {
  const element: ReactElement = (
    <>
      <Table aria-label={'Users'} columns={columns} rows={users} rowKey={(user) => user.id} {...props} />
      <Where />
    </>
  );
  const router = createMemoryRouter(
    [
      { path: '/users', element },
      { path: '/users/:id', element: <Where /> },
    ],
    { initialEntries: ['/users'] },
  );
  renderWithI18n(<RouterProvider router={router} />);
}

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Users' }))
    .getAllByRole('row')
    .slice(1);

describe('Table', () => {
  afterEach(() => vi.useRealTimers());

  it('names each cell with its column, which a row shown as a card at narrow widths writes before the value', () => {
    renderTable();
    const cells = within(screen.getByRole('row', { name: /Grace/ })).getAllByRole('cell');
    expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual(['Name', 'Email']);
  });

  it('renders a row per item with the columns', () => {
    renderTable();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Email']);
    expect(bodyRows().map((row) => row.textContent)).toEqual(['Adaada@example.com', 'Gracegrace@example.com']);
  });

  it('opens a row from the link in its first cell and from a click anywhere on it', async () => {
    const user = userEvent.setup();
    renderTable({ rowLink: (row) => `/users/${row.id}` });
    const link = screen.getByRole('link', { name: 'Ada' });
    expect(link.getAttribute('href')).toBe('/users/u1');
    await user.click(screen.getByText('grace@example.com'));
    expect(screen.getByTestId('location').textContent).toBe('/users/u2');
  });

  // Issue 26: in Arabic, '.Seeded for benchmarks and demos' — user text needs its own direction.
  it('gives each text cell its own direction, the linked first cell too, keeping the cell in the table direction', () => {
    renderTable({ rowLink: (row) => `/users/${row.id}` });
    for (const text of ['Ada', 'ada@example.com']) {
      const holder = screen.getByText(text);
      expect(holder.getAttribute('dir')).toBe('auto');
      expect(holder.closest('td')?.hasAttribute('dir')).toBe(false);
    }
  });

  it('leaves cells that render their own elements as they are', () => {
    renderTable({
      columns: [{ key: 'name', title: 'Name', render: (user) => <strong>{user.name}</strong> }],
    });
    const strong = screen.getByText('Ada');
    expect(strong.tagName).toBe('STRONG');
    expect(strong.closest('[dir]')).toBeNull();
  });

  it('can be opened with the keyboard through the row link', async () => {
    const user = userEvent.setup();
    renderTable({ rowLink: (row) => `/users/${row.id}` });
    screen.getByRole('link', { name: 'Ada' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location').textContent).toBe('/users/u1');
  });

  it('shows skeleton rows and a loading status while loading', () => {
    renderTable({ isLoading: true, rows: undefined });
    expect(screen.getAllByTestId('table-skeleton-row')).toHaveLength(5);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.getByRole('table', { name: 'Users' }).getAttribute('aria-busy')).toBe('true');
  });

  it('keeps its columns, their widths and one-line values when a search leaves no row', () => {
    const sized: TableColumn<User>[] = [
      { key: 'name', title: 'Name', render: (user) => user.name },
      { key: 'joined', title: 'Joined', width: '10rem', noWrap: true, render: () => '2 Jan 2026, 10:00' },
    ];
    renderTable({ columns: sized });
    const joined = screen.getByRole('columnheader', { name: 'Joined' });
    expect(joined.style.width).toBe('10rem');
    const dateCell = within(bodyRows()[0] as HTMLElement).getAllByRole('cell')[1] as HTMLElement;
    expect(getComputedStyle(dateCell).whiteSpace).toBe('nowrap');
    cleanup();
    renderTable({ columns: sized, rows: [], empty: 'No user matches.' });
    expect(screen.getAllByRole('columnheader').map((th) => [th.textContent, th.style.width])).toEqual([
      ['Name', ''],
      ['Joined', '10rem'],
    ]);
    expect(screen.getByRole('cell', { name: 'No user matches.' }).getAttribute('colspan')).toBe('2');
  });

  it('shows the empty state', () => {
    renderTable({ rows: [] });
    expect(bodyRows()[0]?.textContent).toBe('No results');
  });

  it('shows a failed load with its message and a Retry button', async () => {
    const onRetry = vi.fn();
    renderTable({ rows: undefined, error: new Error('Server unreachable'), onRetry });
    expect(screen.getByRole('alert').textContent).toBe('The list could not be loaded.Server unreachable');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('searches 300 ms after the last keystroke, once', () => {
    vi.useFakeTimers();
    const onSearch = vi.fn();
    renderTable({ search: { onSearch } });
    const box = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(box, { target: { value: 'a' } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(box, { target: { value: 'ad ' } });
    act(() => vi.advanceTimersByTime(searchDebounceMs - 1));
    expect(onSearch).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('ad');
    expect(searchDebounceMs).toBe(300);
  });

  it('searches at once on Enter', () => {
    vi.useFakeTimers();
    const onSearch = vi.fn();
    renderTable({ search: { onSearch } });
    const box = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(box, { target: { value: 'grace' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('grace');
    act(() => vi.advanceTimersByTime(searchDebounceMs));
    expect(onSearch).toHaveBeenCalledOnce();
  });
});

describe('pagination', () => {
  it('shows which rows of how many are on the page, and moves between pages', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    renderTable({ pagination: { page: 2, pageSize: 20, totalCount: 45, onPageChange } });
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getByText('21–40 of 45')).toBeTruthy();
    await user.click(within(nav).getByRole('button', { name: 'Previous page' }));
    await user.click(within(nav).getByRole('button', { name: 'Next page' }));
    expect(onPageChange.mock.calls).toEqual([[1], [3]]);
  });

  it('disables Previous on the first page and Next on the last', () => {
    renderTable({ pagination: { page: 3, pageSize: 20, totalCount: 45, onPageChange: () => {} } });
    expect(screen.getByText('41–45 of 45')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', false);
  });

  it('formats large numbers for the language', () => {
    renderTable({ pagination: { page: 1, pageSize: 20, totalCount: 12345, onPageChange: () => {} } });
    expect(screen.getByText('1–20 of 12,345')).toBeTruthy();
  });

  it('shows a capped total as a lower bound and pages on while pages are full', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    const capped = { pageSize: 20, totalCount: 10000, isTotalCapped: true, onPageChange };
    renderTable({ pagination: { ...capped, page: 500, pageRowCount: 20 } });
    expect(screen.getByText('9,981–10,000 of 10,000+')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenCalledWith(501);
    cleanup();
    renderTable({ pagination: { ...capped, page: 502, pageRowCount: 7 } });
    expect(screen.getByText('10,021–10,027 of 10,000+')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next page' }), 'a short page is the last').toHaveProperty(
      'disabled',
      true,
    );
  });

  it('computes the range of a page', () => {
    expect(pageRange(1, 20, 0)).toEqual({ from: 0, to: 0, pageCount: 1 });
    expect(pageRange(1, 20, 20)).toEqual({ from: 1, to: 20, pageCount: 1 });
    expect(pageRange(2, 20, 21)).toEqual({ from: 21, to: 21, pageCount: 2 });
    expect(cappedPageRange(3, 20, 20)).toEqual({ from: 41, to: 60, hasNext: true });
    expect(cappedPageRange(3, 20, 0)).toEqual({ from: 0, to: 0, hasNext: false });
  });
});
