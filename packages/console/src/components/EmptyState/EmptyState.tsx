import type { IconNode } from 'lucide';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { SetIcon } from '../icons.tsx';
import styles from './EmptyState.module.css';

export type EmptyStateProps = {
  /** The area's icon (its sidebar item's), drawn large above the text; decoration. */
  icon?: IconNode;
  /** 'No applications yet'; left out when the description says it. */
  title?: ReactNode;
  /** One sentence on what the thing is for. */
  description: ReactNode;
  /** The first action, usually the page's create button; none where nothing can be created (logs). */
  action?: ReactNode;
  'data-testid'?: string;
};

/**
 * What a list with nothing in it yet says (issue 26): what the thing is for, and the first action. A search or filter
 * that finds nothing is not this: use `NoResults`, which makes no pitch.
 */
export function EmptyState({ icon, title, description, action, 'data-testid': testId }: EmptyStateProps) {
  return (
    <div className={styles.emptyState} data-testid={testId}>
      {icon && <SetIcon icon={icon} className={styles.icon} />}
      {title && <p className={styles.title}>{title}</p>}
      <p className={styles.description}>{description}</p>
      {action && <div className={styles.action}>{action}</div>}
    </div>
  );
}

/**
 * A search or filter that found nothing: 'No results for “…”' for a search, else the page's own words for its
 * filters (`children`). The searched text is isolated, so a right-to-left query does not reorder the sentence.
 */
export function NoResults({ search, children }: { search?: string; children?: ReactNode }) {
  const { t } = useTranslation('components');
  return (
    <p className={styles.noResults} data-testid="no-results">
      {search ? t('table.no_results_for', { search: `\u2068${search}\u2069` }) : children}
    </p>
  );
}
