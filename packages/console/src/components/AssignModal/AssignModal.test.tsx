// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Page } from '../../api/client.ts';
import { renderWithI18n } from '../testing/render.tsx';
import { AssignModal, type AssignModalProps, assignPageSize } from './AssignModal.tsx';

type Person = { id: string; name: string };

const people: Person[] = [
  { id: 'u1', name: 'Ada Lovelace' },
  { id: 'u2', name: 'Grace Hopper' },
  { id: 'u3', name: 'Alan Turing' },
  ...Array.from({ length: 12 }, (_, index) => ({ id: `m${index}`, name: `Member ${index + 1}` })),
];

/** A server in miniature: case-insensitive substring search and pages, as the API answers. */
function fakeLoad() {
  return vi.fn(
    async ({ search, page, pageSize }: { search: string; page: number; pageSize: number }): Promise<Page<Person>> => {
      const matches = people.filter((person) => person.name.toLowerCase().includes(search.toLowerCase()));
      return { items: matches.slice((page - 1) * pageSize, page * pageSize), total: matches.length };
    },
  );
}

type Props = Partial<AssignModalProps<Person>> & Pick<AssignModalProps<Person>, 'load' | 'onAssign'>;

/** The modal as a page uses it: open until it asks to close. */
function Harness({ onClose, ...props }: Props) {
  const [isOpen, setOpen] = useState(true);
  return (
    <AssignModal<Person>
      isOpen={isOpen}
      onClose={() => {
        onClose?.();
        setOpen(false);
      }}
      title={'Assign users'}
      queryKey={['test', 'people']}
      itemKey={(person) => person.id}
      itemLabel={(person) => person.name}
      submitLabel={'Assign'}
      {...props}
    />
  );
}

function renderModal(props: Props) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  renderWithI18n(
    <QueryClientProvider client={client}>
      <Harness {...props} />
    </QueryClientProvider>,
  );
  return { user, dialog: () => screen.getByRole('dialog', { name: 'Assign users' }) };
}

const candidates = () => screen.getByRole('list', { name: 'Search results' });

async function search(user: ReturnType<typeof userEvent.setup>, text: string) {
  const box = screen.getByRole('searchbox', { name: 'Search' });
  await user.clear(box);
  await user.type(box, `${text}{Enter}`);
}

