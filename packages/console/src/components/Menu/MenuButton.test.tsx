// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { MenuButton } from './MenuButton.tsx';
import type { MenuEntry } from './menu-entries.ts';

function entries(overrides: { onPick?: (value: string) => void; onAction?: () => unknown } = {}): MenuEntry[] {
  return [
    { kind: 'link', id: 'profile', label: 'Profile', href: '/console/profile', newTab: true },
    {
      kind: 'submenu',
      id: 'theme',
      label: 'Theme',
      hint: 'Light',
      entries: ['Light', 'Dark'].map((value) => ({
        kind: 'radio',
        id: value,
        label: value,
        checked: value === 'Dark',
        onSelect: () => overrides.onPick?.(value),
      })),
    },
    { kind: 'separator', id: 'separator' },
    { kind: 'action', id: 'out', label: 'Sign out', onSelect: overrides.onAction ?? (() => undefined) },
  ];
}

function renderMenu(overrides: Parameters<typeof entries>[0] = {}) {
  renderWithI18n(
    <MenuButton label={'Account'} entries={entries(overrides)} header={<p>{'Ada'}</p>}>
      {'A'}
    </MenuButton>,
  );
  return screen.getByRole('button', { name: 'Account' });
}

afterEach(() => vi.useRealTimers());

describe('MenuButton keyboard', () => {
  it('opens on ArrowDown at the first item, moves with arrows, and Esc returns to the button', async () => {
    const user = userEvent.setup();
    const button = renderMenu();
    button.focus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('menu'); // The list's module loads on the first opening.
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Profile' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: /Theme/ }));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Sign out' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Profile' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('opens a submenu with ArrowRight on the checked choice, and ArrowLeft goes back', async () => {
    const user = userEvent.setup();
    const onPick = vi.fn();
    const button = renderMenu({ onPick });
    button.focus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('menu');
    await user.keyboard('{ArrowDown}{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'Dark' }));
    await user.keyboard('{ArrowLeft}');
    expect(screen.queryByRole('menuitemradio', { name: 'Dark' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: /Theme/ }));
    await user.keyboard('{Enter}{ArrowUp}{Enter}');
    expect(onPick).toHaveBeenCalledWith('Light');
    expect(screen.queryByRole('menu'), 'choosing closes the whole menu').toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('keeps the header outside the menu role', async () => {
    const user = userEvent.setup();
    await user.click(renderMenu());
    expect((await screen.findByRole('menu')).textContent).not.toContain('Ada');
    expect(screen.getByText('Ada')).toBeTruthy();
  });
});

describe('MenuButton submenu timing (spec §2.5)', () => {
  it('opens 300 ms after the pointer enters and closes 100 ms after it leaves', async () => {
    const button = renderMenu();
    fireEvent.click(button);
    await screen.findByRole('menu');
    vi.useFakeTimers();
    const item = screen.getByRole('menuitem', { name: /Theme/ });
    const row = item.parentElement as HTMLElement;
    fireEvent.pointerEnter(row);
    act(() => vi.advanceTimersByTime(299));
    expect(screen.queryByRole('menuitemradio', { name: 'Dark' })).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('menuitemradio', { name: 'Dark' })).toBeTruthy();

    fireEvent.pointerLeave(row);
    act(() => vi.advanceTimersByTime(99));
    expect(screen.getByRole('menuitemradio', { name: 'Dark' }), 'still open before 100 ms').toBeTruthy();
    fireEvent.pointerEnter(row);
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByRole('menuitemradio', { name: 'Dark' }), 'coming back in time keeps it open').toBeTruthy();
    fireEvent.pointerLeave(row);
    act(() => vi.advanceTimersByTime(100));
    expect(screen.queryByRole('menuitemradio', { name: 'Dark' })).toBeNull();
  });

  it('does not open when the pointer only passes over the item', async () => {
    fireEvent.click(renderMenu());
    await screen.findByRole('menu');
    vi.useFakeTimers();
    const row = screen.getByRole('menuitem', { name: /Theme/ }).parentElement as HTMLElement;
    fireEvent.pointerEnter(row);
    act(() => vi.advanceTimersByTime(200));
    fireEvent.pointerLeave(row);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole('menuitemradio')).toBeNull();
  });
});

describe('MenuButton actions', () => {
  it('shows a running action as busy and ignores repeated clicks until it settles', async () => {
    const user = userEvent.setup();
    let finish: () => void = () => undefined;
    const onAction = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    await user.click(renderMenu({ onAction }));
    await screen.findByRole('menu');
    const signOut = screen.getByRole('menuitem', { name: 'Sign out' });
    await user.click(signOut);
    await user.click(signOut);
    expect(onAction).toHaveBeenCalledOnce();
    expect(signOut.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('menuitem', { name: 'Profile' }).getAttribute('aria-disabled')).toBe('true');
    await act(async () => finish());
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes on a click outside', async () => {
    const user = userEvent.setup();
    await user.click(renderMenu());
    expect(await screen.findByRole('menu')).toBeTruthy();
    await user.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
