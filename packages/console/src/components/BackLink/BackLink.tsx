import type { ReactNode } from 'react';
import { Link, type To } from 'react-router';
import { ArrowStartIcon } from '../icons.tsx';
import styles from './BackLink.module.css';

/** The link back to the page a page belongs to, above its title (detail pages, guides, editors, logs). */
export function BackLink({ to, children }: { to: To; children: ReactNode }) {
  return (
    <Link to={to} className={styles.back}>
      <ArrowStartIcon className={styles.icon} />
      {children}
    </Link>
  );
}
