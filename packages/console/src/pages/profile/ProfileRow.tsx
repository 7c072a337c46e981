import type { ReactNode } from 'react';
import styles from './Profile.module.css';

export type ProfileRowProps = {
  label: ReactNode;
  value: ReactNode;
  /** The row's change action. */
  action?: ReactNode;
};

/** One labelled value of a profile section, with its action at the end. */
export function ProfileRow({ label, value, action }: ProfileRowProps) {
  return (
    <div className={styles.row}>
      <dt className={styles.label}>{label}</dt>
      <dd className={styles.value}>{value}</dd>
      {action && <dd className={styles.action}>{action}</dd>}
    </div>
  );
}
