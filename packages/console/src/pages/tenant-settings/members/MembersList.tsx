import { type TenantMember, type TenantRole, tenantRoles } from '@gatehouse/schemas';
import { useNavigate } from 'react-router';
import { useMe } from '../../../api/me.ts';
import { useRemoveMember, useTenantMembers, useUpdateMemberRole } from '../../../api/tenants.ts';
import { useCurrentMemberScopes } from '../../../cloud/tenants/member-scopes.ts';
import { useTenants } from '../../../cloud/tenants/TenantsProvider.tsx';
import { Avatar } from '../../../components/Avatar/Avatar.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Select } from '../../../components/form/Select.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import shared from '../../../components/shared.module.css';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../TenantSettings.module.css';
import { memberLabel } from './member-label.ts';

/**
 * The tenant's members (spec §2.2 members): who they are and their role. Those who may update roles change one with
 * a select (after a confirmation), those who may remove members remove others; everyone can leave from their own row.
 */
export function MembersList() {
  const { t } = useTranslation('tenant_settings');
  const toast = useToast();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const me = useMe();
  const { currentTenant, removeTenant } = useTenants();
  const { flags } = useCurrentMemberScopes();
  const tenantId = currentTenant?.id ?? '';
  const members = useTenantMembers(currentTenant?.id);
  const updateRole = useUpdateMemberRole(tenantId);
  const remove = useRemoveMember(tenantId);

  async function run(action: () => Promise<unknown>): Promise<boolean> {
    try {
      await action();
      return true;
    } catch (error) {
      if (handleSubmitError(error, toast)) return false;
      throw error;
    }
  }

  async function onRoleChange(member: TenantMember, role: TenantRole) {
    if (role === member.role) return;
    const isConfirmed = await confirm({
      content: t('members.role_change_content', { name: memberLabel(member), role: t(`roles.${role}`) }),
      confirmText: t('members.role_change_confirm'),
    });
    if (!isConfirmed) return;
    if (await run(() => updateRole.mutateAsync({ userId: member.id, roleName: role }))) {
      toast.success(t('members.role_changed', { name: memberLabel(member), role: t(`roles.${role}`) }));
    }
  }

  async function onRemove(member: TenantMember) {
    const isConfirmed = await confirm({
      content: t('members.remove_content', { name: memberLabel(member), tenant: currentTenant?.name ?? '' }),
      confirmText: t('members.remove'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    if (await run(() => remove.mutateAsync(member.id))) {
      toast.success(t('members.removed', { name: memberLabel(member) }));
    }
  }

  async function onLeave(member: TenantMember) {
    const isConfirmed = await confirm({
      content: t('settings.leave_content', { name: currentTenant?.name ?? '' }),
      confirmText: t('settings.leave'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    if (await run(() => remove.mutateAsync(member.id))) {
      removeTenant(tenantId);
      toast.success(t('settings.left', { name: currentTenant?.name ?? '' }));
      await navigate('/', { replace: true });
    }
  }

  const roleOptions = tenantRoles.map((role) => ({ value: role, label: t(`roles.${role}`) }));
  const columns: TableColumn<TenantMember>[] = [
    {
      key: 'user',
      title: t('members.user'),
      render: (member) => (
        <span className={styles.person}>
          <Avatar
            src={member.avatar}
            name={member.name}
            username={member.username}
            email={member.primaryEmail}
            size="small"
          />
          <span className={styles.personText}>
            <span>{memberLabel(member)}</span>
            {member.id === me.data?.id && <span className={styles.muted}>{t('members.you')}</span>}
          </span>
        </span>
      ),
    },
    { key: 'email', title: t('members.email'), render: (member) => member.primaryEmail ?? '' },
    {
      key: 'role',
      title: t('members.role'),
      render: (member) =>
        flags.canUpdateMemberRole && member.id !== me.data?.id ? (
          <Select
            className={styles.roleSelect}
            aria-label={t('members.role_of', { name: memberLabel(member) })}
            value={member.role}
            options={roleOptions}
            onChange={(event) => {
              const role = tenantRoles.find((name) => name === event.target.value);
              if (role) void onRoleChange(member, role);
            }}
          />
        ) : (
          t(`roles.${member.role}`)
        ),
    },
    {
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('actions')}</span>,
      className: styles.actionsCell,
      render: (member) =>
        member.id === me.data?.id ? (
          <Button variant="text" size="small" onClick={() => onLeave(member)}>
            {t('settings.leave')}
          </Button>
        ) : (
          flags.canRemoveMember && (
            <Button
              variant="text"
              size="small"
              aria-label={t('members.remove_named', { name: memberLabel(member) })}
              onClick={() => onRemove(member)}
            >
              {t('members.remove')}
            </Button>
          )
        ),
    },
  ];

  return (
    <Table
      aria-label={t('members.title')}
      columns={columns}
      rows={members.data}
      rowKey={(member) => member.id}
      isLoading={members.isPending}
      error={members.error}
      onRetry={() => void members.refetch()}
      empty={<p className={styles.empty}>{t('members.empty')}</p>}
    />
  );
}
