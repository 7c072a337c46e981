import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { Page } from '../../api/client.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { Button } from '../Button/Button.tsx';
import { Checkbox } from '../form/Checkbox.tsx';
import { CloseIcon } from '../icons.tsx';
import { Modal } from '../Modal/Modal.tsx';
import { Spinner } from '../Spinner/Spinner.tsx';
import { Pagination } from '../Table/Pagination.tsx';
import { SearchBox } from '../Table/SearchBox.tsx';
import styles from './AssignModal.module.css';

/** Rows per page of candidates: enough to scan, few enough for one screen. */
export const assignPageSize = 10;

export type AssignModalProps<Item> = {
  isOpen: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** Server-side search: never fetches every candidate (a tenant can have a million users). */
  load: (query: { search: string; page: number; pageSize: number }, signal: AbortSignal) => Promise<Page<Item>>;
  /** Identifies the candidate list in the query cache; search and page are added to it. */
  queryKey: readonly unknown[];
  itemKey: (item: Item) => string;
  itemLabel: (item: Item) => string;
  itemDetail?: (item: Item) => ReactNode;
  /** Candidates that cannot be picked (already assigned), shown greyed with the reason. */
  unavailableReason?: (item: Item) => string | undefined;
  /** Resolves once the assignment is saved; the modal then closes. A rejection keeps it open. */
  onAssign: (items: readonly Item[]) => Promise<unknown>;
  submitLabel: ReactNode;
};

/**
 * Picks entities to assign (users to a role, roles to an application): searches on the server as the user types,
 * pages through the matches, and keeps the picks across searches so they can be gathered from several queries.
 */
export function AssignModal<Item>(props: AssignModalProps<Item>) {
  if (!props.isOpen) return null;
  return <AssignDialog {...props} />;
}

function AssignDialog<Item>({
  onClose,
  title,
  description,
  load,
  queryKey,
  itemKey,
  itemLabel,
  itemDetail,
  unavailableReason,
  onAssign,
  submitLabel,
}: AssignModalProps<Item>) {
  const { t } = useTranslation('components');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<ReadonlyMap<string, Item>>(new Map());
  const [isSaving, setSaving] = useState(false);
  const candidates = useQuery({
    queryKey: [...queryKey, 'candidates', { search, page }],
    queryFn: ({ signal }) => load({ search, page, pageSize: assignPageSize }, signal),
    placeholderData: keepPreviousData,
    // Who can be picked changes with every assignment, and a search racing the assignment can cache a candidate
    // that is no longer one: each opening asks the server afresh instead of showing what a closed dialog cached.
    staleTime: 0,
    gcTime: 0,
  });

  function toggle(item: Item) {
    setPicked((current) => {
      const next = new Map(current);
      const key = itemKey(item);
      if (next.has(key)) next.delete(key);
      else next.set(key, item);
      return next;
    });
  }

  async function assign() {
    setSaving(true);
    try {
      await onAssign([...picked.values()]);
      onClose();
    } catch {
      // The API layer has shown the error; the picks stay so the user can retry.
    } finally {
      setSaving(false);
    }
  }

  const items = candidates.data?.items ?? [];
  const total = candidates.data?.total ?? 0;
  // Compared with '<': a '>' before JSX reads to the literal-text check as text between tags.
  const hasMorePages = assignPageSize < total;
  return (
    <Modal
      isOpen
      onClose={onClose}
      title={title}
      size="large"
      footer={
        <>
          <Button onClick={onClose}>{t('confirm.cancel')}</Button>
          <Button variant="primary" disabled={picked.size === 0} isLoading={isSaving} onClick={assign}>
            {submitLabel}
          </Button>
        </>
      }
    >
      {description && <p className={styles.description}>{description}</p>}
      <div className={styles.columns}>
        <div className={styles.candidates}>
          <SearchBox
            onSearch={(text) => {
              setSearch(text);
              setPage(1);
            }}
          />
          <ul className={styles.list} aria-label={t('assign.candidates')} aria-busy={candidates.isFetching}>
            {candidates.isLoading && (
              <li className={styles.state}>
                <Spinner /> {t('loading')}
              </li>
            )}
            {candidates.isError && <li className={styles.state}>{t('table.error')}</li>}
            {candidates.isSuccess && items.length === 0 && <li className={styles.state}>{t('table.empty')}</li>}
            {items.map((item) => {
              const reason = unavailableReason?.(item);
              return (
                <li key={itemKey(item)} className={styles.item}>
                  <Checkbox
                    checked={reason !== undefined || picked.has(itemKey(item))}
                    disabled={reason !== undefined}
                    onChange={() => toggle(item)}
                    label={
                      <span className={styles.itemText}>
                        <span>{itemLabel(item)}</span>
                        {(reason ?? itemDetail) && (
                          <span className={styles.detail}>{reason ?? itemDetail?.(item)}</span>
                        )}
                      </span>
                    }
                  />
                </li>
              );
            })}
          </ul>
          {hasMorePages && (
            <Pagination page={page} pageSize={assignPageSize} totalCount={total} onPageChange={setPage} />
          )}
        </div>
        <section className={styles.picked} aria-label={t('assign.picked', { number: picked.size })}>
          <h3 className={styles.pickedTitle}>{t('assign.picked', { number: picked.size })}</h3>
          <ul className={styles.list}>
            {[...picked.entries()].map(([key, item]) => (
              <li key={key} className={styles.pickedItem}>
                <span>{itemLabel(item)}</span>
                <button
                  type="button"
                  className={styles.unpick}
                  onClick={() => toggle(item)}
                  aria-label={t('assign.unpick', { name: itemLabel(item) })}
                >
                  <CloseIcon />
                </button>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </Modal>
  );
}
