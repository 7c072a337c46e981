import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useOrganizationPickerLoaders, useSetOrganizationRoles } from '../../../api/organizations.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Checkbox } from '../../../components/form/Checkbox.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { Pagination } from '../../../components/Table/Pagination.tsx';
import { SearchBox } from '../../../components/Table/SearchBox.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Organizations.module.css';

const pageSize = 10;

type Props = {
  organizationId: string;
  /** Members hold User roles, applications MachineToMachine ones (the API refuses the other type). */
  relation: 'users' | 'applications';
  relatedId: string;
  /** Who the roles are for, as the title names them. */
  name: string;
  held: readonly { id: string; name: string }[];
  onClose: () => void;
};

/**
 * The organization roles a member or an application holds: the held ones start ticked; the organization roles of
 * the matching type are searched and paged on the server. Saving replaces the set (PUT …/roles).
 */
export function EditRolesModal({ organizationId, relation, relatedId, name, held, onClose }: Props) {
  const { t } = useTranslation('organizations');
  const toast = useToast();
  const loaders = useOrganizationPickerLoaders(organizationId);
  const save = useSetOrganizationRoles(organizationId, relation);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set(held.map((role) => role.id)));
  const type = relation === 'users' ? 'User' : 'MachineToMachine';
  const roles = useQuery({
    queryKey: loaders.key('roles', type, { search, page }),
    queryFn: ({ signal }) => loaders.roles(type, { search, page, pageSize }, signal),
    placeholderData: keepPreviousData,
  });

  function toggle(id: string) {
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function submit() {
    try {
      await save.mutateAsync({ relatedId, roleIds: [...picked] });
    } catch {
      return; // The API layer has shown the error; the choice stays for a retry.
    }
    toast.success(t('roles.saved', { name }));
    onClose();
  }

  const items = roles.data?.items ?? [];
  const total = roles.data?.total ?? 0;
  return (
    <Modal
      isOpen
      onClose={onClose}
      title={t('roles.title', { name })}
      footer={
        <>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button variant="primary" isLoading={save.isPending} onClick={() => void submit()}>
            {t('roles.save')}
          </Button>
        </>
      }
    >
      <div className={styles.form}>
        <p className={styles.muted}>{t(relation === 'users' ? 'roles.description_users' : 'roles.description_apps')}</p>
        <SearchBox
          placeholder={t('roles.search')}
          onSearch={(text) => {
            setSearch(text);
            setPage(1);
          }}
        />
        <ul className={styles.checkList} aria-label={t('roles.list')} aria-busy={roles.isFetching}>
          {roles.isLoading && (
            <li>
              <Spinner />
            </li>
          )}
          {roles.isSuccess && items.length === 0 && <li className={styles.muted}>{t('roles.none')}</li>}
          {items.map((role) => (
            <li key={role.id}>
              <Checkbox
                checked={picked.has(role.id)}
                onChange={() => toggle(role.id)}
                label={
                  <span className={styles.personText}>
                    <span>{role.name}</span>
                    {role.description && <span className={styles.muted}>{role.description}</span>}
                  </span>
                }
              />
            </li>
          ))}
        </ul>
        {pageSize < total && <Pagination page={page} pageSize={pageSize} totalCount={total} onPageChange={setPage} />}
      </div>
    </Modal>
  );
}
