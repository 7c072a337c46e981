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
};

/** Resolves true when confirmed, false when cancelled in any way. */
export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

export const ConfirmContext = createContext<Confirm | null>(null);

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs a ConfirmProvider above it.');
  return confirm;
}
