// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { SearchBox, searchDebounceMs } from './SearchBox.tsx';

/** A list page in miniature: the search lives outside the box (in the URL), and Back can change it. */
function ListSearch({ initial }: { initial: string }) {
  const [search, setSearch] = useState(initial);
  return (
    <>
      <SearchBox defaultValue={search} onSearch={setSearch} />
      <button type="button" onClick={() => setSearch('earlier')}>
        {'back'}
      </button>
      <output>{search}</output>
    </>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SearchBox', () => {
  it('shows a search changed from outside (Back), and keeps what the user types', () => {
    vi.useFakeTimers();
    renderWithI18n(<ListSearch initial="first" />);
    const box = screen.getByRole('searchbox', { name: 'Search' });
    expect(box).toHaveProperty('value', 'first');

    fireEvent.change(box, { target: { value: 'typed ' } });
    act(() => vi.advanceTimersByTime(searchDebounceMs));
    expect(screen.getByRole('status').textContent).toBe('typed');
    expect(box, 'the trailing space stays while the user types').toHaveProperty('value', 'typed ');

    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(box).toHaveProperty('value', 'earlier');
  });
});
