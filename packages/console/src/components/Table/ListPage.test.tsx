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
      empty={{ title: 'No widgets yet', description: 'Widgets hold the sprockets together.' }}
      noMatch="No widget of this colour"
      isFiltered={list.params.has('colour')}
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

  it('says what an empty list is for and offers to create the first one (issue 26)', async () => {
    const { router } = renderPage(<Rows rows={[]} />, { path: '/widgets', route: '/widgets' });
    const table = screen.getByRole('table', { name: 'Widgets' });
    expect(within(table).getByText('No widgets yet')).toBeTruthy();
    expect(within(table).getByText('Widgets hold the sprockets together.')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Create widget' }), 'the header has none meanwhile').toHaveLength(1);
    await userEvent.setup().click(within(table).getByRole('button', { name: 'Create widget' }));
    expect(router.state.location.pathname).toBe('/widgets/create');
  });

  it('says a search found nothing, without the pitch, the header staying', () => {
    renderPage(<Rows rows={[]} />, { path: '/widgets?search=zz', route: '/widgets' });
    const table = screen.getByRole('table', { name: 'Widgets' });
    expect(within(table).getByTestId('no-results').textContent).toBe('No results for “\u2068zz\u2069”');
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeTruthy();
    expect(within(table).queryByText('Widgets hold the sprockets together.')).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Create widget' })).toBeNull();
  });

  it('says the filters found nothing in the page’s words', () => {
    renderPage(<Rows rows={[]} />, { path: '/widgets?colour=red', route: '/widgets' });
    expect(screen.getByTestId('no-results').textContent).toBe('No widget of this colour');
    expect(screen.getAllByRole('button', { name: 'Create widget' }), 'only the header’s').toHaveLength(1);
  });

  it('opens the create dialog keeping the list’s query', async () => {
    const { router } = renderPage(<Rows rows={[]} />, { path: '/widgets?page=2&search=s', route: '/widgets' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create widget' }));
    expect(router.state.location.pathname).toBe('/widgets/create');
    expect(router.state.location.search).toBe('?page=2&search=s');
  });
});
