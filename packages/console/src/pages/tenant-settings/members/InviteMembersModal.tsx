import { MAX_INVITEES_PER_REQUEST, tenantRoles } from '@gatehouse/schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useInviteMembers } from '../../../api/tenants.ts';
import { parseQuotaExceeded } from '../../../cloud/quota/quota-exceeded.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { FormSelect } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormEmailChipInput } from '../../../components/form/bound/FormListInputs.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import styles from '../TenantSettings.module.css';
import { type InviteForm, inviteeEmails, inviteFormSchema } from './invite-form.ts';

type Props = { tenantId: string; tenantName: string; onClose: () => void };

/**
 * Invite people to the tenant by email (spec §7 POST …/invitations): addresses as chips and the role they get. The
 * call hides the global error toast (spec §7); a failure shows the spec §8 'invitation failed' toast for 5 s and keeps
 * the addresses for a retry, except a members-quota refusal, which the quota modal names instead.
 */
export function InviteMembersModal({ tenantId, tenantName, onClose }: Props) {
  const { t } = useTranslation('tenant_settings');
  const toast = useToast();
  const invite = useInviteMembers(tenantId);
  const formId = useId();
  const resolver = useMemo(
    () =>
      zodResolver(inviteFormSchema, {
        error: (issue) =>
          issue.code === 'too_big'
            ? t('invite.errors.too_many', { max: MAX_INVITEES_PER_REQUEST })
            : t('invite.errors.emails_required'),
      }),
    [t],
  );
  const { control, handleSubmit, formState } = useForm<InviteForm>({
    resolver,
    mode: 'onSubmit',
    defaultValues: { emails: [], role: 'collaborator' },
  });

  const onSubmit = handleSubmit(async ({ emails, role }) => {
    try {
      await invite.mutateAsync({ invitee: inviteeEmails(emails), roleName: role });
    } catch (error) {
      if (!parseQuotaExceeded(error)) toast.error(t('invite.failed'), { durationMs: 5000 });
      return;
    }
    toast.success(t('invite.sent'));
    onClose();
  });

  return (
    <Modal
      isOpen
      onClose={onClose}
      size="medium"
      title={t('invite.title')}
      footer={
        <>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button variant="primary" type="submit" form={formId} isLoading={formState.isSubmitting}>
            {t('invite.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.stack} noValidate onSubmit={(event) => void onSubmit(event)}>
        <p className={styles.muted}>{t('invite.description', { name: tenantName })}</p>
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
      </form>
    </Modal>
  );
}
