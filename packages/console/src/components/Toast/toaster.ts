import type { ReactNode } from 'react';

export type ToastKind = 'success' | 'error';
export type Toast = { id: number; kind: ToastKind; message: ReactNode; durationMs: number };
export type ToastOptions = { durationMs?: number };

/** Errors stay longer: they are read more carefully and often copied. */
export const defaultToastDurationMs: Record<ToastKind, number> = { success: 3000, error: 5000 };

export type Toaster = {
  success: (message: ReactNode, options?: ToastOptions) => number;
  error: (message: ReactNode, options?: ToastOptions) => number;
  dismiss: (id: number) => void;
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => readonly Toast[];
};

/**
 * A store outside React, so code that is not a component (the query client's global error handler) can toast
 * through the same list the ToastProvider shows.
 */
export function createToaster(): Toaster {
  let toasts: readonly Toast[] = [];
  let lastId = 0;
  const listeners = new Set<() => void>();
  const publish = (next: readonly Toast[]) => {
    toasts = next;
    for (const listener of listeners) listener();
  };
  const show = (kind: ToastKind, message: ReactNode, options: ToastOptions = {}) => {
    lastId += 1;
    publish([...toasts, { id: lastId, kind, message, durationMs: options.durationMs ?? defaultToastDurationMs[kind] }]);
    return lastId;
  };
  return {
    success: (message, options) => show('success', message, options),
    error: (message, options) => show('error', message, options),
    dismiss: (id) => publish(toasts.filter((toast) => toast.id !== id)),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => toasts,
  };
}
