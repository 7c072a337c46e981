import { useMemo, useState } from 'react';
import { type Control, useWatch } from 'react-hook-form';
import { useOrganizations } from '../../../api/organizations.ts';
import { useMappedOrganization } from '../../../api/scim-connections.ts';
import { FormCardRadio, FormSelect } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { SearchBox } from '../../../components/Table/SearchBox.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../EnterpriseSso.module.css';
import type { ProvisioningForm } from '../scim-form.ts';

/** Organizations the picker offers at once; more are reached by searching. */
const pickerPageSize = 50;

/**
 * The settings of a SCIM connection, in the setup dialog and on the provisioning tab: its name, what the directory's
 * groups grant (tenant roles by name, or membership and roles in one organization) and what deprovisioning does.
 */
export function ProvisioningFields({ control }: { control: Control<ProvisioningForm> }) {
  const { t } = useTranslation('enterprise_sso');
  const mapping = useWatch({ control, name: 'mapping' });
  return (
    <div className={styles.fields}>
      <FormTextInput
        name="connectionName"
        control={control}
        label={t('scim.fields.name')}
        description={t('scim.fields.name_hint')}
        isRequired
        autoComplete="off"
      />
      <FormCardRadio
        name="mapping"
        control={control}
        label={t('scim.fields.mapping')}
        options={[
          { value: 'roles', title: t('scim.mapping.roles'), description: t('scim.mapping.roles_description') },
          {
            value: 'organization',
            title: t('scim.mapping.organization'),
            description: t('scim.mapping.organization_description'),
          },
        ]}
      />
      {mapping === 'organization' && <OrganizationPicker control={control} />}
      <FormCardRadio
        name="deprovision"
        control={control}
        label={t('scim.fields.deprovision')}
        options={[
          {
            value: 'suspend',
            title: t('scim.deprovision.suspend'),
            description: t('scim.deprovision.suspend_description'),
          },
          {
            value: 'delete',
            title: t('scim.deprovision.delete'),
            description: t('scim.deprovision.delete_description'),
          },
        ]}
      />
    </div>
  );
}

/**
 * The organization of an organization mapping: a select of the tenant's first organizations, narrowed by a server-side
 * search when there are more; the chosen one always stays among the options.
 */
function OrganizationPicker({ control }: { control: Control<ProvisioningForm> }) {
  const { t } = useTranslation('enterprise_sso');
  const [search, setSearch] = useState('');
  const organizations = useOrganizations({ page: 1, pageSize: pickerPageSize, search });
  const chosenId = useWatch({ control, name: 'organizationId' });
  const chosen = useMappedOrganization(chosenId);
  const items = organizations.data?.items;
  const options = useMemo(() => {
    const listed = (items ?? []).map((organization) => ({ value: organization.id, label: organization.name }));
    if (!chosenId || listed.some((option) => option.value === chosenId)) return listed;
    return [{ value: chosenId, label: chosen.data?.name ?? chosenId }, ...listed];
  }, [items, chosenId, chosen.data]);
  const isSearchable = search !== '' || (organizations.data?.total ?? 0) > pickerPageSize;
  const hasNone = !search && organizations.data?.total === 0;
  return (
    <div className={styles.picker}>
      {isSearchable && (
        <SearchBox
          label={t('scim.organization_search')}
          placeholder={t('scim.organization_search')}
          onSearch={setSearch}
        />
      )}
      <FormSelect
        name="organizationId"
        control={control}
        label={t('scim.fields.organization')}
        description={hasNone ? t('scim.no_organizations') : t('scim.fields.organization_hint')}
        placeholder={organizations.isPending ? t('scim.loading_organizations') : t('scim.choose_organization')}
        options={options}
        isRequired
      />
    </div>
  );
}
