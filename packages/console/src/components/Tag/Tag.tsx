import type { ReactNode } from 'react';
import { classNames } from '../class-names.ts';
import styles from './Tag.module.css';

export type TagStatus = 'success' | 'warning' | 'error' | 'info' | 'neutral';

/** A short status label. The colour only repeats what the text says, so it never carries meaning alone. */
export function Tag({ status = 'neutral', children }: { status?: TagStatus; children: ReactNode }) {
  return (
    <span className={classNames(styles.tag, styles[status])} data-status={status}>
      <span className={styles.dot} aria-hidden="true" />
      {children}
    </span>
  );
}
