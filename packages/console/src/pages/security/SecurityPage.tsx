import type { CaptchaProvider, CaptchaProviderType, SignInExperience } from '@gatehouse/schemas';
import { useEffect, useId, useMemo, useState } from 'react';
import { type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { useCaptchaProvider, useDeleteCaptchaProvider, useSaveCaptchaProvider } from '../../api/captcha-provider.ts';
import { useSignInExperience, useUpdateSignInExperience } from '../../api/sign-in-experience.ts';
import { Button } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { DetailsForm } from '../../components/DetailsForm/DetailsForm.tsx';
import { FormCardRadio, FormSwitch } from '../../components/form/bound/FormChoiceInputs.tsx';
import { FormNumberInput, FormTextArea, FormTextInput } from '../../components/form/bound/FormTextInputs.tsx';
import { useMaskedSecretWords } from '../../components/form/masked-secrets.ts';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { TrashIcon } from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useConfirm } from '../../components/Modal/confirm-context.ts';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { applyServerErrors } from '../../components/submit/server-errors.ts';
import { handleSubmitError, useSubmitHandler } from '../../components/submit/use-submit-handler.ts';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Security.module.css';
import {
  CAPTCHA_DEFAULT_URLS,
  captchaProviderTypes,
  captchaToForm,
  captchaToPut,
  formToPatch,
  isSecretKeySentElsewhere,
  keepsStoredSecret,
  LOCKOUT_DEFAULTS,
  LOCKOUT_DURATION_RANGE,
  MAX_ATTEMPTS_RANGE,
  MAX_LIST_ENTRIES,
  MINIMUM_SCORE_DEFAULT,
  type SecurityForm,
  securityFormSchema,
  securityServerErrors,
  securityToForm,
  securityWording,
} from './security-form.ts';

/**
 * Security: how many failed sign-ins lock an account and for how long (the sign-in experience's `sentinelPolicy`),
 * which email addresses may create accounts (its `emailBlocklistPolicy`), and whether the sign-in pages ask for a
 * captcha (its `captchaPolicy`) with which provider (`/captcha-provider`). One form; a save PUTs the provider when
 * its fields changed, then sends the sign-in experience's objects.
 */
export function SecurityPage() {
  const { t } = useTranslation('security');
  useDocumentTitle(t('title'));
  const query = useSignInExperience();
  const provider = useCaptchaProvider();
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      {query.isPending || provider.isPending ? (
        <Loading />
      ) : query.data && provider.data !== undefined ? (
        <SecurityEditor saved={query.data} provider={provider.data} />
      ) : (
        <section className={styles.state} aria-live="polite">
          <p>{t('load_failed')}</p>
          <Button
            onClick={() =>
              Promise.all([!query.data && query.refetch(), provider.data === undefined && provider.refetch()])
            }
          >
            {t('retry')}
          </Button>
        </section>
      )}
    </div>
  );
}

