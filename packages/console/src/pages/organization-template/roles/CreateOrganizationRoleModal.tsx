import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { useCreateOrganizationRole } from '../../../api/organization-template.ts';
import { FormCardRadio } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { usablePicks } from '../../../components/PermissionPicker/built-in-resources.ts';
import { PermissionFieldset } from '../../../components/PermissionPicker/PermissionFieldset.tsx';
import { PermissionPicker, type PermissionPicks } from '../../../components/PermissionPicker/PermissionPicker.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toOrganizationRole, toOrganizationTemplate } from '../links.ts';
import { OrganizationScopePicker, type OrganizationScopePicks } from '../OrganizationScopePicker.tsx';
import { type CreateRoleForm, createRoleFormSchema, useTemplateFormResolver } from '../template-form.ts';

/**
 * organization-template/organization-roles/create, a dialog over the list: type, name, description and the
 * organization and API resource permissions the role starts with. A name in use (422) is shown on the name field.
 */
export function CreateOrganizationRoleModal() {
  const { t } = useTranslation('organization_template');
  const navigate = useNavigate();
  const location = useLocation();
  const resolve = useTenantPath();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateOrganizationRole();
  const [organizationPicks, setOrganizationPicks] = useState<OrganizationScopePicks>(new Map());
  const [apiPicks, setApiPicks] = useState<PermissionPicks>(new Map());
  const { control, handleSubmit, setError, watch, formState } = useForm<CreateRoleForm>({
    resolver: useTemplateFormResolver(createRoleFormSchema, 'name'),
    mode: 'onBlur',
    defaultValues: { type: 'User', name: '', description: '' },
  });
  const type = watch('type');
  const usableApiPicks = usablePicks(apiPicks, type);

  const close = () => navigate({ pathname: resolve(toOrganizationTemplate()), search: location.search });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const organizationScopeIds = [...organizationPicks.keys()];
      const resourceScopeIds = [...usableApiPicks.keys()];
      try {
        const role = await create.mutateAsync({
          ...values,
          description: values.description || null,
          organizationScopeIds: organizationScopeIds.length ? organizationScopeIds : undefined,
          resourceScopeIds: resourceScopeIds.length ? resourceScopeIds : undefined,
        });
        toast.success(t('create_role.created', { name: role.name }));
        await navigate(resolve(toOrganizationRole(role.id)), { replace: true });
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: { 'entity.unique_integrity_violation': 'name' } }))
          throw error;
      }
    }),
  );

  return (
    <FormModal
      title={t('create_role.title')}
      size="large"
      submitText={t('create_role.submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <FormTextInput
        name="name"
        control={control}
        label={t('fields.name')}
        isRequired
        placeholder={t('create_role.name_placeholder')}
        autoComplete="off"
      />
      <FormTextInput
        name="description"
        control={control}
        label={t('fields.description')}
        placeholder={t('create_role.description_placeholder')}
        autoComplete="off"
      />
      <FormCardRadio
        name="type"
        control={control}
        label={t('fields.type')}
        options={(['User', 'MachineToMachine'] as const).map((value) => ({
          value,
          title: t(`types.${value}.title`),
          description: t(`types.${value}.description`),
        }))}
      />
      <PermissionFieldset
        legend={t('create_role.organization_permissions')}
        hint={t('create_role.organization_permissions_hint')}
      >
        <OrganizationScopePicker picked={organizationPicks} onChange={setOrganizationPicks} />
      </PermissionFieldset>
      <PermissionFieldset legend={t('create_role.api_permissions')} hint={t('create_role.api_permissions_hint')}>
        <PermissionPicker
          roleType={type}
          cacheKey={['organization-roles', 'picker']}
          picked={usableApiPicks}
          onChange={setApiPicks}
        />
      </PermissionFieldset>
    </FormModal>
  );
}
