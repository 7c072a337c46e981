import type { ApplicationSecret } from '@gatehouse/schemas';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useCreateSecret, useRenameSecret } from '../../../../api/applications.ts';
import { Button } from '../../../../components/Button/Button.tsx';
import { CopyableValue } from '../../../../components/CopyButton/CopyButton.tsx';
import { FormSelect } from '../../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../../components/Modal/FormModal.tsx';
import { Modal } from '../../../../components/Modal/Modal.tsx';
import { applyServerErrors } from '../../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { ruleWording } from '../../form/rules.ts';
import { useRuleMessages } from '../../form/use-rule-messages.ts';
import styles from './Secrets.module.css';
import {
  renameFormSchema,
  type SecretFormOutput,
  type SecretFormValues,
  secretFormPath,
  secretFormSchema,
  secretLifetimes,
  toSecretCreate,
} from './secret-form.ts';

/** A name the application's secrets already use, and a refused name, go on the name field. */
const secretServerErrors = {
  paths: secretFormPath,
  codes: { 'application.secret_name_in_use': 'secretName' },
} as const;

/** New secret: name and lifetime, then its value, shown this one time only. */
export function CreateSecretDialog({ applicationId, onClose }: { applicationId: string; onClose: () => void }) {
  const { t } = useTranslation('applications');
  const messages = useRuleMessages();
  const [created, setCreated] = useState<ApplicationSecret>();
  const resolver = useMemo(() => schemaResolver(secretFormSchema, ruleWording(messages)), [messages]);
  const { control, handleSubmit, setError, formState } = useForm<SecretFormValues, unknown, SecretFormOutput>({
    resolver,
    mode: 'onBlur',
    defaultValues: { secretName: '', lifetime: 'never' },
  });
  const create = useCreateSecret(applicationId);
  const submitWith = useSubmitHandler();

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        setCreated(await create.mutateAsync(toSecretCreate(values)));
      } catch (error) {
        if (applyServerErrors({ setError }, error, secretServerErrors)) return;
        throw error;
      }
    }),
  );

  if (created) return <SecretCreatedDialog secret={created} onClose={onClose} />;
  return (
    <FormModal
      size="small"
      title={t('secrets.create_title')}
      submitText={t('secrets.create_submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormTextInput
        name="secretName"
        control={control}
        label={t('fields.secretName')}
        isRequired
        autoComplete="off"
        data-autofocus
      />
      <FormSelect
        name="lifetime"
        control={control}
        label={t('secrets.lifetime')}
        options={secretLifetimes.map((lifetime) => ({
          value: lifetime,
          label: lifetime === 'never' ? t('secrets.never_expires') : t('secrets.days', { days: lifetime }),
        }))}
      />
    </FormModal>
  );
}

/** The one time the whole value is shown (the API masks it afterwards): copy it now. */
function SecretCreatedDialog({ secret, onClose }: { secret: ApplicationSecret; onClose: () => void }) {
  const { t } = useTranslation('applications');
  return (
    <Modal
      isOpen
      title={t('secrets.created_title')}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose} data-autofocus>
          {t('secrets.done')}
        </Button>
      }
    >
      <div className={styles.created}>
        <p role="alert" className={styles.warning}>
          {t('secrets.shown_once')}
        </p>
        <p className={styles.createdName}>{secret.name}</p>
        <CopyableValue value={secret.value} label={t('secrets.copy', { name: secret.name })} />
      </div>
    </Modal>
  );
}

export function RenameSecretDialog({
  applicationId,
  secret,
  onClose,
  onRenamed,
}: {
  applicationId: string;
  secret: ApplicationSecret;
  onClose: () => void;
  onRenamed: (name: string) => void;
}) {
  const { t } = useTranslation('applications');
  const toast = useToast();
  const messages = useRuleMessages();
  const resolver = useMemo(() => schemaResolver(renameFormSchema, ruleWording(messages)), [messages]);
  const { control, handleSubmit, setError, formState } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: { secretName: secret.name },
  });
  const rename = useRenameSecret(applicationId);
  const submitWith = useSubmitHandler();

  const onSubmit = handleSubmit(
    submitWith(async ({ secretName }) => {
      if (secretName === secret.name) return onClose();
      try {
        await rename.mutateAsync({ name: secret.name, newName: secretName });
      } catch (error) {
        if (applyServerErrors({ setError }, error, secretServerErrors)) return;
        throw error;
      }
      onRenamed(secretName);
      toast.success(t('secrets.renamed', { name: secretName }));
      onClose();
    }),
  );

  return (
    <FormModal
      size="small"
      title={t('secrets.rename_title')}
      submitText={t('actions.save')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormTextInput
        name="secretName"
        control={control}
        label={t('fields.secretName')}
        isRequired
        autoComplete="off"
        data-autofocus
      />
    </FormModal>
  );
}
