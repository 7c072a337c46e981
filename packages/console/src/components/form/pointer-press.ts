import { useSyncExternalStore } from 'react';

/**
 * Whether a pointer is pressed anywhere in the document, and stays "pressed" until the click that press makes has
 * been dispatched. Field errors hold their place while it is true (FieldError), so a press on a button that blurs a
 * field, which re-validates it, never moves the button out from under the pointer before the release (issue 26: the
 * corrected redirect URI's error line vanished on the press on Create, the button jumped 25 px, and no click came).
 */
let pressed = false;
const listeners = new Set<() => void>();
let installed = false;

function set(next: boolean) {
  if (pressed === next) return;
  pressed = next;
  for (const listener of listeners) listener();
}

function install() {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  const press = () => set(true);
  // The click follows pointerup in the same task; a timer releases after it, so the click meets the held layout.
  const release = () => setTimeout(() => set(false), 0);
  document.addEventListener('pointerdown', press, { capture: true });
  document.addEventListener('pointerup', release, { capture: true });
  document.addEventListener('pointercancel', release, { capture: true });
  // A press whose release happened outside the window (dragged out) must not hold the errors for ever.
  window.addEventListener('blur', release);
}

function subscribe(listener: () => void) {
  install();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePointerPressed(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => pressed,
    () => false,
  );
}
