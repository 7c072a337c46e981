import type { SignInExperience } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useSignInExperience, useUpdateSignInExperience } from '../../api/sign-in-experience.ts';
import { PlanGate } from '../../cloud/quota/PlanGate.tsx';
import { Button } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { DetailsForm } from '../../components/DetailsForm/DetailsForm.tsx';
import { FormCardRadio, FormSwitch } from '../../components/form/bound/FormChoiceInputs.tsx';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { applyServerErrors } from '../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../components/submit/use-submit-handler.ts';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Mfa.module.css';
import {
  formToPatch,
  hasSetUpFactor,
  type MfaForm,
  mfaFormSchema,
  mfaPolicyOptions,
  mfaServerErrors,
  mfaToForm,
  mfaWording,
  organizationPolicyOptions,
  policiesNeedingFactor,
} from './mfa-form.ts';

/**
 * Spec §2.2 mfa: the factors the sign-in pages offer, the policy for users without one, and what members of
 * organizations that require MFA are asked. One form over the sign-in experience's `mfa`.
 */
export function MfaPage() {
  const { t } = useTranslation('mfa');
  useDocumentTitle(t('title'));
  const query = useSignInExperience();
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      {/* A line of its own, and no element at all when there is no mark (OSS, or a plan with MFA). */}
      <PlanGate quota="mfaEnabled" />
      {query.isPending ? (
        <Loading />
      ) : query.data ? (
        <MfaEditor saved={query.data} />
      ) : (
        <section className={styles.state} aria-live="polite">
          <p>{t('load_failed')}</p>
          <Button onClick={() => query.refetch()}>{t('retry')}</Button>
        </section>
      )}
    </div>
  );
}

function MfaEditor({ saved }: { saved: SignInExperience }) {
  const { t } = useTranslation('mfa');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateSignInExperience();
  const resolver = useMemo(() => schemaResolver(mfaFormSchema, mfaWording(t)), [t]);
  const form = useForm<MfaForm>({ resolver, mode: 'onSubmit', defaultValues: mfaToForm(saved) });
  const { control, handleSubmit, reset, formState } = form;
  const [totp, webAuthn] = useWatch({ control, name: ['totp', 'webAuthn'] });
  // Backup codes and the policies that have users set up a factor need one a user can set up at sign-in.
  const canSetUp = hasSetUpFactor({ totp, webAuthn });

  const onSubmit = handleSubmit(
    submitWith(async (values: MfaForm) => {
      try {
        const next = await update.mutateAsync(formToPatch(values, saved));
        reset(mfaToForm(next));
        toast.success(t('saved'));
      } catch (error) {
        if (!applyServerErrors(form, error, mfaServerErrors)) throw error;
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
      <Card title={t('factors.title')} description={t('factors.description')}>
        <div className={styles.fields}>
          <FormSwitch
            name="totp"
            control={control}
            label={t('factors.totp')}
            inlineLabel={t('factors.totp_inline')}
            description={t('factors.totp_description')}
          />
          <FormSwitch
            name="webAuthn"
            control={control}
            label={t('factors.webauthn')}
            inlineLabel={t('factors.webauthn_inline')}
            description={t('factors.webauthn_description')}
          />
          <FormSwitch
            name="backupCode"
            control={control}
            label={t('factors.backup_code')}
            inlineLabel={t('factors.backup_code_inline')}
            description={t('factors.backup_code_description')}
          />
        </div>
      </Card>
      <Card title={t('policy.title')} description={t('policy.description')}>
        <FormCardRadio
          name="policy"
          control={control}
          label={t('policy.label')}
          description={canSetUp ? undefined : t('policy.needs_factor')}
          options={mfaPolicyOptions.map((policy) => ({
            value: policy,
            title: t(`policy.options.${policy}.title`),
            description: t(`policy.options.${policy}.description`),
            disabled: !canSetUp && policiesNeedingFactor.has(policy),
          }))}
        />
      </Card>
      <Card title={t('organization.title')} description={t('organization.description')}>
        <FormCardRadio
          name="organizationRequiredMfaPolicy"
          control={control}
          label={t('organization.label')}
          description={canSetUp ? undefined : t('organization.needs_factor')}
          options={organizationPolicyOptions.map((policy) => ({
            value: policy,
            title: t(`organization.options.${policy}.title`),
            description: t(`organization.options.${policy}.description`),
          }))}
        />
      </Card>
    </DetailsForm>
  );
}
