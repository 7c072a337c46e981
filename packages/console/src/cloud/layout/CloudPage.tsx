import type { ReactNode } from 'react';
import { LogoMark } from '../../components/Logo.tsx';
import styles from './CloudPage.module.css';

/** A tenant-less cloud page: its own main landmark (there is no shell), the logo and one card. */
export function CloudPage({
  title,
  subtitle,
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <LogoMark className={styles.logo} />
        <h1 className={styles.title}>{title}</h1>
        {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        {children}
      </div>
    </main>
  );
}

export { styles as cloudPageStyles };
