import {
  type KeyboardEvent,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { classNames } from '../class-names.ts';
import styles from './Menu.module.css';
import type { MenuEntry } from './menu-entries.ts';
import { focusItem } from './menu-focus.ts';

/** Loaded on the first opening: the user menu sits on every page, and most page views never open it. */
const MenuList = lazy(() => import('./MenuList.tsx').then((module) => ({ default: module.MenuList })));

export type MenuButtonProps = {
  /** The button's accessible name ('Account menu'). */
  label: string;
  /** What the button shows (an avatar, an icon). */
  children: ReactNode;
  entries: readonly MenuEntry[];
  /** Shown above the items, outside the menu role (who is signed in). */
  header?: ReactNode;
  className?: string;
};

/**
 * The WAI-ARIA menu button: Enter, Space or ArrowDown open the menu on its first item, ArrowUp on its last; arrows,
 * Home and End move; Esc closes and returns to the button; Tab and a click outside close it.
 */
export function MenuButton({ label, children, entries, header, className }: MenuButtonProps) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, close]);

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  }

  return (
    <div ref={rootRef} className={classNames(styles.root, className)}>
      <button
        ref={buttonRef}
        type="button"
        className={styles.button}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={Boolean(open)}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={onButtonKeyDown}
      >
        {children}
      </button>
      {open && (
        <div className={styles.popup}>
          {header}
          <Suspense fallback={null}>
            <MenuList
              id={menuId}
              label={label}
              entries={entries}
              onClose={close}
              onMount={(list) => focusItem(list, open === 'first' ? 0 : -1)}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}
