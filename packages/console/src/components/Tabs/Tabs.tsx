import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { classNames } from '../class-names.ts';
import styles from './Tabs.module.css';

export type TabItem = {
  to: string;
  label: ReactNode;
  /** Active only on this exact path, not on paths below it. */
  end?: boolean;
};

/**
 * Tabs are routes (STYLE.md): each is a link with its own URL, so it can be bookmarked, opened in a new tab and
 * reached with Back. NavLink marks the current one with aria-current="page".
 */
export function Tabs({ items, 'aria-label': ariaLabel }: { items: readonly TabItem[]; 'aria-label': string }) {
  return (
    <nav aria-label={ariaLabel} className={styles.tabs}>
      <ul className={styles.list}>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) => classNames(styles.tab, isActive && styles.active)}
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
