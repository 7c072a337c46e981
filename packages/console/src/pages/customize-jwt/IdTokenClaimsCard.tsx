import { extendedIdTokenClaims, type IdTokenConfig } from '@gatehouse/schemas';
import { useForm } from 'react-hook-form';
import { useIdTokenConfig, useUpdateIdTokenConfig } from '../../api/jwt-customizer.ts';
import { Button } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { DetailsForm } from '../../components/DetailsForm/DetailsForm.tsx';
import { FormCheckbox } from '../../components/form/bound/FormChoiceInputs.tsx';
import { Spinner } from '../../components/Spinner/Spinner.tsx';
import { useSubmitHandler } from '../../components/submit/use-submit-handler.ts';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './CustomizeJwt.module.css';
import { type IdTokenClaimsForm, toIdTokenClaimsForm, toIdTokenConfig } from './id-token-form.ts';

/**
 * Which extended user claims go into the ID token (reference `/configs/id-token`), when the application asks for the
 * scope of the same name. Saved with the save bar, like every settings card.
 */
export function IdTokenClaimsCard() {
  const { t } = useTranslation('customize_jwt');
  const config = useIdTokenConfig();
  if (config.isPending) {
    return (
      <Card title={t('id_token.title')}>
        <p role="status" className={styles.muted}>
          <Spinner /> {t('id_token.loading')}
        </p>
      </Card>
    );
  }
  if (config.isError) {
    return (
      <Card title={t('id_token.title')}>
        <p role="alert">{t('id_token.load_failed')}</p>
        <Button onClick={() => void config.refetch()}>{t('index.retry')}</Button>
      </Card>
    );
  }
  return <ClaimsForm saved={config.data} />;
}

function ClaimsForm({ saved }: { saved: IdTokenConfig }) {
  const { t } = useTranslation('customize_jwt');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateIdTokenConfig();
  const { control, handleSubmit, reset, formState } = useForm<IdTokenClaimsForm>({
    defaultValues: toIdTokenClaimsForm(saved),
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      reset(toIdTokenClaimsForm(await update.mutateAsync(toIdTokenConfig(values))));
      toast.success(t('id_token.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('id_token.title')} description={t('id_token.description')}>
        <div className={styles.claims}>
          {extendedIdTokenClaims.map((claim) => (
            <FormCheckbox
              key={claim}
              name={claim}
              control={control}
              label={<code className={styles.code}>{claim}</code>}
              description={t(`id_token.claims.${claim}`)}
              inlineLabel={t('id_token.include', { claim })}
            />
          ))}
        </div>
      </Card>
    </DetailsForm>
  );
}
