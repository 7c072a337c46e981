// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { ToastProvider } from './ToastProvider.tsx';
import { createToaster, defaultToastDurationMs } from './toaster.ts';

function setup() {
  const toaster = createToaster();
  renderWithI18n(
    <ToastProvider toaster={toaster}>
      <main />
    </ToastProvider>,
  );
  return toaster;
}

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('announces success politely and errors assertively', () => {
    const toaster = setup();
    act(() => {
      toaster.success('Tenant created');
      toaster.error('Invitation failed');
    });
    expect(screen.getByRole('status').textContent).toContain('Tenant created');
    expect(screen.getByRole('alert').textContent).toContain('Invitation failed');
  });

  it('disappears after its own duration, not before', () => {
    const toaster = setup();
    act(() => {
      toaster.error('Invitation failed', { durationMs: 5000 });
      toaster.success('Saved');
    });
    act(() => vi.advanceTimersByTime(defaultToastDurationMs.success));
    expect(screen.queryByText('Saved')).toBeNull();
    act(() => vi.advanceTimersByTime(5000 - defaultToastDurationMs.success - 1));
    expect(screen.queryByText('Invitation failed')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Invitation failed')).toBeNull();
  });

  it('keeps the timer of a toast when another toast arrives', () => {
    const toaster = setup();
    act(() => void toaster.success('First', { durationMs: 1000 }));
    act(() => vi.advanceTimersByTime(900));
    act(() => void toaster.success('Second', { durationMs: 1000 }));
    act(() => vi.advanceTimersByTime(100));
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.queryByText('Second')).not.toBeNull();
  });

  it('waits while the pointer is on it', () => {
    const toaster = setup();
    act(() => void toaster.success('Saved', { durationMs: 1000 }));
    fireEvent.mouseEnter(screen.getByRole('status'));
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText('Saved')).not.toBeNull();
    fireEvent.mouseLeave(screen.getByRole('status'));
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('closes with its close button', () => {
    const toaster = setup();
    act(() => void toaster.success('Saved'));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Saved')).toBeNull();
  });
});

// Issue 26: toasts after each save covered the top bar's search, docs link and avatar. happy-dom has no layout, so
// this checks the region's computed offsets against the theme's top-bar height (a stand-in value here).
describe('toast region placement', () => {
  beforeEach(() => {
    document.documentElement.style.setProperty('--header-height', '61px');
    document.documentElement.style.setProperty('--space-2', '8px');
    document.documentElement.style.setProperty('--space-4', '16px');
  });
  afterEach(() => {
    document.documentElement.removeAttribute('style');
    document.documentElement.removeAttribute('dir');
  });

  it('sits below the top bar, at the end of the line', () => {
    const toaster = setup();
    act(() => toaster.success('Saved'));
    const region = screen.getByRole('region');
    const style = getComputedStyle(region);
    expect(style.position).toBe('fixed');
    expect(style.insetBlockStart).toBe('calc(61px + 8px)');
    // Logical, not physical: the right in English, the left in Arabic, where the top bar's avatar is at the start.
    expect(style.insetInlineEnd).toBe('16px');
    expect(style.right).toBe('');
    expect(style.left).toBe('');
  });

  it('keeps the same logical placement in a right-to-left console', () => {
    document.documentElement.dir = 'rtl';
    const toaster = setup();
    act(() => toaster.success('Saved'));
    const style = getComputedStyle(screen.getByRole('region'));
    expect(style.insetBlockStart).toBe('calc(61px + 8px)');
    expect(style.insetInlineEnd).toBe('16px');
  });
});
