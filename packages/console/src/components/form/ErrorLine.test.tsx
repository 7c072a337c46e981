// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorLine } from './ErrorLine.tsx';

const waitForClickToPass = () => act(() => new Promise((resolve) => setTimeout(resolve, 5)));

afterEach(cleanup);

describe('ErrorLine', () => {
  it('keeps a vanishing error in place while a pointer is pressed, and lets it go after the click', async () => {
    const { rerender } = render(<ErrorLine testId="uri-error" error="Enter a valid URI" />);
    fireEvent.pointerDown(document.body);
    // The press blurs the field; validation clears the error during the press.
    rerender(<ErrorLine testId="uri-error" error={undefined} />);
    expect(screen.getByTestId('uri-error').textContent).toBe('Enter a valid URI');
    fireEvent.pointerUp(document.body);
    fireEvent.click(document.body);
    expect(screen.queryByTestId('uri-error'), 'still there when the click is dispatched').not.toBeNull();
    await waitForClickToPass();
    expect(screen.queryByTestId('uri-error')).toBeNull();
  });

  it('holds back an error that appears during a press until the press is over', async () => {
    const { rerender } = render(<ErrorLine testId="uri-error" error={undefined} />);
    fireEvent.pointerDown(document.body);
    rerender(<ErrorLine testId="uri-error" error="Enter a valid URI" />);
    expect(screen.queryByTestId('uri-error')).toBeNull();
    fireEvent.pointerUp(document.body);
    await waitForClickToPass();
    expect(screen.getByTestId('uri-error').textContent).toBe('Enter a valid URI');
  });

  it('shows changes at once when no pointer is pressed (typing, keyboard submit)', () => {
    const { rerender } = render(<ErrorLine testId="uri-error" error="Required" role="alert" />);
    expect(screen.getByRole('alert').textContent).toBe('Required');
    rerender(<ErrorLine testId="uri-error" error={undefined} />);
    expect(screen.queryByTestId('uri-error')).toBeNull();
  });
});
