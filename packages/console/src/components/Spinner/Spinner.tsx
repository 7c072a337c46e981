import { classNames } from '../class-names.ts';
import styles from './Spinner.module.css';

/** Decorative: whoever shows it also marks the busy element with aria-busy or a status text. */
export function Spinner({ className }: { className?: string }) {
  return <span className={classNames(styles.spinner, className)} aria-hidden="true" data-testid="spinner" />;
}
