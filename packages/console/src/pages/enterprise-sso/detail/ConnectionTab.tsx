import {
  DEFAULT_TENANT_ID,
  type SsoConnectorWithProviderConfig,
  type SsoProviderConfig,
  ssoProviderTypeOf,
} from '@gatehouse/schemas';
import { type ReactNode, useMemo, useState } from 'react';
import { type FieldValues, type UseFormSetError, useForm, useWatch } from 'react-hook-form';
import { useParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { idpReadErrorCodes, useUpdateSsoConnector } from '../../../api/sso-connectors.ts';
import { tenantEndpoints, useConsoleConfig } from '../../../api/tenant-endpoints.ts';
import { Card } from '../../../components/Card/Card.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormCardRadio } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextArea, FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { noFields, useMaskedSecretGuard } from '../../../components/form/masked-secrets.ts';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../EnterpriseSso.module.css';
import {
  attributeKeys,
  connectionFieldOf,
  hasIssuerField,
  type OidcForm,
  oidcConfigOf,
  oidcFormSchema,
  oidcSecretBinding,
  type SamlForm,
  samlConfigOf,
  samlFormSchema,
  samlSources,
  ssoWording,
  toOidcForm,
  toSamlForm,
} from '../sso-form.ts';
import { useSsoConnectorOutlet } from './sso-context.ts';

/** What the IdP is asked for when the scope is left empty (the contract's default); a protocol value, not text. */
const defaultScope = 'openid profile email';

/**
 * Spec §2.2 enterprise-sso/{id}/connection: our side first (what to register at the IdP, to copy), then the IdP's side
 * (OIDC: issuer, client, scope; SAML: metadata by URL or XML, or its parts by hand, and the attribute names), then what
 * the server read from the IdP on the last save, or why it could not.
 */
export function ConnectionTab() {
  const { connector } = useSsoConnectorOutlet();
  // The server's reason the IdP could not be read on the last save (nothing was saved then).
  const [readError, setReadError] = useState<string>();
  const isOidc = ssoProviderTypeOf[connector.providerName] === 'OIDC';
  return (
    <div className={styles.cards}>
      <OurSide connector={connector} isOidc={isOidc} />
      {isOidc ? (
        <OidcSettings connector={connector} onReadError={setReadError} />
      ) : (
        <SamlSettings connector={connector} onReadError={setReadError} />
      )}
      <IdpResult connector={connector} readError={readError} />
    </div>
  );
}

type SettingsProps = { connector: SsoConnectorWithProviderConfig; onReadError: (message: string | undefined) => void };

/**
 * Saves a config; a refusal to read the IdP becomes the result card's message instead of a toast. `issueMessages`
 * words a field's issue codes in the console's language (a client secret kept by its mask for a new issuer).
 */
function useSaveConfig<Values extends FieldValues>(
  connector: SsoConnectorWithProviderConfig,
  onReadError: SettingsProps['onReadError'],
  setError: UseFormSetError<Values>,
  issueMessages: { readonly [issueCode: string]: string } = {},
) {
  const update = useUpdateSsoConnector(connector.id);
  return async (config: Record<string, unknown>) => {
    try {
      const saved = await update.mutateAsync({ config });
      onReadError(undefined);
      return saved;
    } catch (error) {
      if (error instanceof ApiError && error.code && (idpReadErrorCodes as readonly string[]).includes(error.code)) {
        // A config refusal that names its fields goes onto them; the IdP's own failure is the result card's.
        applyServerErrors({ setError }, error, {
          paths: connectionFieldOf,
          listCodes: [error.code],
          onUnplaced: (refusal) => onReadError(refusal.message),
        });
        return undefined;
      }
      if (applyServerErrors({ setError }, error, { paths: connectionFieldOf, issueMessages })) return undefined;
      throw error;
    }
  };
}

function OidcSettings({ connector, onReadError }: SettingsProps) {
  const { t } = useTranslation('enterprise_sso');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const schema = useMemo(() => oidcFormSchema(connector.providerName), [connector.providerName]);
  const form = useForm<OidcForm>({
    resolver: useMemo(() => schemaResolver<OidcForm>(schema, ssoWording(t), { raw: true }), [schema, t]),
    mode: 'onBlur',
    defaultValues: toOidcForm(connector.config),
  });
  const { control, handleSubmit, reset, setError, formState } = form;
  // A changed issuer empties a masked client secret, to be entered again: it is never sent to another issuer.
  const [retyping, setRetyping] = useState(noFields);
  const { hint: secretHint, issueMessages } = useMaskedSecretGuard(form, oidcSecretBinding, setRetyping);
  const save = useSaveConfig(connector, onReadError, setError, issueMessages);

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const saved = await save(oidcConfigOf(values, connector.providerName));
      if (!saved) return;
      reset(toOidcForm(saved.config));
      toast.success(t('connection.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('connection.idp_title')} description={t('connection.oidc_description')}>
        <div className={styles.fields}>
          {hasIssuerField(connector.providerName) && (
            <FormTextInput
              name="issuer"
              control={control}
              type="url"
              dir="ltr"
              label={t('fields.issuer')}
              description={t('connection.issuer_hint')}
              placeholder="https://"
              isRequired
            />
          )}
          <FormTextInput name="clientId" control={control} dir="ltr" label={t('fields.client_id')} isRequired />
          <FormTextInput
            name="clientSecret"
            control={control}
            dir="ltr"
            label={t('fields.client_secret')}
            description={t('connection.client_secret_hint')}
            note={retyping.has('clientSecret') ? secretHint : undefined}
            isConfidential
            isRequired
          />
          <FormTextInput
            name="scope"
            control={control}
            dir="ltr"
            label={t('fields.scope')}
            description={t('connection.scope_hint')}
            placeholder={defaultScope}
          />
        </div>
      </Card>
    </DetailsForm>
  );
}

function SamlSettings({ connector, onReadError }: SettingsProps) {
  const { t } = useTranslation('enterprise_sso');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const { control, handleSubmit, reset, setError, formState } = useForm<SamlForm>({
    resolver: useMemo(() => schemaResolver<SamlForm>(samlFormSchema, ssoWording(t), { raw: true }), [t]),
    mode: 'onBlur',
    defaultValues: toSamlForm(connector.config),
  });
  const source = useWatch({ control, name: 'source' });
  const save = useSaveConfig(connector, onReadError, setError);

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const saved = await save(samlConfigOf(values));
      if (!saved) return;
      reset(toSamlForm(saved.config));
      toast.success(t('connection.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('connection.idp_title')} description={t('connection.saml_description')}>
        <div className={styles.fields}>
          <FormCardRadio
            name="source"
            control={control}
            label={t('connection.source')}
            options={samlSources.map((value) => ({
              value,
              title: t(`connection.sources.${value}`),
              description: t(`connection.sources.${value}_description`),
            }))}
          />
          {source === 'url' && (
            <FormTextInput
              name="metadataUrl"
              control={control}
              type="url"
              dir="ltr"
              label={t('fields.metadata_url')}
              placeholder="https://"
              isRequired
            />
          )}
          {source === 'xml' && (
            <FormTextArea name="metadata" control={control} label={t('fields.metadata')} rows={8} isRequired />
          )}
          {source === 'manual' && (
            <>
              <FormTextInput name="entityId" control={control} dir="ltr" label={t('fields.idp_entity_id')} isRequired />
              <FormTextInput
                name="signInEndpoint"
                control={control}
                type="url"
                dir="ltr"
                label={t('fields.sign_in_endpoint')}
                placeholder="https://"
                isRequired
              />
              <FormTextArea
                name="x509Certificate"
                control={control}
                label={t('fields.certificate')}
                description={t('connection.certificate_hint')}
                rows={6}
                isRequired
              />
            </>
          )}
        </div>
      </Card>
      <Card title={t('connection.mapping_title')} description={t('connection.mapping_description')}>
        <div className={styles.mapping}>
          {attributeKeys.map((key) => (
            <FormTextInput
              key={key}
              name={`attributeMapping.${key}`}
              control={control}
              dir="ltr"
              label={t(`connection.mapping.${key}`)}
            />
          ))}
        </div>
      </Card>
    </DetailsForm>
  );
}

/** Our side of the connection, per connector (the server's `ssoCallbackUrl` and `serviceProviderOf`). */
export function useServiceProvider(connector: SsoConnectorWithProviderConfig) {
  const { tenantId } = useParams();
  const config = useConsoleConfig();
  if (!config.data) return undefined;
  const { publicUrl } = tenantEndpoints(config.data, tenantId);
  const base = `${encodeURIComponent(tenantId ?? DEFAULT_TENANT_ID)}/${encodeURIComponent(connector.id)}`;
  const callbackUrl = `${publicUrl}/callback/sso/${base}`;
  const served = connector.providerConfig?.serviceProvider;
  return {
    callbackUrl,
    entityId: served?.entityId ?? `${publicUrl}/enterprise-sso/${base}`,
    assertionConsumerServiceUrl: served?.assertionConsumerServiceUrl ?? callbackUrl,
    metadataUrl: served?.metadataUrl ?? `${publicUrl}/enterprise-sso/${base}/saml-metadata`,
  };
}

function OurSide({ connector, isOidc }: { connector: SsoConnectorWithProviderConfig; isOidc: boolean }) {
  const { t } = useTranslation('enterprise_sso');
  const sp = useServiceProvider(connector);
  const rows: Array<[string, string | undefined]> = isOidc
    ? [[t('connection.redirect_uri'), sp?.callbackUrl]]
    : [
        [t('connection.acs_url'), sp?.assertionConsumerServiceUrl],
        [t('connection.sp_entity_id'), sp?.entityId],
        [t('connection.sp_metadata_url'), sp?.metadataUrl],
      ];
  return (
    <Card
      title={t('connection.our_side_title')}
      description={t(isOidc ? 'connection.our_side_oidc' : 'connection.our_side_saml')}
    >
      <dl className={styles.facts} data-testid="our-side">
        {rows.map(([label, value]) => (
          <Fact key={label} label={label}>
            {value ? <CopyableValue value={value} label={t('connection.copy', { name: label })} /> : <Spinner />}
          </Fact>
        ))}
      </dl>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** What the server read from the IdP (`providerConfig`) on the last save, or the reason it could not. */
function IdpResult({ connector, readError }: { connector: SsoConnectorWithProviderConfig; readError?: string }) {
  const { t, i18n } = useTranslation('enterprise_sso');
  const read: SsoProviderConfig | undefined = connector.providerConfig;
  const shown: Array<[string, string | undefined]> = read
    ? [
        [t('result.issuer'), read.issuer],
        [t('result.authorization_endpoint'), read.authorizationEndpoint],
        [t('result.token_endpoint'), read.tokenEndpoint],
        [t('result.userinfo_endpoint'), read.userinfoEndpoint],
        [t('result.jwks_uri'), read.jwksUri],
        [t('result.entity_id'), read.entityId],
        [t('result.sign_in_endpoint'), read.signInEndpoint],
      ]
    : [];
  const expires =
    read?.certificateExpiresAt === undefined
      ? undefined
      : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(read.certificateExpiresAt);
  return (
    <Card title={t('result.title')}>
      <div aria-live="polite" data-testid="idp-result">
        {readError && (
          <p className={styles.alert} role="alert">
            {t('result.read_failed', { message: readError })}
          </p>
        )}
        {read ? (
          <dl className={styles.facts}>
            {shown.flatMap(([label, value]) =>
              value
                ? [
                    <Fact key={label} label={label}>
                      <code className={styles.code} dir="ltr">
                        {value}
                      </code>
                    </Fact>,
                  ]
                : [],
            )}
            {expires && (
              <Fact label={t('result.certificate_expires')}>
                <span>{expires}</span>
              </Fact>
            )}
          </dl>
        ) : (
          !readError && <p className={styles.notice}>{t('result.not_read')}</p>
        )}
      </div>
    </Card>
  );
}
