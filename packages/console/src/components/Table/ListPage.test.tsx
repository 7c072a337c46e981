// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../testing/render-page.tsx';
import { ListPage } from './ListPage.tsx';
import { useListParams } from './use-list-params.ts';

type Row = { id: string; name: string };

function Rows({ rows }: { rows: Row[] }) {
  const list = useListParams();
  return (
    <ListPage
      title="Widgets"
      subtitle="All the widgets."
      create={{ path: '/widgets/create', label: 'Create widget' }}
      list={list}
      query={{ data: { items: rows, total: rows.length }, isPending: false, error: null, refetch: vi.fn() }}
      columns={[{ key: 'name', title: 'Name', render: (row) => row.name }]}
      rowKey={(row) => row.id}
      rowLink={(row) => `/widgets/${row.id}`}
      empty={list.search ? 'No match' : 'No widgets yet'}
      searchPlaceholder="Search widgets"
    />
  );
}

describe('ListPage', () => {
  it('names the page and the table, and lists the rows with links', () => {
    renderPage(<Rows rows={[{ id: 'w1', name: 'Sprocket' }]} />, { path: '/widgets' });
    expect(screen.getByRole('heading', { level: 1, name: 'Widgets' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Widgets' });
    expect(within(table).getByRole('link', { name: 'Sprocket' }).getAttribute('href')).toBe('/widgets/w1');
    expect(document.title).toContain('Widgets');
  });

  it('says why the list is empty', () => {
    renderPage(<Rows rows={[]} />, { path: '/widgets?search=zz', route: '/widgets' });
    expect(screen.getByText('No match')).toBeTruthy();
  });

  it('opens the create dialog keeping the list’s query', async () => {
    const { router } = renderPage(<Rows rows={[]} />, { path: '/widgets?page=2&search=s', route: '/widgets' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create widget' }));
    expect(router.state.location.pathname).toBe('/widgets/create');
    expect(router.state.location.search).toBe('?page=2&search=s');
  });
});
