import type { OrganizationScope } from '@gatehouse/schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useOrganizationScopeLoader } from '../../api/organization-template.ts';
import { Checkbox } from '../../components/form/Checkbox.tsx';
import { Spinner } from '../../components/Spinner/Spinner.tsx';
import { Pagination } from '../../components/Table/Pagination.tsx';
import { SearchBox } from '../../components/Table/SearchBox.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './OrganizationScopePicker.module.css';

const pickerPageSize = 10;

export type OrganizationScopePicks = ReadonlyMap<string, OrganizationScope>;

export type OrganizationScopePickerProps = {
  picked: OrganizationScopePicks;
  onChange: (picked: OrganizationScopePicks) => void;
  /** Permissions that cannot be picked, with the reason (already assigned). */
  unavailable?: ReadonlyMap<string, string>;
};

/** Picks organization permissions: searched and paged on the server, picks kept across searches and pages. */
export function OrganizationScopePicker({ picked, onChange, unavailable }: OrganizationScopePickerProps) {
  const { t } = useTranslation('organization_template');
  const loader = useOrganizationScopeLoader();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const scopes = useQuery({
    queryKey: loader.key({ search, page }),
    queryFn: ({ signal }) => loader.load({ search, page, pageSize: pickerPageSize }, signal),
    placeholderData: keepPreviousData,
  });

  function toggle(scope: OrganizationScope) {
    const next = new Map(picked);
    if (next.has(scope.id)) next.delete(scope.id);
    else next.set(scope.id, scope);
    onChange(next);
  }

  const items = scopes.data?.items ?? [];
  const total = scopes.data?.total ?? 0;
  return (
    <div className={styles.picker}>
      <div className={styles.toolbar}>
        <SearchBox
          placeholder={t('scope_picker.search')}
          onSearch={(text) => {
            setSearch(text);
            setPage(1);
          }}
        />
        <span className={styles.count}>{t('scope_picker.picked', { number: picked.size })}</span>
      </div>
      <ul className={styles.list} aria-label={t('scope_picker.label')} aria-busy={scopes.isFetching}>
        {scopes.isLoading && (
          <li className={styles.state}>
            <Spinner /> {t('scope_picker.loading')}
          </li>
        )}
        {scopes.isError && <li className={styles.state}>{t('scope_picker.error')}</li>}
        {scopes.isSuccess && items.length === 0 && (
          <li className={styles.state}>{search ? t('scope_picker.no_match') : t('scope_picker.empty')}</li>
        )}
        {items.map((scope) => {
          const reason = unavailable?.get(scope.id);
          return (
            <li key={scope.id} className={styles.item}>
              <Checkbox
                checked={reason !== undefined || picked.has(scope.id)}
                disabled={reason !== undefined}
                onChange={() => toggle(scope)}
                label={
                  <span className={styles.itemText}>
                    <span>{scope.name}</span>
                    {(reason ?? scope.description) && (
                      <span className={styles.detail}>{reason ?? scope.description}</span>
                    )}
                  </span>
                }
              />
            </li>
          );
        })}
      </ul>
      {total > pickerPageSize && (
        <Pagination page={page} pageSize={pickerPageSize} totalCount={total} onPageChange={setPage} />
      )}
    </div>
  );
}
