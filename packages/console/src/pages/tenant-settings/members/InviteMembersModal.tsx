import { MAX_INVITEES_PER_REQUEST, type TenantInvitation, tenantRoles } from '@gatehouse/schemas';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useInvitationDelivery, useInviteMembers } from '../../../api/tenants.ts';
import { parseQuotaExceeded } from '../../../cloud/quota/quota-exceeded.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { FormSelect } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormEmailChipInput } from '../../../components/form/bound/FormListInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from './Invite.module.css';
import { type InviteForm, invitationLink, inviteeEmails, inviteFormSchema } from './invite-form.ts';

type Props = { tenantId: string; tenantName: string; onClose: () => void };

/**
 * Invite people to the tenant by email (spec §7 POST …/invitations): addresses as chips and the role they get. The
 * call hides the global error toast (spec §7); a failure shows the spec §8 'invitation failed' toast for 5 s and keeps
 * the addresses for a retry, except a members-quota refusal, which the quota modal names instead.
 *
 * Issue 40, item 11: the dialog says what will happen. When the server emails invitations it sends them; when it has
 * no email sender (or cannot say), it says so before, creates the invitations, and then shows their links to share.
 */
export function InviteMembersModal({ tenantId, tenantName, onClose }: Props) {
  const [created, setCreated] = useState<TenantInvitation[]>();
  if (created) return <InvitationLinksModal invitations={created} onClose={onClose} />;
  return <InviteFormModal tenantId={tenantId} tenantName={tenantName} onClose={onClose} onCreated={setCreated} />;
}

function InviteFormModal({
  tenantId,
  tenantName,
  onClose,
  onCreated,
}: Props & { onCreated: (invitations: TenantInvitation[]) => void }) {
  const { t } = useTranslation('tenant_settings');
  const toast = useToast();
  const invite = useInviteMembers(tenantId);
  const delivery = useInvitationDelivery(tenantId);
  // Unknown (the question failed) counts as no email: the links work whether or not an email went out.
  const sendsEmail = delivery.data?.email === true;
  const resolver = useMemo(
    () =>
      schemaResolver<InviteForm>(
        inviteFormSchema,
        (issue) =>
          issue.code === 'too_big'
            ? t('invite.errors.too_many', { max: MAX_INVITEES_PER_REQUEST })
            : t('invite.errors.emails_required'),
        { raw: true },
      ),
    [t],
  );
  const { control, handleSubmit, formState } = useForm<InviteForm>({
    resolver,
    mode: 'onSubmit',
    defaultValues: { emails: [], role: 'collaborator' },
  });

  const onSubmit = handleSubmit(async ({ emails, role }) => {
    let invitations: TenantInvitation[];
    try {
      invitations = await invite.mutateAsync({ invitee: inviteeEmails(emails), roleName: role });
    } catch (error) {
      if (!parseQuotaExceeded(error)) toast.error(t('invite.failed'), { durationMs: 5000 });
      return;
    }
    if (sendsEmail) {
      toast.success(t('invite.sent'));
      onClose();
      return;
    }
    toast.success(t('invite.created', { number: invitations.length }));
    onCreated(invitations);
  });

  return (
    <FormModal
      size="medium"
      title={t('invite.title')}
      description={t('invite.description', { name: tenantName })}
      submitText={sendsEmail ? t('invite.submit_send') : t('invite.submit_create')}
      isSubmitting={formState.isSubmitting}
      // Until the server has said whether it emails, the button's words would be a guess.
      isSubmitDisabled={delivery.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {!delivery.isPending && !sendsEmail && (
        <p className={styles.warning} data-testid="invite-no-email">
          {t('invite.no_email')}
        </p>
      )}
      <FormEmailChipInput
        name="emails"
        control={control}
        label={t('invite.emails')}
        isRequired
        placeholder={t('invite.emails_placeholder')}
        description={t('invite.emails_description')}
      />
      <FormSelect
        name="role"
        control={control}
        label={t('invite.role')}
        options={tenantRoles.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
      />
    </FormModal>
  );
}

/** After creating invitations that no email announces: each invitee with the link to send them. */
function InvitationLinksModal({ invitations, onClose }: { invitations: TenantInvitation[]; onClose: () => void }) {
  const { t } = useTranslation('tenant_settings');
  return (
    <Modal
      isOpen
      size="medium"
      title={t('invite.links_title')}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('invite.done')}
        </Button>
      }
    >
      <div className={styles.links}>
        <p className={styles.description}>{t('invite.links_description')}</p>
        <ul className={styles.list} aria-label={t('invite.links_title')}>
          {invitations.map((invitation) => (
            <li key={invitation.id} className={styles.item}>
              <span className={styles.invitee}>
                <UserText>{invitation.invitee}</UserText>
              </span>
              <CopyableValue
                value={invitationLink(invitation.id, window.location.origin, import.meta.env.BASE_URL)}
                label={t('invite.copy_link', { email: invitation.invitee })}
              />
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
}
