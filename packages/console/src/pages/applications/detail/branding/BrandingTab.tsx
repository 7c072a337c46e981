import type { ApplicationSignInExperience } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate } from 'react-router';
import { useApplicationBranding, useSaveApplicationBranding } from '../../../../api/applications.ts';
import { Button } from '../../../../components/Button/Button.tsx';
import { Card } from '../../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../../components/DetailsForm/DetailsForm.tsx';
import { FormTextInput } from '../../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../../components/form/schema-resolver.ts';
import { Spinner } from '../../../../components/Spinner/Spinner.tsx';
import { applyServerErrors } from '../../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { useApplicationOutlet } from '../ApplicationDetailPage.tsx';
import styles from '../settings/Settings.module.css';
import {
  type BrandingFormValues,
  brandingFormPath,
  brandingFormSchema,
  brandingUrlFields,
  colorFields,
  termsUrlFields,
  toBrandingForm,
  toBrandingInput,
} from './branding-form.ts';

const urlPlaceholder = 'https://';
const colorPlaceholder = '#6139F6';

/**
 * Spec §2.2 applications/{id}/branding, for third-party applications only: what their consent page shows instead of
 * the tenant's sign-in experience (name, colours, logos, terms links). Nothing set yet (404) is an empty form.
 */
export function BrandingTab() {
  const { application } = useApplicationOutlet();
  if (!application.isThirdParty) return <Navigate to="../settings" replace />;
  return <ApplicationBranding key={application.id} applicationId={application.id} />;
}

function ApplicationBranding({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation('applications');
  const branding = useApplicationBranding(applicationId);
  if (branding.isPending) {
    return (
      <p role="status" className={styles.loading}>
        <Spinner /> {t('settings.loading')}
      </p>
    );
  }
  if (branding.isError) {
    return (
      <Card title={t('branding.title')}>
        <p role="alert">{t('settings.load_failed')}</p>
        <Button onClick={() => void branding.refetch()}>{t('actions.retry')}</Button>
      </Card>
    );
  }
  return <BrandingForm applicationId={applicationId} saved={branding.data} />;
}

function BrandingForm({ applicationId, saved }: { applicationId: string; saved: ApplicationSignInExperience | null }) {
  const { t } = useTranslation('applications');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const save = useSaveApplicationBranding(applicationId);
  const resolver = useMemo(
    () =>
      schemaResolver<BrandingFormValues>(
        brandingFormSchema,
        (issue) => {
          const [field] = issue.path;
          if (issue.code === 'too_big') return t('branding.errors.too_long', { max: Number(issue.maximum) });
          return field === 'primaryColor' || field === 'darkPrimaryColor'
            ? t('branding.errors.color')
            : t('branding.errors.url');
        },
        { raw: true },
      ),
    [t],
  );
  const { control, handleSubmit, reset, setError, formState } = useForm<BrandingFormValues>({
    resolver,
    mode: 'onBlur',
    defaultValues: toBrandingForm(saved),
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        reset(toBrandingForm(await save.mutateAsync(toBrandingInput(values, saved))));
      } catch (error) {
        if (applyServerErrors({ setError }, error, { paths: brandingFormPath })) return;
        throw error;
      }
      toast.success(t('branding.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('branding.title')} description={t('branding.description')}>
        <div className={styles.fields}>
          <FormTextInput
            name="displayName"
            control={control}
            label={t('branding.fields.displayName')}
            description={t('branding.hints.displayName')}
            autoComplete="off"
          />
        </div>
      </Card>
      <Card title={t('branding.colors')} description={t('branding.colors_description')}>
        <div className={styles.row}>
          {colorFields.map((field) => (
            <div key={field} className={styles.grow}>
              <FormTextInput
                name={field}
                control={control}
                label={t(`branding.fields.${field}`)}
                placeholder={colorPlaceholder}
                spellCheck={false}
                autoComplete="off"
                dir="ltr"
              />
            </div>
          ))}
        </div>
      </Card>
      <Card title={t('branding.images')} description={t('branding.images_description')}>
        <div className={styles.fields}>
          {brandingUrlFields.map((field) => (
            <FormTextInput
              key={field}
              name={field}
              control={control}
              type="url"
              label={t(`branding.fields.${field}`)}
              placeholder={urlPlaceholder}
              autoComplete="off"
              dir="ltr"
            />
          ))}
        </div>
      </Card>
      <Card title={t('branding.terms')} description={t('branding.terms_description')}>
        <div className={styles.fields}>
          {termsUrlFields.map((field) => (
            <FormTextInput
              key={field}
              name={field}
              control={control}
              type="url"
              label={t(`branding.fields.${field}`)}
              placeholder={urlPlaceholder}
              autoComplete="off"
              dir="ltr"
            />
          ))}
        </div>
      </Card>
    </DetailsForm>
  );
}
