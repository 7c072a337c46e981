import { type ConnectorType, phoneRegex } from '@gatehouse/schemas';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../api/client.ts';
import { useTestConnector } from '../../../api/connectors.ts';
import { isEmail } from '../../../components/form/email.ts';
import { FormField } from '../../../components/form/FormField.tsx';
import { TextInput } from '../../../components/form/TextInput.tsx';
import { CheckIcon } from '../../../components/icons.tsx';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { isLanguage } from '../../../i18n/languages.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Connectors.module.css';

/** Spec §5: digits, or the looser form with a leading plus, dashes, parentheses and spaces. */
const loosePhone = /^\+?[\d\s()-]+$/;
const isPhone = (value: string) => loosePhone.test(value) && phoneRegex.test(value.replace(/[\s()+-]/g, ''));

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
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome | undefined>();

  async function send(event: FormEvent) {
    event.preventDefault();
    const value = to.trim();
    const problem = !value
      ? t(isEmailType ? 'test.email_required' : 'test.phone_required')
      : isEmailType
        ? isEmail(value)
          ? undefined
          : t('test.email_invalid')
        : isPhone(value)
          ? undefined
          : t('test.phone_invalid');
    setError(problem);
    if (problem) return;
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
  }

  return (
    <FormModal
      title={t('test.title')}
      description={t(isEmailType ? 'test.description_email' : 'test.description_sms')}
      submitText={t('test.send')}
      isSubmitting={test.isPending}
      onSubmit={(event) => void send(event)}
      onClose={onClose}
    >
      <FormField name="test-recipient" label={t(isEmailType ? 'test.email' : 'test.phone')} isRequired error={error}>
        <TextInput
          type={isEmailType ? 'email' : 'tel'}
          dir="ltr"
          value={to}
          autoComplete="off"
          onChange={(change) => setTo(change.target.value)}
        />
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
