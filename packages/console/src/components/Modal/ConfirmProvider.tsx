import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button/Button.tsx';
import { ConfirmContext, type ConfirmOptions } from './confirm-context.ts';
import { Modal } from './Modal.tsx';

type Pending = ConfirmOptions & { key: number; resolve: (confirmed: boolean) => void };

/**
 * Holds the one confirm modal of the app (spec §4): opening a new one cancels the previous one, and Esc, the close
 * button or the browser's back button cancel it too.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('components');
  const [pending, setPending] = useState<Pending>();
  // The ref settles promises synchronously, even for two confirms opened in the same event.
  const pendingRef = useRef<Pending>(undefined);
  const keyRef = useRef(0);

  const settle = useCallback((confirmed: boolean) => {
    const current = pendingRef.current;
    if (!current) return;
    pendingRef.current = undefined;
    setPending(undefined);
    current.resolve(confirmed);
  }, []);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.resolve(false);
        keyRef.current += 1;
        const next: Pending = { ...options, key: keyRef.current, resolve };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );

  const isOpen = pending !== undefined;
  useEffect(() => {
    if (!isOpen) return;
    const cancel = () => settle(false);
    window.addEventListener('popstate', cancel);
    return () => window.removeEventListener('popstate', cancel);
  }, [isOpen, settle]);

  // Nobody may wait forever on a promise whose modal is gone.
  useEffect(() => () => pendingRef.current?.resolve(false), []);

  const isAlert = pending?.variant === 'alert';
  return (
    <ConfirmContext value={confirm}>
      {children}
      <Modal
        key={pending?.key}
        isOpen={isOpen}
        role="alertdialog"
        size="small"
        title={pending?.title ?? t('confirm.title')}
        onClose={() => settle(false)}
        footer={
          <>
            {!isAlert && (
              <Button onClick={() => settle(false)} data-autofocus={pending?.isDanger || undefined}>
                {pending?.cancelText ?? t('confirm.cancel')}
              </Button>
            )}
            <Button
              variant={pending?.isDanger ? 'danger' : 'primary'}
              onClick={() => settle(true)}
              data-autofocus={!pending?.isDanger || isAlert || undefined}
            >
              {pending?.confirmText ?? (isAlert ? t('confirm.got_it') : t('confirm.confirm'))}
            </Button>
          </>
        }
      >
        {pending?.content}
      </Modal>
    </ConfirmContext>
  );
}
