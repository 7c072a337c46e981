import { useTranslation } from '../../i18n/react.tsx';
import { Button } from '../Button/Button.tsx';
import { ChevronEndIcon, ChevronStartIcon } from '../icons.tsx';
import styles from './Pagination.module.css';

export type PaginationProps = {
  /** 1-based, as the API's `page`. */
  page: number;
  pageSize: number;
  totalCount: number;
  onPageChange: (page: number) => void;
  /**
   * The server stopped counting (`Total-Number-Is-Capped`): `totalCount` is a lower bound, shown as '10,000+', and
   * there is a next page as long as this one is full, so give `pageRowCount` too.
   */
  isTotalCapped?: boolean;
  /** Rows on the current page; with a capped total it decides whether a next page exists. */
  pageRowCount?: number;
  /** Its navigation's name where a page has several lists ('Pages of provisioned users'); 'Pagination' otherwise. */
  label?: string;
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

/**
 * The same for a capped total, which is only a lower bound: the rows on the page say where it ends and whether
 * another follows (a full page may be followed by more; a short one is the last).
 */
export function cappedPageRange(page: number, pageSize: number, pageRowCount: number | undefined) {
  const rows = pageRowCount ?? pageSize;
  const from = rows > 0 ? (page - 1) * pageSize + 1 : 0;
  return { from, to: rows > 0 ? from + rows - 1 : 0, hasNext: rows >= pageSize };
}

export function Pagination({
  page,
  pageSize,
  totalCount,
  onPageChange,
  isTotalCapped,
  pageRowCount,
  label,
}: PaginationProps) {
  const { t, i18n } = useTranslation('components');
  const number = new Intl.NumberFormat(i18n.language);
  const exact = pageRange(page, pageSize, totalCount);
  const capped = isTotalCapped ? cappedPageRange(page, pageSize, pageRowCount) : undefined;
  const values = {
    from: number.format(capped?.from ?? exact.from),
    to: number.format(capped?.to ?? exact.to),
    total: number.format(totalCount),
  };
  return (
    <nav className={styles.pagination} aria-label={label ?? t('pagination.label')}>
      <p className={styles.range}>{capped ? t('pagination.range_capped', values) : t('pagination.range', values)}</p>
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
        disabled={capped ? !capped.hasNext : page >= exact.pageCount}
        onClick={() => onPageChange(page + 1)}
      />
    </nav>
  );
}
