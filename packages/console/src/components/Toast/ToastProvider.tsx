import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '../../i18n/react.tsx';
import { classNames } from '../class-names.ts';
import { CloseIcon } from '../icons.tsx';
import styles from './Toast.module.css';
import { createToaster, type Toast, type Toaster } from './toaster.ts';

const ToastContext = createContext<Toaster | null>(null);

export function useToast(): Pick<Toaster, 'success' | 'error' | 'dismiss'> {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('useToast needs a ToastProvider above it.');
  return toaster;
}

/** Pass the app's toaster to share it with non-React code; without one the provider makes its own. */
export function ToastProvider({ toaster: given, children }: { toaster?: Toaster; children: ReactNode }) {
  const { t } = useTranslation('components');
  const [own] = useState(createToaster);
  const toaster = given ?? own;
  const toasts = useSyncExternalStore(toaster.subscribe, toaster.getSnapshot);
  return (
    <ToastContext value={toaster}>
      {children}
      {createPortal(
        <section className={styles.region} aria-label={t('toast.region')}>
          {toasts.map((toast) => (
            <ToastItem key={toast.id} toast={toast} dismiss={toaster.dismiss} />
          ))}
        </section>,
        document.body,
      )}
    </ToastContext>
  );
}

// `dismiss` is the toaster's (stable) function: an inline callback would restart every timer on each new toast.
function ToastItem({ toast, dismiss }: { toast: Toast; dismiss: (id: number) => void }) {
  const { t } = useTranslation('components');
  // Paused while pointed at or focused, so nobody loses a message they are still reading (WCAG 2.2.1).
  const [isPaused, setPaused] = useState(false);
  useEffect(() => {
    if (isPaused) return;
    const timer = setTimeout(() => dismiss(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [isPaused, dismiss, toast.id, toast.durationMs]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pausing on hover is a courtesy; the close button is the control.
    <div
      role={toast.kind === 'error' ? 'alert' : 'status'}
      className={classNames(styles.toast, styles[toast.kind])}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className={styles.message}>{toast.message}</div>
      <button type="button" className={styles.close} aria-label={t('toast.close')} onClick={() => dismiss(toast.id)}>
        <CloseIcon />
      </button>
    </div>
  );
}
