import type { OrganizationWithRoles } from '@gatehouse/schemas';
import { useRemoveUserFromOrganization, useUserOrganizations } from '../../../api/users.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useListParams } from '../../../components/Table/use-list-params.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { userDisplayName } from '../user-display.ts';
import styles from './Tabs.module.css';
import { useUserOutlet } from './user-context.ts';

/**
 * Spec §2.2 users/{id}/organizations: the organizations the user belongs to and the organization roles held in each
 * (GET /users/{id}/organizations, paged), with removal from one after a confirmation. Memberships are added from the
 * organization's side.
 */
export function UserOrganizations() {
  const { t } = useTranslation('users');
  const { user } = useUserOutlet();
  const { page, pageSize, setPage } = useListParams();
  const organizations = useUserOrganizations(user.id, { page, pageSize });
  const remove = useRemoveUserFromOrganization(user.id);
  const confirm = useConfirm();
  const toast = useToast();
  const name = userDisplayName(user) ?? user.id;

  async function leave(organization: OrganizationWithRoles) {
    const isConfirmed = await confirm({
      title: t('organizations.remove_title'),
      content: t('organizations.remove_content', { name, organization: organization.name }),
      confirmText: t('organizations.remove'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync(organization.id);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('organizations.removed', { organization: organization.name }));
  }

  const columns: TableColumn<OrganizationWithRoles>[] = [
    {
      key: 'name',
      title: t('organizations.name'),
      render: (organization) => (
        <span className={styles.stack}>
          <span className={styles.strong}>
            <UserText>{organization.name}</UserText>
          </span>
          {organization.description && (
            <span className={styles.description}>
              <UserText>{organization.description}</UserText>
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'roles',
      title: t('organizations.roles'),
      render: (organization) =>
        organization.organizationRoles.length === 0 ? (
          <span className={styles.muted}>{t('organizations.no_roles')}</span>
        ) : (
          <span className={styles.tags}>
            {organization.organizationRoles.map((role) => (
              <Tag key={role.id} status="info">
                <UserText>{role.name}</UserText>
              </Tag>
            ))}
          </span>
        ),
    },
    {
      key: 'actions',
      title: <span className={styles.actionsTitle}>{t('roles.actions')}</span>,
      className: styles.actionsCell,
      render: (organization) => (
        <Button
          variant="text"
          size="small"
          aria-label={t('organizations.remove_named', { organization: organization.name })}
          onClick={() => void leave(organization)}
        >
          {t('organizations.remove')}
        </Button>
      ),
    },
  ];

  return (
    <Card title={t('organizations.title')} description={t('organizations.description')}>
      <Table
        aria-label={t('organizations.title')}
        columns={columns}
        rows={organizations.data?.items}
        rowKey={(organization) => organization.id}
        isLoading={organizations.isPending}
        error={organizations.error}
        onRetry={() => void organizations.refetch()}
        pagination={{ page, pageSize, totalCount: organizations.data?.total ?? 0, onPageChange: setPage }}
        empty={<p className={styles.muted}>{t('organizations.empty')}</p>}
      />
    </Card>
  );
}
