import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { Button } from '../Button/Button.tsx';
import { ConfirmContext, type ConfirmOptions } from './confirm-context.ts';

/** Loaded on the first confirm: most visits never open one, and the first page should not carry it. */
const Modal = lazy(() => import('./Modal.tsx').then((module) => ({ default: module.Modal })));

type Pending = ConfirmOptions & { key: number; resolve: (confirmed: boolean) => void; hasEntry: boolean };

/** The key under which a confirm's own history entry is marked (beside the router's state, which it copies). */
const ENTRY_MARK = 'gatehouseConfirm';
/** How long a close waits for its history entry to be gone before it answers anyway. */
const POP_TIMEOUT_MS = 500;

function historyState(): Record<string, unknown> {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
}

const ownsTopEntry = (key: number) => historyState()[ENTRY_MARK] === key;

/** Removes the confirm's own entry (Back in its place), then answers; the caller may navigate once it has. */
function popEntryThen(answer: () => void) {
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    window.removeEventListener('popstate', finish);
    answer();
  };
  window.addEventListener('popstate', finish);
  setTimeout(finish, POP_TIMEOUT_MS);
  window.history.back();
}

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

  /** `byBack`: the browser already left the dialog's entry. */
  const settle = useCallback((confirmed: boolean, byBack = false) => {
    const current = pendingRef.current;
    if (!current) return;
    pendingRef.current = undefined;
    setPending(undefined);
    if (current.hasEntry && !byBack && ownsTopEntry(current.key)) popEntryThen(() => current.resolve(confirmed));
    else current.resolve(confirmed);
  }, []);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        const previous = pendingRef.current;
        previous?.resolve(false);
        keyRef.current += 1;
        const key = keyRef.current;
        const hasEntry = options.ownsHistoryEntry !== false;
        if (hasEntry) {
          // A confirm replacing another takes over its entry instead of stacking a second one.
          const marked = { ...historyState(), [ENTRY_MARK]: key };
          if (previous?.hasEntry && ownsTopEntry(previous.key)) window.history.replaceState(marked, '');
          else window.history.pushState(marked, '');
        }
        const next: Pending = { ...options, key, resolve, hasEntry };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );

  const isOpen = pending !== undefined;
  // Mounted from the first confirm on, so later closes keep the modal's own closing behaviour.
  const [wanted, setWanted] = useState(false);
  if (isOpen && !wanted) setWanted(true);
  useEffect(() => {
    if (!isOpen) return;
    // Back (or any move) that leaves the dialog's entry cancels it; the page under it is the entry before, the same.
    const cancel = () => {
      const current = pendingRef.current;
      if (current && !(current.hasEntry && ownsTopEntry(current.key))) settle(false, true);
    };
    window.addEventListener('popstate', cancel);
    return () => window.removeEventListener('popstate', cancel);
  }, [isOpen, settle]);

  // Nobody may wait forever on a promise whose modal is gone.
  useEffect(() => () => pendingRef.current?.resolve(false), []);

  const isAlert = pending?.variant === 'alert';
  return (
    <ConfirmContext value={confirm}>
      {children}
      {wanted && (
        <Suspense fallback={null}>
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
        </Suspense>
      )}
    </ConfirmContext>
  );
}
