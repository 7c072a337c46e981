import type { Resource, RoleType, Scope } from '@gatehouse/schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { usePermissionPickerLoaders } from '../../api/permission-picker.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { classNames } from '../class-names.ts';
import { Checkbox } from '../form/Checkbox.tsx';
import { ChevronEndIcon, CloseIcon } from '../icons.tsx';
import { Spinner } from '../Spinner/Spinner.tsx';
import { Pagination } from '../Table/Pagination.tsx';
import { SearchBox } from '../Table/SearchBox.tsx';
import { isManagementApi } from './built-in-resources.ts';
import styles from './PermissionPicker.module.css';

/** Resources and scopes a page: enough to scan, few enough for one screen. */
const pickerPageSize = 10;

/** A picked permission and the API it belongs to, for the list of picks. */
export type PickedPermission = { scope: Scope; resource: Resource };
export type PermissionPicks = ReadonlyMap<string, PickedPermission>;

export type PermissionPickerProps = {
  roleType: RoleType;
  /** Where the picker's pages are cached, under the role they are for (a write there refreshes them). */
  cacheKey: readonly unknown[];
  picked: PermissionPicks;
  onChange: (picked: PermissionPicks) => void;
  /** Permissions that cannot be picked, with the reason (already assigned). */
  unavailable?: ReadonlyMap<string, string>;
};

/**
 * Picks permissions of API resources: the resources are searched and paged on the server, and only the one resource
 * the user opens loads its scopes (searched and paged too), so no request ever asks for every scope of a tenant.
 */
