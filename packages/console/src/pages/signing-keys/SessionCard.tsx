import type { OidcSessionConfig } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useOidcSessionConfig, useUpdateOidcSessionConfig } from '../../api/signing-keys.ts';
import { Button } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { DetailsForm } from '../../components/DetailsForm/DetailsForm.tsx';
import { FormSelect } from '../../components/form/bound/FormChoiceInputs.tsx';
import { FormNumberInput } from '../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { Spinner } from '../../components/Spinner/Spinner.tsx';
import { applyServerErrors } from '../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../components/submit/use-submit-handler.ts';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './SigningKeys.module.css';
import { type SessionFormValues, sessionFormSchema, sessionUnits, toSessionForm, toTtl } from './session-form.ts';

/**
 * How long a user stays signed in at the tenant's provider (the OIDC session, reference `/configs/oidc/session`),
 * typed in a unit and stored in seconds: 1 second to 365 days. Sessions started after a save last that long.
 */
export function SessionCard() {
  const { t } = useTranslation('signing_keys');
  const session = useOidcSessionConfig();
  if (session.isPending) {
    return (
      <Card title={t('session.title')}>
        <p role="status" className={styles.muted}>
          <Spinner /> {t('session.loading')}
        </p>
      </Card>
    );
  }
  if (session.isError) {
    return (
      <Card title={t('session.title')}>
        <p role="alert">{t('session.load_failed')}</p>
        <Button onClick={() => void session.refetch()}>{t('session.retry')}</Button>
      </Card>
    );
  }
  return <SessionForm saved={session.data} />;
}

function SessionForm({ saved }: { saved: OidcSessionConfig }) {
  const { t } = useTranslation('signing_keys');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateOidcSessionConfig();
  const resolver = useMemo(() => schemaResolver(sessionFormSchema, () => t('session.range')), [t]);
  const { control, handleSubmit, reset, setError, formState } = useForm<SessionFormValues>({
    resolver,
    mode: 'onBlur',
    defaultValues: toSessionForm(saved.ttl),
  });
  const units = sessionUnits.map((unit) => ({ value: unit, label: t(`session.units.${unit}`) }));

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        reset(toSessionForm((await update.mutateAsync({ ttl: toTtl(values) })).ttl));
      } catch (error) {
        if (applyServerErrors({ setError }, error, { paths: (path) => (path === 'ttl' ? 'value' : undefined) })) {
          return;
        }
        throw error;
      }
      toast.success(t('session.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('session.title')} description={t('session.description')}>
        <div className={styles.sessionRow}>
          <FormNumberInput
            name="value"
            control={control}
            label={t('session.lifetime')}
            description={t('session.range')}
            min={1}
            step={1}
            isRequired
            className={styles.sessionValue}
          />
          <FormSelect name="unit" control={control} label={t('session.unit')} options={units} />
        </div>
      </Card>
    </DetailsForm>
  );
}
