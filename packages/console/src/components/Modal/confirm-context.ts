import { createContext, type ReactNode, useContext } from 'react';

export type ConfirmOptions = {
  content: ReactNode;
  /** Defaults to 'Reminder'. */
  title?: ReactNode;
  confirmText?: ReactNode;
  cancelText?: ReactNode;
  /** 'alert' has one button ('Got it' by default) and only informs. */
  variant?: 'confirm' | 'alert';
  /** Destructive actions get a red button, and the focus starts on the first button (Cancel), not on it. */
  isDanger?: boolean;
  /**
   * The dialog takes a history entry of its own (same address), so the browser's Back closes it as cancelled and
   * stays on the page (spec §2.11). Off for a confirm that a blocked navigation opens: the router is still moving
   * the history back to where it was, and an entry pushed meanwhile would be lost in that move.
   */
  ownsHistoryEntry?: boolean;
};

/** Resolves true when confirmed, false when cancelled in any way. */
export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

export const ConfirmContext = createContext<Confirm | null>(null);

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs a ConfirmProvider above it.');
  return confirm;
}