export function PermissionPicker({ roleType, cacheKey, picked, onChange, unavailable }: PermissionPickerProps) {
  const { t } = useTranslation(['components_extra', 'components']);
  const loaders = usePermissionPickerLoaders(cacheKey);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string>();
  const resources = useQuery({
    queryKey: loaders.key('resources', { search, page }),
    queryFn: ({ signal }) => loaders.resources({ search, page, pageSize: pickerPageSize }, signal),
    placeholderData: keepPreviousData,
  });

  function toggle(permission: PickedPermission) {
    const next = new Map(picked);
    if (next.has(permission.scope.id)) next.delete(permission.scope.id);
    else next.set(permission.scope.id, permission);
    onChange(next);
  }

  const items = resources.data?.items ?? [];
  const resourceTotal = resources.data?.total ?? 0;
  const hasMoreResources = pickerPageSize < resourceTotal;
  return (
    <div className={styles.columns}>
      <div className={styles.candidates}>
        <SearchBox
          placeholder={t('permission_picker.search_resources')}
          onSearch={(text) => {
            setSearch(text);
            setPage(1);
          }}
        />
        <ul className={styles.list} aria-label={t('permission_picker.resources')} aria-busy={resources.isFetching}>
          {resources.isLoading && (
            <li className={styles.state}>
              <Spinner /> {t('permission_picker.loading')}
            </li>
          )}
          {resources.isError && <li className={styles.state}>{t('permission_picker.error')}</li>}
          {resources.isSuccess && items.length === 0 && (
            <li className={styles.state}>
              {search ? t('permission_picker.no_resources_match') : t('permission_picker.no_resources')}
            </li>
          )}
          {items.map((resource) => (
            <ResourceItem
              key={resource.id}
              resource={resource}
              isOpen={openId === resource.id}
              onToggleOpen={() => setOpenId((current) => (current === resource.id ? undefined : resource.id))}
              blockedReason={
                roleType === 'User' && isManagementApi(resource.indicator)
                  ? t('permission_picker.management_api')
                  : undefined
              }
              cacheKey={cacheKey}
              picked={picked}
              unavailable={unavailable}
              onToggle={(scope) => toggle({ scope, resource })}
            />
          ))}
        </ul>
        {hasMoreResources && (
          <Pagination page={page} pageSize={pickerPageSize} totalCount={resourceTotal} onPageChange={setPage} />
        )}
      </div>
      <section className={styles.picked} aria-label={t('permission_picker.picked', { number: picked.size })}>
        <h3 className={styles.pickedTitle}>{t('permission_picker.picked', { number: picked.size })}</h3>
        <ul className={styles.list}>
          {[...picked.values()].map((permission) => (
            <li key={permission.scope.id} className={styles.pickedItem}>
              <span className={styles.itemText}>
                <span>{permission.scope.name}</span>
                <span className={styles.detail}>{permission.resource.name}</span>
              </span>
              <button
                type="button"
                className={styles.unpick}
                onClick={() => toggle(permission)}
                aria-label={t('permission_picker.unpick', {
                  name: permission.scope.name,
                  resource: permission.resource.name,
                })}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

type ResourceItemProps = {
  resource: Resource;
  cacheKey: readonly unknown[];
  isOpen: boolean;
  onToggleOpen: () => void;
  /** Why none of this resource's scopes can go to this role, if so. */
  blockedReason: string | undefined;
  picked: PermissionPicks;
  unavailable: ReadonlyMap<string, string> | undefined;
  onToggle: (scope: Scope) => void;
};

function ResourceItem({ resource, isOpen, onToggleOpen, blockedReason, ...scopeProps }: ResourceItemProps) {
  const scopesId = useId();
  return (
    <li className={styles.resource}>
      <button
        type="button"
        className={styles.resourceToggle}
        aria-expanded={isOpen}
        aria-controls={isOpen ? scopesId : undefined}
        onClick={onToggleOpen}
      >
        <ChevronEndIcon className={classNames(styles.chevron, isOpen && styles.chevronOpen)} />
        <span className={styles.itemText}>
          <span className={styles.resourceName}>{resource.name}</span>
          <span className={styles.detail}>{resource.indicator}</span>
        </span>
      </button>
      {isOpen && (
        <div id={scopesId} className={styles.scopes}>
          <ResourceScopes resource={resource} blockedReason={blockedReason} {...scopeProps} />
        </div>
      )}
    </li>
  );
}

function ResourceScopes({
  resource,
  cacheKey,
  blockedReason,
  picked,
  unavailable,
  onToggle,
}: Omit<ResourceItemProps, 'isOpen' | 'onToggleOpen'>) {
  const { t } = useTranslation(['components_extra', 'components']);
  const loaders = usePermissionPickerLoaders(cacheKey);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const scopes = useQuery({
    queryKey: loaders.key('scopes', resource.id, { search, page }),
    queryFn: ({ signal }) => loaders.scopes(resource.id, { search, page, pageSize: pickerPageSize }, signal),
    placeholderData: keepPreviousData,
  });
  const items = scopes.data?.items ?? [];
  const scopeTotal = scopes.data?.total ?? 0;
  const hasMoreScopes = pickerPageSize < scopeTotal;
  return (
    <>
      {blockedReason && <p className={styles.note}>{blockedReason}</p>}
      <SearchBox
        placeholder={t('permission_picker.search_scopes')}
        onSearch={(text) => {
          setSearch(text);
          setPage(1);
        }}
      />
      <ul
        className={styles.scopeList}
        aria-label={t('permission_picker.scopes_of', { resource: resource.name })}
        aria-busy={scopes.isFetching}
      >
        {scopes.isLoading && (
          <li className={styles.state}>
            <Spinner /> {t('permission_picker.loading')}
          </li>
        )}
        {scopes.isError && <li className={styles.state}>{t('permission_picker.error')}</li>}
        {scopes.isSuccess && items.length === 0 && (
          <li className={styles.state}>
            {search ? t('permission_picker.no_scopes_match') : t('permission_picker.no_scopes')}
          </li>
        )}
        {items.map((scope) => {
          const assignedReason = unavailable?.get(scope.id);
          const reason = assignedReason ?? (blockedReason ? t('permission_picker.not_for_user_roles') : undefined);
          return (
            <li key={scope.id} className={styles.item}>
              <Checkbox
                // Already assigned reads as ticked; blocked as not.
                checked={assignedReason !== undefined || (reason === undefined && picked.has(scope.id))}
                disabled={reason !== undefined}
                onChange={() => onToggle(scope)}
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
      {hasMoreScopes && (
        <Pagination page={page} pageSize={pickerPageSize} totalCount={scopeTotal} onPageChange={setPage} />
      )}
    </>
  );
}
