import type { OrganizationInvitationStatus, TenantInvitation } from '@gatehouse/schemas';
import {
  useInvitationDelivery,
  useResendInvitation,
  useRevokeInvitation,
  useTenantInvitations,
} from '../../../api/tenants.ts';
import { useTenants } from '../../../cloud/tenants/TenantsProvider.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { CopyButton } from '../../../components/CopyButton/CopyButton.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import shared from '../../../components/shared.module.css';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { Tag, type TagStatus } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { useDateTimeFormat } from '../../users/use-date-time-format.ts';
import styles from '../TenantSettings.module.css';
import { invitationLink } from './invite-form.ts';

const statusTag: Record<OrganizationInvitationStatus, TagStatus> = {
  Pending: 'info',
  Accepted: 'success',
  Expired: 'warning',
  Revoked: 'neutral',
};

/**
 * Spec §2.2 members/invitations (only with canInviteMember, the route checks): invitee, role, status tag (spec §4),
 * expiry; a Pending invitation can be sent again or revoked, each after a confirmation. When the server sends no
 * email (issue 40, item 11), sending again would send nothing: a Pending invitation offers its link to copy instead.
 */
export function InvitationsList() {
  const { t } = useTranslation('tenant_settings');
  const toast = useToast();
  const confirm = useConfirm();
  const formatDate = useDateTimeFormat();
  const { currentTenant } = useTenants();
  const tenantId = currentTenant?.id ?? '';
  const invitations = useTenantInvitations(currentTenant?.id);
  const revoke = useRevokeInvitation(tenantId);
  const resend = useResendInvitation(tenantId);
  const delivery = useInvitationDelivery(currentTenant?.id);
  const sendsEmail = delivery.data?.email === true;
  // As in the invite dialog, a failed question offers the link (it works either way); while it is asked, neither.
  const offersLink = !delivery.isPending && !sendsEmail;

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toast.success(done);
    } catch (error) {
      if (!handleSubmitError(error, toast)) throw error;
    }
  }

  async function onRevoke(invitation: TenantInvitation) {
    const isConfirmed = await confirm({
      content: t('invitations.revoke_content', { email: invitation.invitee }),
      confirmText: t('invitations.revoke'),
      isDanger: true,
    });
    if (isConfirmed) {
      await run(() => revoke.mutateAsync(invitation.id), t('invitations.revoked', { email: invitation.invitee }));
    }
  }

  async function onResend(invitation: TenantInvitation) {
    const isConfirmed = await confirm({
      content: t('invitations.resend_content', { email: invitation.invitee }),
      confirmText: t('invitations.resend'),
    });
    if (isConfirmed) {
      await run(() => resend.mutateAsync(invitation.id), t('invitations.resent', { email: invitation.invitee }));
    }
  }

  const columns: TableColumn<TenantInvitation>[] = [
    { key: 'invitee', title: t('invitations.invitee'), render: (invitation) => invitation.invitee },
    { key: 'role', title: t('members.role'), render: (invitation) => t(`roles.${invitation.role}`) },
    {
      key: 'status',
      title: t('invitations.status'),
      render: (invitation) => (
        <Tag status={statusTag[invitation.status]}>{t(`invitations.statuses.${invitation.status}`)}</Tag>
      ),
    },
    {
      key: 'expires',
      title: t('invitations.expires'),
      render: (invitation) => (
        <time dateTime={new Date(invitation.expiresAt).toISOString()}>{formatDate(invitation.expiresAt)}</time>
      ),
    },
    {
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('actions')}</span>,
      className: styles.actionsCell,
      render: (invitation) =>
        invitation.status === 'Pending' && (
          <>
            {sendsEmail && (
              <Button
                variant="text"
                size="small"
                aria-label={t('invitations.resend_named', { email: invitation.invitee })}
                onClick={() => onResend(invitation)}
              >
                {t('invitations.resend')}
              </Button>
            )}
            {offersLink && (
              <CopyButton
                value={invitationLink(invitation.id, window.location.origin, import.meta.env.BASE_URL)}
                label={t('invite.copy_link', { email: invitation.invitee })}
              />
            )}
            <Button
              variant="text"
              size="small"
              aria-label={t('invitations.revoke_named', { email: invitation.invitee })}
              onClick={() => onRevoke(invitation)}
            >
              {t('invitations.revoke')}
            </Button>
          </>
        ),
    },
  ];

  return (
    <Table
      aria-label={t('invitations.title')}
      columns={columns}
      rows={invitations.data}
      rowKey={(invitation) => invitation.id}
      isLoading={invitations.isPending}
      error={invitations.error}
      onRetry={() => void invitations.refetch()}
      empty={<p className={styles.empty}>{t('invitations.empty')}</p>}
    />
  );
}
