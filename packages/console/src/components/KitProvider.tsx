import type { ReactNode } from 'react';
import { ConfirmProvider } from './Modal/ConfirmProvider.tsx';
import { ToastProvider } from './Toast/ToastProvider.tsx';
import type { Toaster } from './Toast/toaster.ts';

/** What the UI kit needs above the pages: one toast list and one confirm modal. Place it inside the i18n setup. */
export function KitProvider({ toaster, children }: { toaster?: Toaster; children: ReactNode }) {
  return (
    <ToastProvider toaster={toaster}>
      <ConfirmProvider>{children}</ConfirmProvider>
    </ToastProvider>
  );
}
