import {
  type Application,
  type SsoConnectorWithProviderConfig,
  type SsoIdpInitiatedAuthConfig,
  ssoProviderTypeOf,
} from '@gatehouse/schemas';
import { Fragment, useEffect, useMemo } from 'react';
import { type Control, type UseFormSetValue, useForm, useWatch } from 'react-hook-form';
import {
  useDeleteIdpInitiatedAuthConfig,
  useIdpInitiatedApplications,
  useIdpInitiatedAuthConfig,
  useSaveIdpInitiatedAuthConfig,
} from '../../../api/sso-connectors.ts';
import { PlanGate } from '../../../cloud/quota/PlanGate.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormSelect, FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { KeyValueRows } from '../../../components/form/KeyValueRows.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { Loading } from '../../../components/Loading.tsx';
import { NotFound } from '../../../components/NotFound/NotFound.tsx';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../EnterpriseSso.module.css';
import {
  type IdpInitiatedForm,
  idpInitiatedFieldOf,
  idpInitiatedFormSchema,
  idpInitiatedInputOf,
  ssoWording,
  toIdpInitiatedForm,
} from '../sso-form.ts';
import { useServiceProvider } from './ConnectionTab.tsx';
import { useSsoConnectorOutlet } from './sso-context.ts';

/** What the scope means when left empty: the application's own request decides (a protocol value, not text). */
const scopePlaceholder = 'openid profile';
/** An address's shape, the same in every language. */
const callbackPlaceholder = 'https://app.example.com/sso/idp-initiated';

/**
 * Spec §2.2 enterprise-sso/{id}/idp-initiated-auth (SAML connectors; reference `IdpInitiatedAuth`): what the identity
 * provider needs to post unsolicited answers, and the settings — on or off, the application the user lands in, its
 * redirect URI, extra authorization parameters, and the application's callback that starts its own sign-in
 * (Gatehouse cannot send the request for it: every request needs PKCE). Cloud plans without the feature say so.
 */
export function IdpInitiatedAuthTab() {
  const { connector } = useSsoConnectorOutlet();
  if (ssoProviderTypeOf[connector.providerName] !== 'SAML') return <NotFound />;
  return <IdpInitiatedAuth connector={connector} />;
}

function IdpInitiatedAuth({ connector }: { connector: SsoConnectorWithProviderConfig }) {
  const { t } = useTranslation('enterprise_sso');
  const config = useIdpInitiatedAuthConfig(connector.id);
  return (
    <div className={styles.cards}>
      {/* A line of its own, and no element at all when there is no mark (OSS, or a plan with the feature). */}
      <PlanGate quota="idpInitiatedSsoEnabled" />
      <IdpSide connector={connector} />
      {config.isPending ? (
        <Loading />
      ) : config.isError ? (
        <Card title={t('idp_initiated.title')}>
          <div className={styles.danger}>
            <p role="alert">{t('idp_initiated.load_failed')}</p>
            <Button onClick={() => void config.refetch()}>{t('retry')}</Button>
          </div>
        </Card>
      ) : (
        <SettingsForm connector={connector} saved={config.data} />
      )}
    </div>
  );
}

/** Our service provider as the IdP's unsolicited answers must name it. */
function IdpSide({ connector }: { connector: SsoConnectorWithProviderConfig }) {
  const { t } = useTranslation('enterprise_sso');
  const sp = useServiceProvider(connector);
  const rows: Array<[string, string | undefined]> = [
    [t('connection.acs_url'), sp?.assertionConsumerServiceUrl],
    [t('connection.sp_entity_id'), sp?.entityId],
  ];
  return (
    <Card title={t('idp_initiated.idp_side_title')} description={t('idp_initiated.idp_side_description')}>
      <dl className={styles.facts} data-testid="idp-side">
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>
              {value ? <CopyableValue value={value} label={t('connection.copy', { name: label })} /> : <Spinner />}
            </dd>
          </Fragment>
        ))}
      </dl>
    </Card>
  );
}

