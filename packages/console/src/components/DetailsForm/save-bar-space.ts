import { type RefObject, useLayoutEffect } from 'react';

/** Room kept between a control scrolled into view and the bar, in px (--space-2). */
const gap = 8;
const property = '--save-bar-space';
const shown = new Set<HTMLElement>();

/** The document's scroll padding at the bottom: the tallest save bar shown, and a little room (0 when none shows). */
function update(): void {
  const root = document.documentElement;
  const height = Math.max(0, ...[...shown].map((bar) => Math.ceil(bar.getBoundingClientRect().height)));
  if (shown.size === 0) root.style.removeProperty(property);
  else root.style.setProperty(property, `${height + gap}px`);
}

/**
 * The spacer of a sticky save bar (issue 40, item 8). While `bar` shows, the document's bottom scroll padding is its
 * height (theme.css reads --save-bar-space), so what the browser scrolls into view — a field reached with Tab, a field
 * with an error, a control a test or a screen reader moves to — stops above the bar instead of under it. When the bar
 * appears, the control that made the form dirty is moved above it if the bar now covers it, so it can be used again
 * at once (the bar is in the form's flow, so the end of the form is never under it).
 */
export function useSaveBarSpace(bar: RefObject<HTMLElement | null>, isShown: boolean): void {
  useLayoutEffect(() => {
    const element = bar.current;
    if (!isShown || !element) return;
    shown.add(element);
    update();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    observer?.observe(element);
    const active = document.activeElement;
    const form = element.closest('form');
    if (active instanceof HTMLElement && form?.contains(active) && !element.contains(active)) {
      active.scrollIntoView({ block: 'nearest' });
    }
    return () => {
      observer?.disconnect();
      shown.delete(element);
      update();
    };
  }, [bar, isShown]);
}