function SecurityEditor({ saved, provider }: { saved: SignInExperience; provider: CaptchaProvider | null }) {
  const { t } = useTranslation('security');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateSignInExperience();
  const saveProvider = useSaveCaptchaProvider();
  const form = useForm<SecurityForm>({
    resolver: useMemo(
      () => schemaResolver<SecurityForm>(securityFormSchema(provider), securityWording(t), { raw: true }),
      [provider, t],
    ),
    mode: 'onSubmit',
    defaultValues: securityToForm(saved, provider),
  });
  const { control, handleSubmit, reset, formState } = form;
  const { issueMessages } = useMaskedSecretWords();

  const onSubmit = handleSubmit(
    submitWith(async (values: SecurityForm) => {
      try {
        // The provider first: the switch may be turned on in the same save, and it needs one.
        const put = captchaToPut(values.captcha, provider);
        const nextProvider = put ? await saveProvider.mutateAsync(put) : provider;
        const next = await update.mutateAsync(formToPatch(values));
        reset(securityToForm(next, nextProvider));
        toast.success(t('saved'));
      } catch (error) {
        if (!applyServerErrors(form, error, { ...securityServerErrors, issueMessages })) throw error;
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
          <FormTextArea
            rows={6}
            name="emailBlocklistPolicy.customBlocklist"
            control={control}
            label={t('blocklist.custom_blocklist')}
            description={t('blocklist.custom_blocklist_description', { max: MAX_LIST_ENTRIES })}
          />
          <FormTextArea
            rows={6}
            name="emailBlocklistPolicy.customAllowlist"
            control={control}
            label={t('blocklist.custom_allowlist')}
            description={t('blocklist.custom_allowlist_description', { max: MAX_LIST_ENTRIES })}
          />
        </div>
      </Card>
      <CaptchaCard form={form} saved={saved} provider={provider} />
    </DetailsForm>
  );
}

/**
 * The captcha switch and the provider's fields. The stored secret key is never shown: its field stays empty and says
 * a key is stored — unless the verification URL changed, where the stored key is never sent: the field then asks for
 * the key again, with the connector and SSO forms' note, until the URL is put back. Removing the provider (confirmed)
 * also turns the switch off, which means nothing without one.
 */
function CaptchaCard({
  form,
  saved,
  provider,
}: {
  form: UseFormReturn<SecurityForm>;
  saved: SignInExperience;
  provider: CaptchaProvider | null;
}) {
  const { t } = useTranslation('security');
  const { control, resetField } = form;
  const confirm = useConfirm();
  const toast = useToast();
  const remove = useDeleteCaptchaProvider();
  const update = useUpdateSignInExperience();
  const captcha = useWatch({ control, name: 'captcha' });
  const urlErrors = form.formState.errors.captcha;
  const hasUrlError = Boolean(urlErrors?.verifyUrl || urlErrors?.scriptUrl);
  const [isAdvancedOpen, setAdvancedOpen] = useState(() => Boolean(captcha.verifyUrl || captcha.scriptUrl));
  // A refused address is shown, not left in a closed section.
  useEffect(() => {
    if (hasUrlError) setAdvancedOpen(true);
  }, [hasUrlError]);

  const typeOptions = captchaProviderTypes.map((type: CaptchaProviderType) => ({
    value: type,
    title: t(`captcha.types.${type}`),
    description: t(`captcha.type_descriptions.${type}`),
  }));
  const { hint: retypeHint } = useMaskedSecretWords();
  const isStoredSecretKept = keepsStoredSecret(captcha, provider);
  const isRetyping = isSecretKeySentElsewhere(captcha, provider) && captcha.secretKey.trim() === '';
  const secretDescription = isStoredSecretKept
    ? t('captcha.secret_key_stored')
    : provider && provider.config.type !== captcha.type
      ? t('captcha.secret_key_other_type')
      : t('captcha.secret_key_new');
  const defaults = CAPTCHA_DEFAULT_URLS[captcha.type];
  const providerTitleId = useId();

  async function removeProvider() {
    const isConfirmed = await confirm({
      title: t('captcha.remove_title'),
      content: t('captcha.remove_content'),
      confirmText: t('captcha.remove_confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync();
      if (saved.captchaPolicy.enabled) await update.mutateAsync({ captchaPolicy: { enabled: false } });
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    // The provider's fields and the switch start afresh; the page's other unsaved changes stay.
    const empty = captchaToForm(null);
    for (const field of Object.keys(empty) as (keyof typeof empty)[]) {
      resetField(`captcha.${field}`, { defaultValue: empty[field] });
    }
    resetField('captchaPolicy.enabled', { defaultValue: false });
    toast.success(t('captcha.removed'));
  }

  return (
    <Card title={t('captcha.title')} description={t('captcha.description')}>
      <FormSwitch
        name="captchaPolicy.enabled"
        control={control}
        label={t('captcha.enabled')}
        description={t('captcha.enabled_description')}
      />
      <section className={styles.section} aria-labelledby={providerTitleId}>
        <h3 id={providerTitleId} className={styles.sectionTitle}>
          {t('captcha.provider')}
        </h3>
        <p className={styles.sectionDescription}>{t('captcha.provider_description')}</p>
        <div className={styles.choice}>
          <FormCardRadio name="captcha.type" control={control} label={t('captcha.type')} options={typeOptions} />
        </div>
        <div className={styles.narrow}>
          <FormTextInput
            name="captcha.siteKey"
            control={control}
            label={t('captcha.site_key')}
            description={t('captcha.site_key_description')}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
            isRequired
          />
          <FormTextInput
            name="captcha.secretKey"
            control={control}
            label={t('captcha.secret_key')}
            description={secretDescription}
            note={isRetyping ? retypeHint : undefined}
            placeholder={isStoredSecretKept ? t('captcha.secret_key_stored_placeholder') : undefined}
            dir="ltr"
            isConfidential
            autoComplete="new-password"
            isRequired={!isStoredSecretKept}
          />
        </div>
        {captcha.type === 'RecaptchaEnterprise' && (
          <div className={styles.pair}>
            <FormTextInput
              name="captcha.projectId"
              control={control}
              label={t('captcha.project_id')}
              description={t('captcha.project_id_description')}
              dir="ltr"
              autoComplete="off"
              spellCheck={false}
              isRequired
            />
            <FormNumberInput
              name="captcha.minimumScore"
              control={control}
              label={t('captcha.minimum_score')}
              description={t('captcha.minimum_score_description', { default: MINIMUM_SCORE_DEFAULT })}
              min={0}
              max={1}
              step={0.1}
              inputMode="decimal"
              isRequired
            />
          </div>
        )}
        <details
          className={styles.advanced}
          open={isAdvancedOpen}
          onToggle={(event) => setAdvancedOpen(event.currentTarget.open)}
        >
          <summary>{t('captcha.advanced')}</summary>
          <div className={styles.narrow}>
            <FormTextInput
              name="captcha.verifyUrl"
              control={control}
              type="url"
              label={t('captcha.verify_url')}
              description={t('captcha.verify_url_description')}
              placeholder={defaults.verify}
              dir="ltr"
              autoComplete="off"
              spellCheck={false}
            />
            <FormTextInput
              name="captcha.scriptUrl"
              control={control}
              type="url"
              label={t('captcha.script_url')}
              description={t('captcha.script_url_description')}
              placeholder={defaults.script}
              dir="ltr"
              autoComplete="off"
              spellCheck={false}
            />
          </div>
        </details>
        {provider && (
          <div className={styles.remove}>
            <Button variant="dangerOutline" icon={<TrashIcon />} onClick={removeProvider}>
              {t('captcha.remove')}
            </Button>
          </div>
        )}
      </section>
    </Card>
  );
}
