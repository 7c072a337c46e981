import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ChevronEndIcon } from '../icons.tsx';
import styles from './Menu.module.css';
import { MenuList } from './MenuList.tsx';
import { type MenuEntry, submenuCloseDelayMs, submenuOpenDelayMs } from './menu-entries.ts';
import { focusItem, isRightToLeft, ownItems } from './menu-focus.ts';

type Props = {
  entry: Extract<MenuEntry, { kind: 'submenu' }>;
  onClose: (returnFocus: boolean) => void;
  tabIndex: number;
};

/**
 * An item that opens a submenu: after 300 ms of hover (closing 100 ms after the pointer leaves both the item and the
 * submenu, spec §2.5), or at once with Enter, Space or the arrow pointing into it.
 */
export function SubmenuItem({ entry, onClose, tabIndex }: Props) {
  const [open, setOpen] = useState<false | 'hover' | 'keyboard'>(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const triggerRef = useRef<HTMLButtonElement>(null);

  useEffect(() => () => clearTimeout(timer.current), []);

  function later(action: () => void, delayMs: number) {
    clearTimeout(timer.current);
    timer.current = setTimeout(action, delayMs);
  }

  function onPointerEnter() {
    if (open) clearTimeout(timer.current);
    else later(() => setOpen('hover'), submenuOpenDelayMs);
  }

  function onPointerLeave() {
    if (open) later(() => setOpen(false), submenuCloseDelayMs);
    else clearTimeout(timer.current);
  }

  function openByKeyboard() {
    clearTimeout(timer.current);
    setOpen('keyboard');
  }

  function closeSubmenu() {
    clearTimeout(timer.current);
    setOpen(false);
    triggerRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const into = isRightToLeft(event.currentTarget) ? 'ArrowLeft' : 'ArrowRight';
    if (event.key === into || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      openByKeyboard();
    }
  }

  return (
    <div role="none" className={styles.submenuRoot} onPointerEnter={onPointerEnter} onPointerLeave={onPointerLeave}>
      <button
        ref={triggerRef}
        type="button"
        role="menuitem"
        aria-haspopup="menu"
        aria-expanded={Boolean(open)}
        tabIndex={tabIndex}
        className={styles.item}
        onKeyDown={onKeyDown}
        onClick={openByKeyboard}
      >
        <span className={styles.icon}>{entry.icon}</span>
        <span className={styles.label}>{entry.label}</span>
        {entry.hint && <span className={styles.hint}>{entry.hint}</span>}
        <ChevronEndIcon className={styles.chevron} />
      </button>
      {open && (
        <MenuList
          label={entry.label}
          entries={entry.entries}
          isSubmenu
          onClose={onClose}
          onCloseSubmenu={closeSubmenu}
          onMount={(list) => {
            // Hover shows the submenu without taking the focus from where the keyboard left it.
            if (open === 'keyboard') {
              const checked = ownItems(list).findIndex((item) => item.getAttribute('aria-checked') === 'true');
              focusItem(list, Math.max(checked, 0));
            }
          }}
        />
      )}
    </div>
  );
}
