import { useTranslation } from 'react-i18next';
import { Button } from '../Button/Button.tsx';
import { ChevronEndIcon, ChevronStartIcon } from '../icons.tsx';
import styles from './Pagination.module.css';

export type PaginationProps = {
  /** 1-based, as the API's `page`. */
  page: number;
  pageSize: number;
  totalCount: number;
  onPageChange: (page: number) => void;
};

/** Positions of the current page's rows: {from: 21, to: 40} on page 2 of 20-row pages. */
export function pageRange(page: number, pageSize: number, totalCount: number) {
  if (totalCount <= 0) return { from: 0, to: 0, pageCount: 1 };
  return {
    from: (page - 1) * pageSize + 1,
    to: Math.min(page * pageSize, totalCount),
    pageCount: Math.max(1, Math.ceil(totalCount / pageSize)),
  };
}

export function Pagination({ page, pageSize, totalCount, onPageChange }: PaginationProps) {
  const { t, i18n } = useTranslation('components');
  const { from, to, pageCount } = pageRange(page, pageSize, totalCount);
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <nav className={styles.pagination} aria-label={t('pagination.label')}>
      <p className={styles.range}>
        {t('pagination.range', { from: number.format(from), to: number.format(to), total: number.format(totalCount) })}
      </p>
      <Button
        variant="text"
        size="small"
        aria-label={t('pagination.previous')}
        icon={<ChevronStartIcon className={styles.chevron} />}
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
      />
      <Button
        variant="text"
        size="small"
        aria-label={t('pagination.next')}
        icon={<ChevronEndIcon className={styles.chevron} />}
        disabled={page >= pageCount}
        onClick={() => onPageChange(page + 1)}
      />
    </nav>
  );
}
