import { type MeMfaVerificationCreated, type MeTotpSecret, meMfaVerificationCreateSchema } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useAddMfaVerification } from '../../../api/me-account.ts';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from './Security.module.css';

/** The code of POST me/mfa-verifications' authenticator app, as the server checks it. */
const totpCodeSchema = meMfaVerificationCreateSchema.options[1].shape.code;

/** The form's code: spaces a user copies from the app ('123 456') are not part of it (a console-only convenience). */
const totpFormSchema = z.object({
  code: z
    .string()
    .transform((code) => code.replace(/\s+/g, ''))
    .pipe(totpCodeSchema),
});

export type TotpSetupModalProps = {
  setup: MeTotpSecret;
  onAdded: (created: MeMfaVerificationCreated) => void;
  onClose: () => void;
};

/**
 * An authenticator app's setup: the user scans the QR code (or types the key) into the app, and a code from it proves
 * the app has the key. Nothing is kept until the code is right; closing the dialog drops the key.
 */
export function TotpSetupModal({ setup, onAdded, onClose }: TotpSetupModalProps) {
  const { t } = useTranslation('profile');
  const submitWith = useSubmitHandler();
  const { mutateAsync } = useAddMfaVerification();
  const resolver = useMemo(() => schemaResolver(totpFormSchema, () => t('mfa.code_invalid')), [t]);
  const { control, handleSubmit, formState, setError } = useForm({
    resolver,
    defaultValues: { code: '' },
  });
  const refusals = {
    'mfa.invalid_code': { field: 'code', message: () => t('mfa.code_wrong') },
    'verification_record.invalid': { field: 'code', message: () => t('mfa.setup_expired') },
  } as const;

  const onSubmit = handleSubmit(
    submitWith(async ({ code }) => {
      let created: MeMfaVerificationCreated;
      try {
        created = await mutateAsync({ type: 'Totp', ticket: setup.ticket, code });
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: refusals })) throw error;
        return;
      }
      onAdded(created);
    }),
  );

  return (
    <FormModal
      title={t('mfa.totp_title')}
      description={t('mfa.totp_description')}
      submitText={t('mfa.verify')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {/* A data: URL (the server's SVG); the console's CSP allows data: images. */}
      <img className={styles.qrCode} src={setup.secretQrCode} alt={t('mfa.qr_alt')} width={200} height={200} />
      <p className={styles.text}>{t('mfa.key_label')}</p>
      <div className={styles.key}>
        <CopyableValue value={setup.secret} label={t('mfa.copy_key')} />
      </div>
      <FormTextInput
        name="code"
        control={control}
        label={t('mfa.code_label')}
        isRequired
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
        data-autofocus
      />
    </FormModal>
  );
}
