import type { User } from '@gatehouse/schemas';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSetUserPassword } from '../../../api/users.ts';
import { FormCardRadio } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { userWording } from '../create/create-user-form.ts';
import { useUserFormMessages } from '../use-user-form-messages.ts';
import { userDisplayName } from '../user-display.ts';
import { generateUserPassword } from '../user-rules.ts';
import { userServerErrors } from '../user-server-errors.ts';
import { NewPasswordDialog } from './NewPasswordDialog.tsx';
import { type ResetPasswordForm, resetPasswordFormSchema, resetPasswordModes } from './reset-password-form.ts';
import { usePasswordModeOptions } from './use-password-mode-options.ts';

/** The '…' menu's Reset password: a new one, generated (then shown once) or typed and checked against the policy. */
export function ResetPasswordModal({ user, onClose }: { user: User; onClose: () => void }) {
  const { t } = useTranslation('users');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const setPassword = useSetUserPassword(user.id);
  const messages = useUserFormMessages();
  const modeOptions = usePasswordModeOptions(resetPasswordModes);
  const [generated, setGenerated] = useState<string>();
  const resolver = useMemo(
    () => schemaResolver(resetPasswordFormSchema(user), userWording(messages)),
    [messages, user],
  );
  const { control, handleSubmit, formState, setError, watch } = useForm<ResetPasswordForm>({
    resolver,
    mode: 'onBlur',
    defaultValues: { passwordMode: 'generate', password: '' },
  });
  const name = userDisplayName(user) ?? user.id;

  const onSubmit = handleSubmit(
    submitWith(async ({ passwordMode, password }) => {
      const next = passwordMode === 'generate' ? generateUserPassword(user) : password;
      try {
        await setPassword.mutateAsync(next);
      } catch (error) {
        if (applyServerErrors({ setError }, error, userServerErrors(messages))) return;
        throw error;
      }
      toast.success(t('password.reset_done', { name }));
      if (passwordMode === 'generate') setGenerated(next);
      else onClose();
    }),
  );

  if (generated) {
    return <NewPasswordDialog title={t('password.new_title')} userName={name} password={generated} onDone={onClose} />;
  }
  return (
    <FormModal
      title={t('password.reset_title')}
      description={t('password.reset_description', { name })}
      submitText={t('password.reset_submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormCardRadio name="passwordMode" control={control} label={t('fields.password')} options={modeOptions} />
      {watch('passwordMode') === 'custom' && (
        <FormTextInput
          name="password"
          control={control}
          label={t('fields.new_password')}
          isConfidential
          isRequired
          autoComplete="new-password"
          data-autofocus
        />
      )}
    </FormModal>
  );
}
