import { type MeMfaVerificationCreated, userMfaVerificationPatchSchema } from '@gatehouse/schemas';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useAddMfaVerification } from '../../../api/me-account.ts';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { fieldProblem } from '../settings/field-rules.ts';

export type PasskeyNameModalProps = {
  /** The server's ticket of this registration (valid 5 minutes) and the browser's new passkey. */
  ticket: string;
  response: RegistrationResponseJSON;
  defaultName: string;
  onAdded: (created: MeMfaVerificationCreated, name: string) => void;
  onClose: () => void;
};

/**
 * The last step of adding a passkey: the browser made it, the user names it, the server verifies and keeps it.
 * Nothing is kept until this is sent; a refusal shows in the dialog and leaves the account as it was.
 */
export function PasskeyNameModal({ ticket, response, defaultName, onAdded, onClose }: PasskeyNameModalProps) {
  const { t } = useTranslation('profile');
  const submitWith = useSubmitHandler();
  const { mutateAsync } = useAddMfaVerification();
  const label = t('mfa.name_label');
  // The server's rule of a passkey's name (the same schema renames it later).
  const resolver = useMemo(
    () =>
      schemaResolver(userMfaVerificationPatchSchema, (issue) => {
        const problem = fieldProblem(issue);
        return problem.key === 'too_long'
          ? t('too_long', { field: label, max: problem.max })
          : t('required_field_missing', { field: label });
      }),
    [t, label],
  );
  const { control, handleSubmit, formState, setError } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: { name: defaultName },
  });
  // The browser's answer cannot be sent twice: each refusal says what to do next, which is to start again.
  const refusals = {
    'user.webauthn_verification_failed': { field: 'name', message: () => t('mfa.passkey_not_verified') },
    'user.passkey_already_registered': { field: 'name', message: () => t('mfa.passkey_already_registered') },
    'verification_record.invalid': { field: 'name', message: () => t('mfa.setup_expired') },
  } as const;

  const onSubmit = handleSubmit(
    submitWith(async ({ name }) => {
      let created: MeMfaVerificationCreated;
      try {
        // The browser's extension outputs are a DOM interface; the contract reads them as a plain record.
        const answer = { ...response, clientExtensionResults: { ...response.clientExtensionResults } };
        created = await mutateAsync({ type: 'WebAuthn', ticket, name, response: answer });
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: refusals })) throw error;
        return;
      }
      onAdded(created, name);
    }),
  );

  return (
    <FormModal
      size="small"
      title={t('mfa.name_title')}
      description={t('mfa.name_description')}
      submitText={t('save')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormTextInput name="name" control={control} label={label} isRequired autoComplete="off" data-autofocus />
    </FormModal>
  );
}
