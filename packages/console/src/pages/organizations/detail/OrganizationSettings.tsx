import type { Organization, OrganizationPatch } from '@gatehouse/schemas';
import { useForm } from 'react-hook-form';
import { useUpdateOrganization } from '../../../api/organizations.ts';
import { Card } from '../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormCodeEditor } from '../../../components/form/bound/FormCodeEditor.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { customDataText, parseCustomData } from '../../../components/form/custom-data.ts';
import { isSameJson } from '../../../components/form/json-equal.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Organizations.module.css';
import {
  type OrganizationSettingsForm,
  organizationSettingsFormSchema,
  useOrganizationFormResolver,
} from '../organization-form.ts';
import { JitSsoConnectors } from './JitSsoConnectors.tsx';
import { useOrganizationOutlet } from './organization-context.ts';

const toForm = (organization: Organization): OrganizationSettingsForm => ({
  name: organization.name,
  description: organization.description ?? '',
  isMfaRequired: organization.isMfaRequired,
  customData: customDataText(organization.customData),
});

/** Only what changed goes into the PATCH (custom data replaces the stored object whole). */
function toPatch(form: OrganizationSettingsForm, organization: Organization): OrganizationPatch {
  const patch: OrganizationPatch = {};
  if (form.name.trim() !== organization.name) patch.name = form.name.trim();
  if (form.description !== (organization.description ?? '')) patch.description = form.description || null;
  if (form.isMfaRequired !== organization.isMfaRequired) patch.isMfaRequired = form.isMfaRequired;
  const customData = parseCustomData(form.customData);
  if (customData.ok && !isSameJson(customData.value, organization.customData)) patch.customData = customData.value;
  return patch;
}

/**
 * Spec §2.2 organizations/{id}/settings: name, description, MFA required and custom data (JSON checked before
 * anything is sent), with the unsaved-changes guard; and the enterprise SSO connectors that provision members.
 */
export function OrganizationSettings() {
  const { t } = useTranslation('organizations');
  const { organization } = useOrganizationOutlet();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateOrganization(organization.id);
  const { control, handleSubmit, reset, formState } = useForm<OrganizationSettingsForm>({
    resolver: useOrganizationFormResolver(organizationSettingsFormSchema),
    mode: 'onBlur',
    defaultValues: toForm(organization),
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const patch = toPatch(values, organization);
      if (Object.keys(patch).length === 0) {
        reset(values);
        return;
      }
      const saved = await update.mutateAsync(patch);
      reset(toForm(saved));
      toast.success(t('settings.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('settings.general')}>
        <div className={styles.form}>
          <FormTextInput name="name" control={control} label={t('fields.name')} isRequired />
          <FormTextInput name="description" control={control} label={t('fields.description')} />
        </div>
      </Card>
      <Card title={t('settings.mfa')} description={t('settings.mfa_description')}>
        <FormSwitch
          name="isMfaRequired"
          control={control}
          label={t('fields.isMfaRequired')}
          inlineLabel={t('settings.mfa_switch')}
        />
      </Card>
      <Card title={t('fields.customData')} description={t('settings.custom_data_description')}>
        <FormCodeEditor
          name="customData"
          control={control}
          label={t('settings.custom_data_label')}
          language="json"
          minLines={8}
        />
      </Card>
      <JitSsoConnectors organizationId={organization.id} />
    </DetailsForm>
  );
}