describe('AssignModal', () => {
  it('loads the first page at once, and asks the server for what the user searches', async () => {
    const load = fakeLoad();
    const { user } = renderModal({ load, onAssign: vi.fn() });
    expect(await within(candidates()).findByRole('checkbox', { name: 'Ada Lovelace' })).toBeDefined();
    expect(load).toHaveBeenCalledWith({ search: '', page: 1, pageSize: assignPageSize }, expect.any(AbortSignal));

    await search(user, 'hop');
    await waitFor(() => expect(within(candidates()).getAllByRole('checkbox')).toHaveLength(1));
    expect(within(candidates()).getByRole('checkbox', { name: 'Grace Hopper' })).toBeDefined();
    expect(load).toHaveBeenLastCalledWith(
      { search: 'hop', page: 1, pageSize: assignPageSize },
      expect.any(AbortSignal),
    );
  });

  it('pages through many matches on the server', async () => {
    const load = fakeLoad();
    const { user } = renderModal({ load, onAssign: vi.fn() });
    await search(user, 'member');
    await within(candidates()).findByRole('checkbox', { name: 'Member 1' });
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await within(candidates()).findByRole('checkbox', { name: 'Member 11' })).toBeDefined();
    expect(load).toHaveBeenLastCalledWith(
      { search: 'member', page: 2, pageSize: assignPageSize },
      expect.any(AbortSignal),
    );
  });

  it('keeps the picks across searches, and assigns them all, then closes', async () => {
    const onAssign = vi.fn(async () => undefined);
    const onClose = vi.fn();
    const { user, dialog } = renderModal({ load: fakeLoad(), onAssign, onClose });
    const assign = () => within(dialog()).getByRole('button', { name: 'Assign' });
    expect(assign()).toHaveProperty('disabled', true);

    await search(user, 'ada');
    await user.click(await within(candidates()).findByRole('checkbox', { name: 'Ada Lovelace' }));
    await search(user, 'grace');
    await waitFor(() => expect(within(candidates()).queryByRole('checkbox', { name: 'Ada Lovelace' })).toBeNull());
    await user.click(within(candidates()).getByRole('checkbox', { name: 'Grace Hopper' }));

    const picked = screen.getByRole('region', { name: 'Selected: 2' });
    expect(within(picked).getByText('Ada Lovelace')).toBeDefined();
    expect(within(picked).getByText('Grace Hopper')).toBeDefined();
    await search(user, 'ada');
    expect(
      await within(candidates()).findByRole('checkbox', { name: 'Ada Lovelace', checked: true }),
      'a pick shows ticked when it comes back',
    ).toBeDefined();

    await user.click(assign());
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(onAssign).toHaveBeenCalledExactlyOnceWith([people[0], people[1]]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lets a pick go again from the list of picks', async () => {
    const onAssign = vi.fn(async () => undefined);
    const { user, dialog } = renderModal({ load: fakeLoad(), onAssign });
    await user.click(await within(candidates()).findByRole('checkbox', { name: 'Ada Lovelace' }));
    await user.click(within(candidates()).getByRole('checkbox', { name: 'Alan Turing' }));
    await user.click(screen.getByRole('button', { name: 'Remove Ada Lovelace from the selection' }));
    expect(screen.getByRole('region', { name: 'Selected: 1' })).toBeDefined();
    expect(within(candidates()).getByRole('checkbox', { name: 'Ada Lovelace' })).toHaveProperty('checked', false);
    await user.click(within(dialog()).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(onAssign).toHaveBeenCalledExactlyOnceWith([people[2]]));
  });

  it('stays open with the picks when the assignment fails, so the user can retry', async () => {
    const onAssign = vi.fn().mockRejectedValueOnce(new Error('422')).mockResolvedValueOnce(undefined);
    const onClose = vi.fn();
    const { user, dialog } = renderModal({ load: fakeLoad(), onAssign, onClose });
    await user.click(await within(candidates()).findByRole('checkbox', { name: 'Grace Hopper' }));
    const assign = within(dialog()).getByRole('button', { name: 'Assign' });

    await user.click(assign);
    await waitFor(() => expect(onAssign).toHaveBeenCalledOnce());
    await waitFor(() => expect(assign).toHaveProperty('disabled', false));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('region', { name: 'Selected: 1' })).toBeDefined();

    await user.click(assign);
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(onAssign).toHaveBeenLastCalledWith([people[1]]);
  });

  it('shows candidates that cannot be picked greyed, with the reason', async () => {
    const { user } = renderModal({
      load: fakeLoad(),
      onAssign: vi.fn(),
      unavailableReason: (person) => (person.id === 'u1' ? 'Already assigned' : undefined),
    });
    const ada = await within(candidates()).findByRole('checkbox', { name: /Ada Lovelace/ });
    expect(ada).toHaveProperty('disabled', true);
    expect(within(candidates()).getByText('Already assigned')).toBeDefined();
    await user.click(ada);
    expect(screen.getByRole('region', { name: 'Selected: 0' })).toBeDefined();
  });

  it('asks the server again each time it opens, never showing candidates a closed dialog cached', async () => {
    // The app's client keeps queries fresh for 30 s; candidates must not be served from that cache.
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    const ada: Person = { id: 'u1', name: 'Ada Lovelace' };
    const grace: Person = { id: 'u2', name: 'Grace Hopper' };
    let assigned = false;
    const load = vi.fn(async (): Promise<Page<Person>> => {
      const items = assigned ? [grace] : [ada, grace];
      return { items, total: items.length };
    });
    function Reopenable() {
      const [isOpen, setOpen] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            {'Open'}
          </button>
          <AssignModal<Person>
            isOpen={isOpen}
            onClose={() => setOpen(false)}
            title={'Assign users'}
            queryKey={['test', 'people']}
            itemKey={(person) => person.id}
            itemLabel={(person) => person.name}
            load={load}
            onAssign={vi.fn()}
            submitLabel={'Assign'}
          />
        </>
      );
    }
    const user = userEvent.setup();
    renderWithI18n(
      <QueryClientProvider client={client}>
        <Reopenable />
      </QueryClientProvider>,
    );
    await within(candidates()).findByRole('checkbox', { name: 'Ada Lovelace' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    assigned = true; // Ada was assigned elsewhere (or by a request that raced this dialog's search).
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await within(candidates()).findByRole('checkbox', { name: 'Grace Hopper' });
    expect(within(candidates()).queryByRole('checkbox', { name: 'Ada Lovelace' })).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
