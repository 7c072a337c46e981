import { type ButtonHTMLAttributes, type MouseEvent, type ReactNode, type Ref, useState } from 'react';
import { classNames } from '../class-names.ts';
import { Spinner } from '../Spinner/Spinner.tsx';
import styles from './Button.module.css';
import { useDelayedFlag } from './use-delayed-flag.ts';

/**
 * The hierarchy (components/README.md): one `primary` per view; `default` (secondary) for the others; `text`
 * (tertiary) for actions that only lead somewhere; `danger` only where a destructive action is confirmed (the confirm
 * dialog's button), `dangerOutline` for the destructive actions that ask first (danger zones, delete in a row).
 */
export type ButtonVariant = 'primary' | 'default' | 'danger' | 'dangerOutline' | 'text';

/** Spec §9: quick actions finish before this, so they never flash a spinner. */
export const spinnerDelayMs = 500;

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> & {
  variant?: ButtonVariant;
  size?: 'small' | 'medium';
  /** Disables the button at once; the spinner follows after spinnerDelayMs. */
  isLoading?: boolean;
  icon?: ReactNode;
  /** When this returns a promise, the button stays loading until it settles. */
  onClick?: (event: MouseEvent<HTMLButtonElement>) => unknown;
  ref?: Ref<HTMLButtonElement>;
};

/**
 * A button's look for a link that navigates ('Create application'): it stays a link, so middle-click, 'copy link'
 * and screen readers' link lists work.
 */
export function buttonClassName(variant: ButtonVariant = 'default', size: 'small' | 'medium' = 'medium'): string {
  return classNames(styles.button, styles[variant], size === 'small' && styles.small);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && 'then' in value && typeof value.then === 'function';
}

export function Button({
  variant = 'default',
  size = 'medium',
  isLoading = false,
  icon,
  type = 'button',
  disabled,
  onClick,
  className,
  children,
  ...rest
}: ButtonProps) {
  // React renders a click's state update before the next click is handled, so `disabled` stops repeats.
  const [isRunning, setRunning] = useState(false);
  const isBusy = isLoading || isRunning;
  const showSpinner = useDelayedFlag(isBusy, spinnerDelayMs);

  function handleClick(event: MouseEvent<HTMLButtonElement>) {
    const result = onClick?.(event);
    if (!isPromiseLike(result)) return;
    setRunning(true);
    const settle = () => setRunning(false);
    // A rejection stays the caller's to handle: it surfaces exactly as it would without the button.
    void Promise.resolve(result).then(settle, (error: unknown) => {
      settle();
      throw error;
    });
  }

  return (
    <button
      type={type}
      className={classNames(buttonClassName(variant, size), className)}
      disabled={disabled || isBusy}
      aria-busy={isBusy || undefined}
      onClick={handleClick}
      {...rest}
    >
      {showSpinner ? <Spinner /> : icon}
      {children}
    </button>
  );
}
