import type { OrganizationInvitation, OrganizationInvitationStatus } from '@gatehouse/schemas';
import { useId, useState } from 'react';
import {
  useInviterNames,
  useOrganizationInvitations,
  useResendInvitation,
  useRevokeInvitation,
} from '../../../api/organization-invitations.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { EmailText } from '../../../components/EmailText.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import shared from '../../../components/shared.module.css';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { Tag, type TagStatus } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { useDateTimeFormat } from '../../users/use-date-time-format.ts';
import styles from '../Organizations.module.css';
import { InviteMembersModal } from './InviteMembersModal.tsx';
import { useOrganizationOutlet } from './organization-context.ts';
import { RoleChips } from './RoleChips.tsx';

const pageSize = 10;

const statusTag: Record<OrganizationInvitationStatus, TagStatus> = {
  Pending: 'info',
  Accepted: 'success',
  Expired: 'warning',
  Revoked: 'neutral',
};

/**
 * The organization's invitations below its members (spec §3, §4): email, roles, status, expiry and inviter, newest
 * first; invite by email; a pending invitation can be sent again or revoked, each after a confirmation.
 */
export function OrganizationInvitations() {
  const { t, i18n } = useTranslation('organizations');
  const toast = useToast();
  const confirm = useConfirm();
  const headingId = useId();
  const formatDate = useDateTimeFormat();
  const { organization } = useOrganizationOutlet();
  const [page, setPage] = useState(1);
  const [isInviting, setInviting] = useState(false);
  const invitations = useOrganizationInvitations(organization.id, { page, pageSize });
  const inviters = useInviterNames(invitations.data?.items);
  const revoke = useRevokeInvitation(organization.id);
  const resend = useResendInvitation(organization.id);

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toast.success(done);
    } catch (error) {
      if (!handleSubmitError(error, toast)) throw error;
    }
  }

  async function onRevoke(invitation: OrganizationInvitation) {
    const isConfirmed = await confirm({
      title: t('invitations.revoke_title'),
      content: t('invitations.revoke_content', { email: invitation.invitee, organization: organization.name }),
      confirmText: t('invitations.revoke'),
      isDanger: true,
    });
    if (isConfirmed) {
      await run(() => revoke.mutateAsync(invitation.id), t('invitations.revoked', { email: invitation.invitee }));
    }
  }

  async function onResend(invitation: OrganizationInvitation) {
    const isConfirmed = await confirm({
      title: t('invitations.resend_title'),
      content: t('invitations.resend_content', { email: invitation.invitee }),
      confirmText: t('invitations.resend'),
    });
    if (isConfirmed) {
      const locale = i18n.resolvedLanguage ?? i18n.language;
      await run(
        () => resend.mutateAsync({ id: invitation.id, messagePayload: { locale } }),
        t('invitations.resent', { email: invitation.invitee }),
      );
    }
  }

  const columns: TableColumn<OrganizationInvitation>[] = [
    {
      key: 'email',
      title: t('invitations.email'),
      render: (invitation) => <EmailText>{invitation.invitee}</EmailText>,
    },
    {
      key: 'roles',
      title: t('members.roles'),
      render: (invitation) => <RoleChips roles={invitation.organizationRoles} />,
    },
    {
      key: 'status',
      title: t('invitations.status'),
      render: (invitation) => (
        <Tag status={statusTag[invitation.status]}>{t(`invitations.statuses.${invitation.status}`)}</Tag>
      ),
    },
    {
      key: 'expires',
      noWrap: true,
      title: t('invitations.expires'),
      render: (invitation) => (
        <time dateTime={new Date(invitation.expiresAt).toISOString()}>{formatDate(invitation.expiresAt)}</time>
      ),
    },
    {
      key: 'inviter',
      title: t('invitations.inviter'),
      render: (invitation) =>
        invitation.inviterId ? (
          (inviters.get(invitation.inviterId) ?? invitation.inviterId)
        ) : (
          <span className={styles.muted}>{t('invitations.by_admin')}</span>
        ),
    },
    {
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('actions')}</span>,
      className: styles.actionsCell,
      render: (invitation) =>
        invitation.status === 'Pending' && (
          <>
            <Button
              variant="text"
              size="small"
              aria-label={t('invitations.resend_named', { email: invitation.invitee })}
              onClick={() => void onResend(invitation)}
            >
              {t('invitations.resend')}
            </Button>
            <Button
              variant="text"
              size="small"
              aria-label={t('invitations.revoke_named', { email: invitation.invitee })}
              onClick={() => void onRevoke(invitation)}
            >
              {t('invitations.revoke')}
            </Button>
          </>
        ),
    },
  ];

  return (
    <section aria-labelledby={headingId} className={styles.section}>
      <div className={styles.sectionHeader}>
        <h2 id={headingId} className={styles.sectionTitle}>
          {t('invitations.title')}
        </h2>
        <Button icon={<PlusIcon />} onClick={() => setInviting(true)}>
          {t('invitations.invite')}
        </Button>
      </div>
      <Table
        aria-label={t('invitations.title')}
        columns={columns}
        rows={invitations.data?.items}
        rowKey={(invitation) => invitation.id}
        isLoading={invitations.isPending}
        error={invitations.error}
        onRetry={() => void invitations.refetch()}
        empty={<p className={styles.empty}>{t('invitations.empty')}</p>}
        pagination={{ page, pageSize, totalCount: invitations.data?.total ?? 0, onPageChange: setPage }}
      />
      {isInviting && (
        <InviteMembersModal
          organizationId={organization.id}
          organizationName={organization.name}
          onClose={() => setInviting(false)}
        />
      )}
    </section>
  );
}
