import { type Application, ID_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_DAYS, redirectUriKind } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useUpdateApplication } from '../../../../api/applications.ts';
import { Card } from '../../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../../components/DetailsForm/DetailsForm.tsx';
import { FormSwitch } from '../../../../components/form/bound/FormChoiceInputs.tsx';
import { FormMultiTextInput } from '../../../../components/form/bound/FormListInputs.tsx';
import { FormNumberInput, FormTextInput } from '../../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../../components/form/schema-resolver.ts';
import { applyServerErrors } from '../../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { traitsOf } from '../../application-types.ts';
import { ruleWording } from '../../form/rules.ts';
import { useRuleMessages } from '../../form/use-rule-messages.ts';
import styles from './Settings.module.css';
import {
  type SettingsFormOutput,
  type SettingsFormValues,
  settingsFormPath,
  settingsFormSchema,
  toApplicationPatch,
  toSettingsForm,
} from './settings-form.ts';

/** General, URI and token settings of an OIDC application; each card only holds what the type has. */
export function OidcSettingsForm({ application }: { application: Application }) {
  const { t } = useTranslation('applications');
  const toast = useToast();
  const traits = traitsOf(application.type);
  const kind = redirectUriKind(application.type);
  const messages = useRuleMessages();
  const resolver = useMemo(
    () => schemaResolver(settingsFormSchema(application, messages), ruleWording(messages)),
    [application, messages],
  );
  const { control, handleSubmit, reset, setError, formState } = useForm<
    SettingsFormValues,
    unknown,
    SettingsFormOutput
  >({
    resolver,
    mode: 'onBlur',
    defaultValues: toSettingsForm(application),
  });
  const update = useUpdateApplication(application.id);
  const submitWith = useSubmitHandler();

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        reset(toSettingsForm(await update.mutateAsync(toApplicationPatch(values, traits))));
      } catch (error) {
        if (applyServerErrors({ setError }, error, { paths: settingsFormPath })) return;
        throw error;
      }
      toast.success(t('settings.saved'));
    }),
  );

  const hasUris = traits.redirectUris || traits.corsOrigins || traits.backchannelLogout;
  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('settings.general')}>
        <div className={styles.fields}>
          <FormTextInput name="name" control={control} label={t('fields.name')} isRequired autoComplete="off" />
          <FormTextInput name="description" control={control} label={t('fields.description')} autoComplete="off" />
        </div>
      </Card>
      {hasUris && (
        <Card title={t('settings.uris')} description={t(`hints.redirect_uris_${kind}`)}>
          <div className={styles.fields}>
            {traits.redirectUris && (
              <>
                <FormMultiTextInput
                  name="redirectUris"
                  control={control}
                  label={t('fields.redirectUris')}
                  itemLabel={t('fields.redirectUri')}
                  placeholder={t(`placeholders.redirect_uri_${kind}`)}
                />
                <FormMultiTextInput
                  name="postLogoutRedirectUris"
                  control={control}
                  label={t('fields.postLogoutRedirectUris')}
                  description={t('hints.post_logout_redirect_uris')}
                  itemLabel={t('fields.postLogoutRedirectUri')}
                  placeholder={t(`placeholders.post_logout_redirect_uri_${kind}`)}
                />
              </>
            )}
            {traits.corsOrigins && (
              <FormMultiTextInput
                name="corsAllowedOrigins"
                control={control}
                label={t('fields.corsAllowedOrigins')}
                description={t('hints.cors_allowed_origins')}
                itemLabel={t('fields.corsAllowedOrigin')}
                placeholder={t('placeholders.origin')}
              />
            )}
            {traits.backchannelLogout && (
              <FormTextInput
                name="backchannelLogoutUri"
                control={control}
                label={t('fields.backchannelLogoutUri')}
                description={t('hints.backchannel_logout_uri')}
                placeholder={t('placeholders.backchannel_logout_uri')}
                type="url"
                autoComplete="off"
              />
            )}
          </div>
        </Card>
      )}
      {traits.userTokens && (
        <Card title={t('settings.tokens')}>
          <div className={styles.fields}>
            <FormNumberInput
              name="idTokenTtl"
              control={control}
              label={t('fields.idTokenTtl')}
              description={t('hints.id_token_ttl', { min: ID_TOKEN_TTL_SECONDS.min, max: ID_TOKEN_TTL_SECONDS.max })}
              min={ID_TOKEN_TTL_SECONDS.min}
              max={ID_TOKEN_TTL_SECONDS.max}
            />
            <FormNumberInput
              name="refreshTokenTtlInDays"
              control={control}
              label={t('fields.refreshTokenTtlInDays')}
              description={t('hints.refresh_token_ttl', {
                min: REFRESH_TOKEN_TTL_DAYS.min,
                max: REFRESH_TOKEN_TTL_DAYS.max,
              })}
              min={REFRESH_TOKEN_TTL_DAYS.min}
              max={REFRESH_TOKEN_TTL_DAYS.max}
            />
            <FormSwitch
              name="alwaysIssueRefreshToken"
              control={control}
              label={t('fields.alwaysIssueRefreshToken')}
              inlineLabel={t('hints.always_issue_refresh_token')}
            />
            <FormSwitch
              name="rotateRefreshToken"
              control={control}
              label={t('fields.rotateRefreshToken')}
              inlineLabel={t('hints.rotate_refresh_token')}
            />
          </div>
        </Card>
      )}
    </DetailsForm>
  );
}
