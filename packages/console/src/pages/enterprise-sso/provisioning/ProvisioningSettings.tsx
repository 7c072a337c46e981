import type { ScimConnection } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useUpdateScimConnection } from '../../../api/scim-connections.ts';
import { Card } from '../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { type ProvisioningForm, provisioningFormSchema, scimPatchOf, toProvisioningForm } from '../scim-form.ts';
import { ssoWording } from '../sso-form.ts';
import { ProvisioningFields } from './ProvisioningFields.tsx';
import { placeScimRefusal } from './scim-refusals.ts';

/** The connection's name, group mapping and deprovisioning, saved with one PATCH (the shared schema's rules first). */
export function ProvisioningSettings({ connection }: { connection: ScimConnection }) {
  const { t } = useTranslation('enterprise_sso');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateScimConnection(connection);
  const { control, handleSubmit, reset, setError, formState } = useForm<ProvisioningForm>({
    resolver: useMemo(
      () => schemaResolver<ProvisioningForm>(provisioningFormSchema, ssoWording(t), { raw: true }),
      [t],
    ),
    mode: 'onBlur',
    defaultValues: toProvisioningForm(connection, connection.name),
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        reset(toProvisioningForm(await update.mutateAsync(scimPatchOf(values)), values.connectionName));
      } catch (error) {
        if (placeScimRefusal({ setError }, error, values)) return;
        throw error;
      }
      toast.success(t('scim.settings.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('scim.settings.title')} description={t('scim.settings.description')}>
        <ProvisioningFields control={control} />
      </Card>
    </DetailsForm>
  );
}
