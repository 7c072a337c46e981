import type { SignInExperience } from '@gatehouse/schemas';
import type { ComponentProps } from 'react';
import { type FieldValues, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSignInExperience, useUpdateSignInExperience } from '../../api/sign-in-experience.ts';
import { Button } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { DetailsForm } from '../../components/DetailsForm/DetailsForm.tsx';
import { FormSwitch } from '../../components/form/bound/FormChoiceInputs.tsx';
import { FormNumberInput } from '../../components/form/bound/FormTextInputs.tsx';
import { type BoundFieldProps, fieldProps, useBoundField } from '../../components/form/bound/use-bound-field.ts';
import { FormField } from '../../components/form/FormField.tsx';
import { useFieldControlProps } from '../../components/form/field-context.ts';
import inputStyles from '../../components/form/input.module.css';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { applyServerErrors } from '../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../components/submit/use-submit-handler.ts';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import styles from './Security.module.css';
import {
  formToPatch,
  LOCKOUT_DEFAULTS,
  LOCKOUT_DURATION_RANGE,
  MAX_ATTEMPTS_RANGE,
  MAX_LIST_ENTRIES,
  type SecurityForm,
  securityServerErrors,
  securityToForm,
  useSecurityFormResolver,
} from './security-form.ts';

/**
 * Security: how many failed sign-ins lock an account and for how long (the sign-in experience's `sentinelPolicy`),
 * and which email addresses may create accounts (its `emailBlocklistPolicy`). One form; a save sends both objects.
 */
export function SecurityPage() {
  const { t } = useTranslation('security');
  useDocumentTitle(t('title'));
  const query = useSignInExperience();
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      {query.isPending ? (
        <Loading />
      ) : query.data ? (
        <SecurityEditor saved={query.data} />
      ) : (
        <section className={styles.state} aria-live="polite">
          <p>{t('load_failed')}</p>
          <Button onClick={() => query.refetch()}>{t('retry')}</Button>
        </section>
      )}
    </div>
  );
}

function SecurityEditor({ saved }: { saved: SignInExperience }) {
  const { t } = useTranslation('security');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateSignInExperience();
  const form = useForm<SecurityForm>({
    resolver: useSecurityFormResolver(),
    mode: 'onSubmit',
    defaultValues: securityToForm(saved),
  });
  const { control, handleSubmit, reset, formState } = form;

  const onSubmit = handleSubmit(
    submitWith(async (values: SecurityForm) => {
      try {
        const next = await update.mutateAsync(formToPatch(values));
        reset(securityToForm(next));
        toast.success(t('saved'));
      } catch (error) {
        if (!applyServerErrors(form, error, securityServerErrors)) throw error;
      }
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('lockout.title')} description={t('lockout.description')}>
        <div className={styles.pair}>
          <FormNumberInput
            name="sentinelPolicy.maxAttempts"
            control={control}
            label={t('lockout.max_attempts')}
            description={t('lockout.max_attempts_description', {
              ...MAX_ATTEMPTS_RANGE,
              default: LOCKOUT_DEFAULTS.maxAttempts,
            })}
            min={MAX_ATTEMPTS_RANGE.min}
            max={MAX_ATTEMPTS_RANGE.max}
            step={1}
            inputMode="numeric"
            isRequired
          />
          <FormNumberInput
            name="sentinelPolicy.lockoutDuration"
            control={control}
            label={t('lockout.lockout_duration')}
            description={t('lockout.lockout_duration_description', {
              ...LOCKOUT_DURATION_RANGE,
              default: LOCKOUT_DEFAULTS.lockoutDuration,
            })}
            min={LOCKOUT_DURATION_RANGE.min}
            max={LOCKOUT_DURATION_RANGE.max}
            step={1}
            inputMode="numeric"
            isRequired
          />
        </div>
      </Card>
      <Card title={t('blocklist.title')} description={t('blocklist.description')}>
        <div className={styles.fields}>
          <FormSwitch
            name="emailBlocklistPolicy.blockDisposableAddresses"
            control={control}
            label={t('blocklist.disposable')}
            description={t('blocklist.disposable_description')}
          />
          <FormSwitch
            name="emailBlocklistPolicy.blockSubaddressing"
            control={control}
            label={t('blocklist.subaddressing')}
            description={t('blocklist.subaddressing_description')}
          />
          <FormLinesInput
            name="emailBlocklistPolicy.customBlocklist"
            control={control}
            label={t('blocklist.custom_blocklist')}
            description={t('blocklist.custom_blocklist_description', { max: MAX_LIST_ENTRIES })}
          />
          <FormLinesInput
            name="emailBlocklistPolicy.customAllowlist"
            control={control}
            label={t('blocklist.custom_allowlist')}
            description={t('blocklist.custom_allowlist_description', { max: MAX_LIST_ENTRIES })}
          />
        </div>
      </Card>
    </DetailsForm>
  );
}

/** A list edited as text, one entry per line, bound to the form with the kit's field wiring. */
function FormLinesInput<Values extends FieldValues, Output>(props: BoundFieldProps<Values, Output, string>) {
  const { field, error } = useBoundField(props);
  return (
    <FormField {...fieldProps(props, error)}>
      <LinesTextArea
        ref={field.ref}
        name={field.name}
        rows={6}
        value={field.value ?? ''}
        disabled={field.disabled}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}

function LinesTextArea(props: ComponentProps<'textarea'>) {
  const wiring = useFieldControlProps(props);
  return (
    <textarea
      dir="ltr"
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      className={`${inputStyles.input} ${styles.textarea}`}
      {...props}
      {...wiring}
    />
  );
}
