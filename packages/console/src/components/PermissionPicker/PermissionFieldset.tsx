import type { ReactNode } from 'react';
import styles from './PermissionFieldset.module.css';

/** A titled group holding a permission picker in a role's dialogs (create, assign), with an optional hint. */
export function PermissionFieldset({
  legend,
  hint,
  children,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <fieldset className={styles.permissions}>
      <legend className={styles.legend}>{legend}</legend>
      {hint && <p className={styles.hint}>{hint}</p>}
      {children}
    </fieldset>
  );
}
