import { TENANT_NAME_MAX_LENGTH, type TenantRegion, tenantCreateSchema, tenantRegions } from '@gatehouse/schemas';
import { CardRadio } from '../../components/form/CardRadio.tsx';
import { FormField } from '../../components/form/FormField.tsx';
import { TextInput } from '../../components/form/TextInput.tsx';
import { useTranslation } from '../../i18n/react.tsx';

/**
 * Spec §5 tenant creation, by the name rule of POST /api/tenants (`tenantNameSchema`): a name is required (the modal;
 * onboarding falls back to the default name) and at most 128 characters once trimmed.
 */
export function tenantNameError(name: string, isRequired: boolean): 'name_required' | 'name_too_long' | undefined {
  if (!isRequired && name.trim() === '') return undefined;
  const issue = tenantCreateSchema.shape.name.safeParse(name).error?.issues[0];
  if (!issue) return undefined;
  return issue.code === 'too_big' ? 'name_too_long' : 'name_required';
}

type Props = {
  name: string;
  onNameChange: (name: string) => void;
  nameError: 'name_required' | 'name_too_long' | undefined;
  isNameRequired: boolean;
  namePlaceholder?: string;
  region: TenantRegion;
  onRegionChange: (region: TenantRegion) => void;
};

/** The name and region fields the create modal and onboarding share. */
export function TenantFields({
  name,
  onNameChange,
  nameError,
  isNameRequired,
  namePlaceholder,
  region,
  onRegionChange,
}: Props) {
  const { t } = useTranslation('tenants');
  return (
    <>
      <FormField
        name="name"
        label={t('create.name')}
        isRequired={isNameRequired}
        error={nameError && t(`create.${nameError}`, { max: TENANT_NAME_MAX_LENGTH })}
      >
        <TextInput
          value={name}
          onChange={(event) => onNameChange(event.target.value)}
          placeholder={namePlaceholder}
          autoComplete="off"
        />
      </FormField>
      <FormField name="regionName" label={t('create.region')} description={t('create.region_description')} isGroup>
        <CardRadio
          options={tenantRegions.map((value) => ({ value, title: t(`region.${value}`) }))}
          value={region}
          onChange={onRegionChange}
        />
      </FormField>
    </>
  );
}
