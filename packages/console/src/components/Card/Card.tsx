import { type ReactNode, useId } from 'react';
import { classNames } from '../class-names.ts';
import styles from './Card.module.css';

export type CardProps = {
  title?: ReactNode;
  description?: ReactNode;
  /** Buttons or links at the end of the card's header. */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
};

/** A titled section of a page; the title names the section for screen readers. */
export function Card({ title, description, actions, className, children }: CardProps) {
  const titleId = useId();
  return (
    <section className={classNames(styles.card, className)} aria-labelledby={title ? titleId : undefined}>
      {(title || actions) && (
        <header className={styles.header}>
          <div>
            {title && (
              <h2 id={titleId} className={styles.title}>
                {title}
              </h2>
            )}
            {description && <p className={styles.description}>{description}</p>}
          </div>
          {actions && <div className={styles.actions}>{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
