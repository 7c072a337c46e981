import type { ReactNode } from 'react';

/** Spec §9: a submenu opens after 300 ms of hover and closes 100 ms after the pointer leaves. */
export const submenuOpenDelayMs = 300;
export const submenuCloseDelayMs = 100;

type Common = { id: string; label: string; icon?: ReactNode };

/** What a menu holds, as data: the menu draws and drives it (keys, focus, timings) the same way everywhere. */
export type MenuEntry =
  /** When onSelect returns a promise, the item shows a spinner, ignores further clicks and the menu waits for it. */
  | (Common & { kind: 'action'; onSelect: () => unknown })
  | (Common & { kind: 'link'; href: string; newTab?: boolean })
  /** One choice among its siblings; choosing it closes the menu. */
  | (Common & { kind: 'radio'; checked: boolean; onSelect: () => unknown })
  /** `hint` shows the current value beside the label ('English'). */
  | (Common & { kind: 'submenu'; hint?: ReactNode; entries: readonly MenuEntry[] })
  | { kind: 'separator'; id: string };

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && 'then' in value && typeof value.then === 'function';
}
