/** The menu's own items, not those of a submenu open inside it. */
export function ownItems(list: HTMLElement): HTMLElement[] {
  return [
    ...list.querySelectorAll<HTMLElement>(':scope > [role^="menuitem"], :scope > [role="none"] > [role^="menuitem"]'),
  ];
}

/** Focuses the item at `index`; negative counts from the end, and the index wraps around. */
export function focusItem(list: HTMLElement, index: number): void {
  const items = ownItems(list);
  if (items.length === 0) return;
  items[((index % items.length) + items.length) % items.length]?.focus();
}

export function isRightToLeft(element: Element): boolean {
  return element.closest('[dir]')?.getAttribute('dir') === 'rtl';
}
