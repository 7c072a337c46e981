import type { OrganizationApplication } from '@gatehouse/schemas';
import { useState } from 'react';
import {
  useAddToOrganization,
  useOrganizationApplications,
  useOrganizationPickerLoaders,
  useRemoveFromOrganization,
} from '../../../api/organizations.ts';
import { AssignModal } from '../../../components/AssignModal/AssignModal.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { useConfirmedRemoval } from '../../../components/Modal/use-confirmed-removal.ts';
import shared from '../../../components/shared.module.css';
import { serverErrorIds } from '../../../components/submit/server-errors.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Organizations.module.css';
import { EditRolesModal } from './EditRolesModal.tsx';
import { useOrganizationOutlet } from './organization-context.ts';
import { RoleChips } from './RoleChips.tsx';

/**
 * Spec §2.2 organizations/{id}/machine-to-machine: the machine-to-machine applications of the organization with their
 * organization roles; add, edit roles, remove.
 */
export function OrganizationApplications() {
  const { t } = useTranslation('organizations');
  const toast = useToast();
  const { organization } = useOrganizationOutlet();
  const { page, pageSize, search, setPage, setSearch } = useListParams();
  const applications = useOrganizationApplications(organization.id, { page, pageSize, search });
  const add = useAddToOrganization(organization.id, 'applications');
  const remove = useConfirmedRemoval(useRemoveFromOrganization(organization.id, 'applications').mutateAsync);
  const loaders = useOrganizationPickerLoaders(organization.id);
  const [isAdding, setAdding] = useState(false);
  const [editing, setEditing] = useState<OrganizationApplication>();
  const [knownApps, setKnownApps] = useState<ReadonlySet<string>>(new Set());
  const isAdded = (id: string) =>
    knownApps.has(id) || (applications.data?.items.some((application) => application.id === id) ?? false);

  const columns: TableColumn<OrganizationApplication>[] = [
    {
      key: 'name',
      title: t('applications.name'),
      render: (application) => (
        <span className={styles.personText}>
          <span>
            <UserText>{application.name}</UserText>
          </span>
          <span className={styles.muted}>{application.id}</span>
        </span>
      ),
    },
    {
      key: 'roles',
      title: t('applications.roles'),
      render: (application) => <RoleChips roles={application.organizationRoles} />,
    },
    {
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('actions')}</span>,
      className: styles.actionsCell,
      render: (application) => (
        <>
          <Button
            variant="text"
            size="small"
            aria-label={t('members.edit_roles_named', { name: application.name })}
            onClick={() => setEditing(application)}
          >
            {t('members.edit_roles')}
          </Button>
          <Button
            variant="text"
            size="small"
            aria-label={t('members.remove_named', { name: application.name })}
            onClick={() =>
              void remove(application.id, {
                title: t('applications.remove_title'),
                content: t('applications.remove_content', { name: application.name, organization: organization.name }),
                confirmText: t('remove'),
                done: t('applications.removed', { name: application.name }),
              })
            }
          >
            {t('remove')}
          </Button>
        </>
      ),
    },
  ];

  return (
    <>
      <Table
        aria-label={t('tabs.machine-to-machine')}
        columns={columns}
        rows={applications.data?.items}
        rowKey={(application) => application.id}
        isLoading={applications.isPending}
        error={applications.error}
        onRetry={() => void applications.refetch()}
        empty={<p className={styles.empty}>{search ? t('applications.no_match') : t('applications.empty')}</p>}
        search={{ onSearch: setSearch, defaultValue: search, placeholder: t('applications.search') }}
        toolbar={
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setAdding(true)}>
            {t('applications.add')}
          </Button>
        }
        pagination={{ page, pageSize, totalCount: applications.data?.total ?? 0, onPageChange: setPage }}
      />
      <AssignModal
        isOpen={isAdding}
        onClose={() => setAdding(false)}
        title={t('applications.add_title')}
        description={t('applications.add_description', { name: organization.name })}
        load={(query, signal) => loaders.applications(query, signal)}
        queryKey={loaders.key('applications')}
        itemKey={(application) => application.id}
        itemLabel={(application) => application.name}
        itemDetail={(application) => application.id}
        unavailableReason={(application) => (isAdded(application.id) ? t('applications.already_added') : undefined)}
        onAssign={async (picked) => {
          try {
            await add.mutateAsync(picked.map((application) => application.id));
          } catch (error) {
            const ids = serverErrorIds(error, 'organization.application_exists');
            if (ids?.length) setKnownApps((current) => new Set([...current, ...ids]));
            throw error;
          }
          toast.success(t('applications.added', { number: picked.length }));
        }}
        submitLabel={t('applications.add')}
      />
      {editing && (
        <EditRolesModal
          organizationId={organization.id}
          relation="applications"
          relatedId={editing.id}
          name={editing.name}
          held={editing.organizationRoles}
          onClose={() => setEditing(undefined)}
        />
      )}
    </>
  );
}