function SettingsForm({
  connector,
  saved,
}: {
  connector: SsoConnectorWithProviderConfig;
  saved: SsoIdpInitiatedAuthConfig | null;
}) {
  const { t } = useTranslation('enterprise_sso');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const save = useSaveIdpInitiatedAuthConfig(connector.id);
  const remove = useDeleteIdpInitiatedAuthConfig(connector.id);
  const { control, handleSubmit, reset, setError, setValue, formState } = useForm<IdpInitiatedForm>({
    resolver: useMemo(
      () => schemaResolver<IdpInitiatedForm>(idpInitiatedFormSchema, ssoWording(t), { raw: true }),
      [t],
    ),
    mode: 'onBlur',
    defaultValues: toIdpInitiatedForm(saved),
  });
  const enabled = useWatch({ control, name: 'enabled' });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      if (!values.enabled) {
        if (saved) await remove.mutateAsync();
        reset(toIdpInitiatedForm(null));
        toast.success(t('idp_initiated.turned_off'));
        return;
      }
      try {
        reset(toIdpInitiatedForm(await save.mutateAsync(idpInitiatedInputOf(values))));
      } catch (error) {
        const mapping = {
          codes: {
            'entity.relation_foreign_key_not_found': 'defaultApplicationId' as const,
            'single_sign_on.idp_initiated_authentication_invalid_application_type': 'defaultApplicationId' as const,
            'single_sign_on.idp_initiated_authentication_redirect_uri_not_registered': 'redirectUri' as const,
            'single_sign_on.idp_initiated_authentication_auto_send_not_supported':
              'autoSendAuthorizationRequest' as const,
          },
          paths: idpInitiatedFieldOf(values),
        };
        if (applyServerErrors({ setError }, error, mapping)) return;
        throw error;
      }
      toast.success(t('idp_initiated.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('idp_initiated.title')} description={t('idp_initiated.description')}>
        <FormSwitch
          name="enabled"
          control={control}
          label={t('idp_initiated.enabled')}
          inlineLabel={t('idp_initiated.enabled_hint')}
        />
      </Card>
      {enabled && (
        <>
          <Card title={t('idp_initiated.application_title')} description={t('idp_initiated.application_description')}>
            <ApplicationFields control={control} setValue={setValue} />
          </Card>
          <Card title={t('idp_initiated.after_title')} description={t('idp_initiated.after_description')}>
            <div className={styles.fields}>
              <FormSwitch
                name="autoSendAuthorizationRequest"
                control={control}
                label={t('idp_initiated.auto_send')}
                inlineLabel={t('idp_initiated.auto_send_hint')}
                description={t('idp_initiated.auto_send_unavailable')}
                disabled
              />
              <FormTextInput
                name="clientIdpInitiatedAuthCallbackUri"
                control={control}
                type="url"
                dir="ltr"
                label={t('idp_initiated.callback_uri')}
                description={t('idp_initiated.callback_uri_hint', { connectorId: connector.id })}
                placeholder={callbackPlaceholder}
                isRequired
              />
            </div>
          </Card>
          <Card title={t('idp_initiated.parameters_title')} description={t('idp_initiated.parameters_description')}>
            <div className={styles.fields}>
              <FormTextInput
                name="scope"
                control={control}
                dir="ltr"
                label={t('fields.scope')}
                description={t('idp_initiated.scope_hint')}
                placeholder={scopePlaceholder}
                autoComplete="off"
              />
              <KeyValueRows
                control={control}
                name="authParameters"
                labels={{
                  key: t('idp_initiated.parameter_name'),
                  value: t('idp_initiated.parameter_value'),
                  add: t('idp_initiated.parameter_add'),
                  remove: (number) => t('idp_initiated.parameter_remove', { number }),
                }}
              />
            </div>
          </Card>
        </>
      )}
    </DetailsForm>
  );
}

/** The application picker (the reference's query: traditional and single-page applications) and its redirect URIs. */
function ApplicationFields({
  control,
  setValue,
}: {
  control: Control<IdpInitiatedForm>;
  setValue: UseFormSetValue<IdpInitiatedForm>;
}) {
  const { t } = useTranslation('enterprise_sso');
  const applications = useIdpInitiatedApplications();
  const [applicationId, redirectUri] = useWatch({ control, name: ['defaultApplicationId', 'redirectUri'] });
  const chosen: Application | undefined = applications.data?.find((application) => application.id === applicationId);
  const redirectUris = chosen?.oidcClientMetadata.redirectUris;
  // Another application: a redirect URI of the one before is not one of its own.
  useEffect(() => {
    if (redirectUris && redirectUri && !redirectUris.includes(redirectUri)) {
      setValue('redirectUri', '', { shouldDirty: true });
    }
  }, [redirectUris, redirectUri, setValue]);
  const applicationOptions = useMemo(
    () =>
      (applications.data ?? []).map((application) => ({
        value: application.id,
        label: t('idp_initiated.application_option', {
          name: application.name,
          type: t(application.type === 'SPA' ? 'idp_initiated.types.SPA' : 'idp_initiated.types.Traditional'),
        }),
      })),
    [applications.data, t],
  );
  const redirectOptions = [
    { value: '', label: t('idp_initiated.any_redirect_uri') },
    ...(redirectUris ?? []).map((uri) => ({ value: uri, label: uri })),
  ];
  return (
    <div className={styles.fields}>
      <FormSelect
        name="defaultApplicationId"
        control={control}
        label={t('idp_initiated.application')}
        description={applications.data?.length === 0 ? t('idp_initiated.no_applications') : undefined}
        placeholder={
          applications.isPending ? t('idp_initiated.loading_applications') : t('idp_initiated.choose_application')
        }
        options={applicationOptions}
        isRequired
      />
      <FormSelect
        name="redirectUri"
        control={control}
        label={t('idp_initiated.redirect_uri')}
        description={t('idp_initiated.redirect_uri_hint')}
        options={redirectOptions}
        disabled={!chosen}
      />
    </div>
  );
}
