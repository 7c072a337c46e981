import type { SsoProviderName } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { useCreateSsoConnector, useSsoProviders } from '../../../api/sso-connectors.ts';
import { PlanGate } from '../../../cloud/quota/PlanGate.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { FormCardRadio } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../EnterpriseSso.module.css';
import { toSsoConnector, toSsoConnectors } from '../links.ts';
import { type CreateForm, createFormSchema, ssoWording } from '../sso-form.ts';

/**
 * Spec §2.2 enterprise-sso/create, a dialog over the list: the provider (the generic OIDC and SAML, and the presets
 * of GET /sso-connector-providers) and the connector's name. A name in use (422) shows on the name field; success
 * opens the new connector's connection tab, where its IdP is set up.
 */
export function CreateSsoConnectorModal() {
  const { t } = useTranslation('enterprise_sso');
  const navigate = useNavigate();
  const location = useLocation();
  const resolve = useTenantPath();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const providers = useSsoProviders();
  const create = useCreateSsoConnector();
  const { control, handleSubmit, setError, formState } = useForm<CreateForm>({
    resolver: useMemo(() => schemaResolver<CreateForm>(createFormSchema, ssoWording(t), { raw: true }), [t]),
    mode: 'onBlur',
    defaultValues: { providerName: '', connectorName: '' },
  });

  const close = () => navigate({ pathname: resolve(toSsoConnectors()), search: location.search });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const connector = await create.mutateAsync({
          providerName: values.providerName as SsoProviderName,
          connectorName: values.connectorName.trim(),
        });
        toast.success(t('create.created', { name: connector.connectorName }));
        await navigate(resolve(toSsoConnector(connector.id)), { replace: true });
      } catch (error) {
        const mapping = {
          codes: { 'single_sign_on.duplicate_connector_name': 'connectorName' as const },
          paths: (path: string) =>
            path === 'connectorName' ? 'connectorName' : path === 'providerName' ? 'providerName' : undefined,
        };
        if (!applyServerErrors({ setError }, error, mapping)) throw error;
      }
    }),
  );

  return (
    <FormModal
      title={t('create.title')}
      size="large"
      submitText={t('create.submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <PlanGate quota="enterpriseSsoLimit" />
      {providers.isPending ? (
        <p role="status">
          <Spinner /> {t('create.loading_providers')}
        </p>
      ) : providers.isError ? (
        <p role="alert">
          {t('create.providers_failed')} <Button onClick={() => void providers.refetch()}>{t('retry')}</Button>
        </p>
      ) : (
        <FormCardRadio
          name="providerName"
          control={control}
          label={t('fields.provider')}
          isRequired
          options={providers.data.map((provider) => ({
            value: provider.providerName as string,
            title: provider.name,
            description: provider.description,
            icon: <img className={styles.providerIcon} src={provider.logo} alt="" width={32} height={32} />,
          }))}
        />
      )}
      <FormTextInput
        name="connectorName"
        control={control}
        label={t('fields.connector_name')}
        description={t('create.name_hint')}
        isRequired
        autoComplete="off"
      />
    </FormModal>
  );
}
