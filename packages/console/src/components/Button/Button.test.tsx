// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { Button, spinnerDelayMs } from './Button.tsx';

describe('Button', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('disables at once when loading but shows the spinner only after the 500 ms delay', () => {
    renderWithI18n(<Button isLoading>{'Save'}</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    act(() => vi.advanceTimersByTime(spinnerDelayMs - 1));
    expect(screen.queryByTestId('spinner')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('spinner')).not.toBeNull();
    expect(spinnerDelayMs).toBe(500);
  });

  it('drops the spinner and enables again when loading ends', () => {
    const { rerender } = renderWithI18n(<Button isLoading>{'Save'}</Button>);
    act(() => vi.advanceTimersByTime(spinnerDelayMs));
    rerender(<Button>{'Save'}</Button>);
    expect(screen.queryByTestId('spinner')).toBeNull();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
  });

  it('runs an async click handler once however often it is clicked before it settles', async () => {
    let finish = () => {};
    const onClick = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    renderWithI18n(<Button onClick={onClick}>{'Send'}</Button>);
    const button = screen.getByRole('button', { name: 'Send' });
    fireEvent.click(button);
    fireEvent.click(button);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(button).toHaveProperty('disabled', true);
    await act(async () => finish());
    expect(button).toHaveProperty('disabled', false);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('is a plain button by default, so it never submits a form by accident', () => {
    renderWithI18n(<Button>{'Cancel'}</Button>);
    expect(screen.getByRole('button', { name: 'Cancel' }).getAttribute('type')).toBe('button');
  });
});
