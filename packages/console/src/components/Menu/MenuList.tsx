import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { CheckIcon, ChevronEndIcon, ExternalLinkIcon } from '../icons.tsx';
import { Spinner } from '../Spinner/Spinner.tsx';
import styles from './Menu.module.css';
import { isPromiseLike, type MenuEntry, submenuCloseDelayMs, submenuOpenDelayMs } from './menu-entries.ts';
import { focusItem, isRightToLeft, ownItems } from './menu-focus.ts';

export type MenuListProps = {
  id?: string;
  label: string;
  entries: readonly MenuEntry[];
  /** Closes the whole menu; `returnFocus` puts the focus back on the menu button. */
  onClose: (returnFocus: boolean) => void;
  /** Called once the list is in the document, to place the focus. */
  onMount: (list: HTMLDivElement) => void;
  /** For a submenu: close only it (ArrowLeft in left-to-right, Esc). */
  onCloseSubmenu?: () => void;
  isSubmenu?: boolean;
};

export function MenuList({ id, label, entries, onClose, onMount, onCloseSubmenu, isSubmenu = false }: MenuListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const [busyId, setBusyId] = useState<string>();
  const onMountRef = useRef(onMount);

  useEffect(() => {
    if (listRef.current) onMountRef.current(listRef.current);
  }, []);

  // One item is reachable in the tab order (roving tabindex), so a scrolling menu is keyboard-reachable too.
  const tabStop =
    entries.find((entry) => entry.kind === 'radio' && entry.checked)?.id ??
    entries.find((entry) => entry.kind !== 'separator')?.id;
  const tabIndex = (entry: MenuEntry) => (entry.id === tabStop ? 0 : -1);

  function select(entry: Extract<MenuEntry, { kind: 'action' | 'radio' }>) {
    if (busyId) return; // A running action (sign-out) blocks repeats and every other item.
    const result = entry.onSelect();
    if (entry.kind === 'action' && isPromiseLike(result)) {
      setBusyId(entry.id);
      void Promise.resolve(result).then(
        () => onClose(true),
        () => setBusyId(undefined),
      );
      return;
    }
    onClose(true);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const list = listRef.current;
    if (!list) return;
    const items = ownItems(list);
    const current = items.indexOf(document.activeElement as HTMLElement);
    if (current === -1) return; // The key belongs to a submenu inside this list.
    const back = isRightToLeft(list) ? 'ArrowRight' : 'ArrowLeft';
    switch (event.key) {
      case 'ArrowDown':
        focusItem(list, current + 1);
        break;
      case 'ArrowUp':
        focusItem(list, current - 1);
        break;
      case 'Home':
        focusItem(list, 0);
        break;
      case 'End':
        focusItem(list, -1);
        break;
      case 'Escape':
        if (isSubmenu) onCloseSubmenu?.();
        else onClose(true);
        break;
      case back:
        if (!isSubmenu) return;
        onCloseSubmenu?.();
        break;
      case 'Tab':
        onClose(false);
        return; // The browser moves the focus on, out of the closed menu.
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  return (
    <div
      ref={listRef}
      id={id}
      role="menu"
      aria-label={label}
      tabIndex={-1}
      className={isSubmenu ? styles.submenu : styles.menu}
      onKeyDown={onKeyDown}
    >
      {entries.map((entry) => {
        if (entry.kind === 'separator') return <hr key={entry.id} className={styles.separator} />;
        if (entry.kind === 'submenu') {
          return <SubmenuItem key={entry.id} entry={entry} onClose={onClose} tabIndex={tabIndex(entry)} />;
        }
        if (entry.kind === 'link') {
          return (
            <a
              key={entry.id}
              role="menuitem"
              tabIndex={tabIndex(entry)}
              className={styles.item}
              href={entry.href}
              target={entry.newTab ? '_blank' : undefined}
              rel={entry.newTab ? 'noopener noreferrer' : undefined}
              aria-disabled={busyId ? true : undefined}
              onClick={(event) => {
                if (busyId) event.preventDefault();
                else onClose(false);
              }}
            >
              <span className={styles.icon}>{entry.icon}</span>
              <span className={styles.label}>{entry.label}</span>
              {entry.newTab && <ExternalLinkIcon className={styles.trailing} />}
            </a>
          );
        }
        if (entry.kind === 'radio') {
          return (
            <button
              key={entry.id}
              type="button"
              role="menuitemradio"
              aria-checked={entry.checked}
              aria-disabled={busyId ? true : undefined}
              tabIndex={tabIndex(entry)}
              className={styles.item}
              onClick={() => select(entry)}
            >
              <span className={styles.icon}>{entry.checked && <CheckIcon />}</span>
              <span className={styles.label}>{entry.label}</span>
            </button>
          );
        }
        const isBusy = busyId === entry.id;
        return (
          <button
            key={entry.id}
            type="button"
            role="menuitem"
            aria-disabled={busyId ? true : undefined}
            aria-busy={isBusy || undefined}
            tabIndex={tabIndex(entry)}
            className={styles.item}
            onClick={() => select(entry)}
          >
            <span className={styles.icon}>{isBusy ? <Spinner /> : entry.icon}</span>
            <span className={styles.label}>{entry.label}</span>
          </button>
        );
      })}
    </div>
  );
}

type SubmenuItemProps = {
  entry: Extract<MenuEntry, { kind: 'submenu' }>;
  onClose: (returnFocus: boolean) => void;
  tabIndex: number;
};

/**
 * An item that opens a submenu: after 300 ms of hover (closing 100 ms after the pointer leaves both the item and the
 * submenu, spec §2.5), or at once with Enter, Space or the arrow pointing into it.
 */
export function SubmenuItem({ entry, onClose, tabIndex }: SubmenuItemProps) {
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
