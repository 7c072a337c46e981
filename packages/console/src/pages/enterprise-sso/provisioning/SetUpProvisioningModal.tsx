import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useCreateScimConnection } from '../../../api/scim-connections.ts';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toSsoConnector } from '../links.ts';
import { type ProvisioningForm, provisioningFormSchema, scimCreateOf, toProvisioningForm } from '../scim-form.ts';
import { ssoWording } from '../sso-form.ts';
import { ProvisioningFields } from './ProvisioningFields.tsx';
import { useProvisioningOutlet } from './provisioning-context.ts';
import { placeScimRefusal } from './scim-refusals.ts';

/**
 * enterprise-sso/{id}/provisioning/setup, a dialog over the provisioning tab: the connection's name, group mapping and
 * deprovisioning. The shared schema's rules are checked before sending (an organization mapping needs its
 * organization); the server's refusals go onto their fields. On success the tab shows the token, this once.
 */
export function SetUpProvisioningModal() {
  const { t } = useTranslation('enterprise_sso');
  const { connector, onCreated } = useProvisioningOutlet();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateScimConnection(connector.id);
  const { control, handleSubmit, setError, formState } = useForm<ProvisioningForm>({
    resolver: useMemo(
      () => schemaResolver<ProvisioningForm>(provisioningFormSchema, ssoWording(t), { raw: true }),
      [t],
    ),
    mode: 'onBlur',
    defaultValues: toProvisioningForm(null, connector.connectorName),
  });

  const tab = resolve(toSsoConnector(connector.id, 'provisioning'));
  const close = () => navigate(tab);

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const created = await create.mutateAsync(scimCreateOf(values, connector.id));
        onCreated(created);
        toast.success(t('scim.created', { name: created.name }));
        await navigate(tab, { replace: true });
      } catch (error) {
        if (!placeScimRefusal({ setError }, error, values)) throw error;
      }
    }),
  );

  return (
    <FormModal
      title={t('scim.setup_title')}
      description={t('scim.setup_description')}
      submitText={t('scim.setup_submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <ProvisioningFields control={control} />
    </FormModal>
  );
}
