import { type ConnectorType, connectorTestSchema, emailSchema, phoneSchema } from '@gatehouse/schemas';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../../api/client.ts';
import { useTestConnector } from '../../../api/connectors.ts';
import { FormField } from '../../../components/form/FormField.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { TextInput } from '../../../components/form/TextInput.tsx';
import { CheckIcon } from '../../../components/icons.tsx';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { isLanguage } from '../../../i18n/languages.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Connectors.module.css';

/**
 * The recipient of POST /connectors/{factoryId}/test, trimmed: required, within the API's length, and an address or a
 * number by spec §5's rules (the shared email and phone schemas: digits, or the looser form with a leading plus,
 * dashes, parentheses and spaces). The form submits the trimmed text as typed.
 */
const testFormSchemas = {
  email: z.object({
    to: z.string().trim().min(1).pipe(connectorTestSchema.shape.email.unwrap()).pipe(emailSchema),
  }),
  phone: z.object({
    to: z.string().trim().min(1).pipe(connectorTestSchema.shape.phone.unwrap()).pipe(phoneSchema),
  }),
};
type TestForm = { to: string };

type Outcome = { ok: true; to: string } | { ok: false; message: string; detail: string | undefined };

function detailOf(error: ApiError): string | undefined {
  const data = error.data;
  if (data && typeof data === 'object' && 'detail' in data && typeof data.detail === 'string') return data.detail;
  return undefined;
}

type TestDialogProps = {
  factoryId: string;
  type: ConnectorType;
  /** The config as the form holds it now (checked already); masked secrets are the saved ones. */
  config: Record<string, unknown>;
  onClose: () => void;
};

/**
 * The test send: a sample verification code to an email address (email connectors) or phone number (SMS), through
 * the factory with the form's current config, saved or not. Shows that it was sent, or the server's message and the
 * provider's own words (`data.detail`).
 */
export function TestDialog({ factoryId, type, config, onClose }: TestDialogProps) {
  const { t, i18n } = useTranslation('connectors');
  const test = useTestConnector(factoryId);
  const isEmailType = type === 'Email';
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const resolver = useMemo(
    () =>
      schemaResolver<TestForm>(
        testFormSchemas[isEmailType ? 'email' : 'phone'],
        (issue) =>
          issue.code === 'too_small'
            ? t(isEmailType ? 'test.email_required' : 'test.phone_required')
            : t(isEmailType ? 'test.email_invalid' : 'test.phone_invalid'),
        { raw: true },
      ),
    [t, isEmailType],
  );
  // Checked when sent only, as before the form pattern: the message stays until the next try.
  const { register, handleSubmit, formState } = useForm<TestForm>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { to: '' },
  });

  const send = handleSubmit(async ({ to }) => {
    const value = to.trim();
    setOutcome(undefined);
    try {
      await test.mutateAsync({
        ...(isEmailType ? { email: value } : { phone: value }),
        config,
        ...(isLanguage(i18n.language) ? { locale: i18n.language } : {}),
      });
      setOutcome({ ok: true, to: value });
    } catch (failure) {
      if (!(failure instanceof ApiError) || failure.status === 401) throw failure;
      setOutcome({ ok: false, message: failure.message, detail: detailOf(failure) });
    }
  });

  return (
    <FormModal
      title={t('test.title')}
      description={t(isEmailType ? 'test.description_email' : 'test.description_sms')}
      submitText={t('test.send')}
      isSubmitting={test.isPending}
      onSubmit={send}
      onClose={onClose}
    >
      <FormField
        name="test-recipient"
        label={t(isEmailType ? 'test.email' : 'test.phone')}
        isRequired
        error={formState.errors.to?.message}
      >
        <TextInput type={isEmailType ? 'email' : 'tel'} dir="ltr" autoComplete="off" {...register('to')} />
      </FormField>
      <div aria-live="polite">
        {outcome?.ok && (
          <p className={`${styles.result} ${styles.resultSent}`} role="status" data-testid="test-outcome">
            <CheckIcon />
            {t('test.sent', { to: outcome.to })}
          </p>
        )}
        {outcome && !outcome.ok && (
          <div className={`${styles.result} ${styles.resultFailed}`} role="alert" data-testid="test-outcome">
            <p className={styles.empty}>{t('test.failed', { message: outcome.message })}</p>
            {outcome.detail && <p className={styles.detail}>{outcome.detail}</p>}
          </div>
        )}
      </div>
    </FormModal>
  );
}
