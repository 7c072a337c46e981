import { passwordVerificationRequestSchema } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import type { ApiError } from '../../../api/client.ts';
import { useVerifyPassword } from '../../../api/me-account.ts';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { toChangePassword, toProfile } from '../links.ts';
import { parseProfileRouteState } from '../route-state.ts';

/** Route 'profile/verify-password': the current password buys a verification record for the change. */
export function VerifyPasswordModal() {
  const { t } = useTranslation('profile');
  const navigate = useNavigate();
  const { state } = useLocation();
  const { email, action } = parseProfileRouteState(state);
  return (
    <VerifyPasswordDialog
      description={t('password.verify_description')}
      // Spec §2.12: the password flow. The email flow (cloud) asks for the password inside link-email instead.
      onVerified={(verificationRecordId) =>
        navigate(toChangePassword(), { replace: true, state: { email, action, verificationRecordId } })
      }
      onClose={() => navigate(toProfile())}
    />
  );
}

export type VerifyPasswordDialogProps = {
  /** What the proof is for, in one sentence. */
  description: string;
  /** Gets the verification record (valid 10 minutes) that the next step sends with its change. */
  onVerified: (verificationRecordId: string) => unknown;
  onClose: () => void;
  /** The submit button's text when the proof is the last step of something ('Delete account'); 'Continue' else. */
  submitText?: string;
  /** The proof is what a destructive action waits for: its button turns red. */
  isDanger?: boolean;
};

/**
 * The one 'verify your current password' step of the profile: the password change's route and the sign-in security
 * section's changes (passkeys, authenticator app) both open it.
 */
export function VerifyPasswordDialog({
  description,
  onVerified,
  onClose,
  submitText,
  isDanger = false,
}: VerifyPasswordDialogProps) {
  const { t } = useTranslation('profile');
  const submitWith = useSubmitHandler();
  const { mutateAsync } = useVerifyPassword();
  const label = t('password.current');
  const resolver = useMemo(
    () => schemaResolver(passwordVerificationRequestSchema, () => t('required_field_missing', { field: label })),
    [t, label],
  );
  const { control, handleSubmit, formState, setError } = useForm({
    resolver,
    defaultValues: { password: '' },
  });
  const wrongPassword = {
    field: 'password',
    // A 429 says too many wrong attempts: the account is locked for a while.
    message: (refusal: ApiError) => (refusal.status === 429 ? t('password.locked') : t('password.incorrect')),
  } as const;

  const onSubmit = handleSubmit(
    submitWith(async ({ password }) => {
      let verificationRecordId: string;
      try {
        ({ verificationRecordId } = await mutateAsync(password));
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: { 'session.invalid_credentials': wrongPassword } })) {
          throw error;
        }
        return;
      }
      await onVerified(verificationRecordId);
    }),
  );

  return (
    <FormModal
      size="small"
      title={t('password.verify_title')}
      description={description}
      submitText={submitText ?? t('password.continue')}
      isDanger={isDanger}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormTextInput
        name="password"
        control={control}
        label={label}
        type="password"
        autoComplete="current-password"
        isRequired
        data-autofocus
      />
    </FormModal>
  );
}
