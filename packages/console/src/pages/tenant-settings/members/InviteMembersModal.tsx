import { MAX_INVITEES_PER_REQUEST, tenantRoles } from '@gatehouse/schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useInviteMembers } from '../../../api/tenants.ts';
import { parseQuotaExceeded } from '../../../cloud/quota/quota-exceeded.ts';
import { FormSelect } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormEmailChipInput } from '../../../components/form/bound/FormListInputs.tsx';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
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
    <FormModal
      size="medium"
      title={t('invite.title')}
      description={t('invite.description', { name: tenantName })}
      submitText={t('invite.submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
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
