import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '../../i18n/react.tsx';
import { classNames } from '../class-names.ts';
import { CloseIcon } from '../icons.tsx';
import { focusableIn, trapTab } from './focus.ts';
import styles from './Modal.module.css';

export type ModalProps = {
  isOpen: boolean;
  /** Called for Esc and the close button. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'small' | 'medium' | 'large';
  /** 'alertdialog' for questions that need an answer (confirmations). */
  role?: 'dialog' | 'alertdialog';
  /** Hides the close button when the footer holds the only ways out. */
  hasCloseButton?: boolean;
};

/**
 * A modal dialog: focus moves in (to an element marked data-autofocus, else the first field), Tab cycles inside,
 * Esc closes, and focus returns to where it was when the dialog closes.
 */
export function Modal({ isOpen, ...props }: ModalProps) {
  if (!isOpen) return null;
  return createPortal(<ModalDialog {...props} />, document.body);
}

function ModalDialog({
  onClose,
  title,
  children,
  footer,
  size = 'medium',
  role = 'dialog',
  hasCloseButton = true,
}: Omit<ModalProps, 'isOpen'>) {
  const { t } = useTranslation('components');
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const bodyId = useId();

  // Focus inside the dialog must not fall to the page while it is open: an async action disables the button it was
  // on (a submit while sending), and the browser moves focus to <body>, where Esc and Tab no longer reach the dialog
  // (issue 40, item 4). After every render, focus that fell out comes back: to the element that had it once it is
  // enabled again, to the dialog itself meanwhile.
  const lastFocused = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const active = document.activeElement;
    const lost = !active || active === document.body;
    if (!lost && active !== dialog) return;
    const target = lastFocused.current;
    const disabled = target !== null && 'disabled' in target && target.disabled === true;
    const usable = target?.isConnected && dialog.contains(target) && !disabled;
    if (usable && target) target.focus();
    else if (lost) dialog.focus();
  });

  useEffect(() => {
    const previous = document.activeElement;
    const dialog = dialogRef.current;
    if (dialog) {
      const preferred = dialog.querySelector<HTMLElement>('[data-autofocus]');
      const body = dialog.querySelector<HTMLElement>(`[id="${bodyId}"]`);
      (preferred ?? (body && focusableIn(body)[0]) ?? focusableIn(dialog)[0] ?? dialog).focus();
    }
    return () => {
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, [bodyId]);

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Stopped here so a dialog opened from inside another closes alone.
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Tab' && dialogRef.current) {
      trapTab(dialogRef.current, event);
    }
  }

  return (
    <div className={styles.overlay}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the role is dialog or alertdialog, which own their keys. */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: both of those roles support aria-modal. */}
      <div
        ref={dialogRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={role === 'alertdialog' ? bodyId : undefined}
        tabIndex={-1}
        className={classNames(styles.dialog, styles[size])}
        onKeyDown={handleKeyDown}
        onFocus={(event) => {
          if (event.target !== dialogRef.current) lastFocused.current = event.target;
        }}
      >
        <header className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {hasCloseButton && (
            <button type="button" className={styles.close} aria-label={t('modal.close')} onClick={onClose}>
              <CloseIcon />
            </button>
          )}
        </header>
        <div id={bodyId} className={styles.body}>
          {children}
        </div>
        {footer && <footer className={styles.footer}>{footer}</footer>}
      </div>
    </div>
  );
}
