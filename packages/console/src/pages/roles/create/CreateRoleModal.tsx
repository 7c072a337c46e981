import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { useCreateRole } from '../../../api/roles.ts';
import { PlanGate } from '../../../cloud/quota/PlanGate.tsx';
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
import { toRole, toRoles } from '../links.ts';
import { type CreateRoleForm, createRoleFormSchema, useRoleFormResolver } from '../role-form.ts';

/**
 * Spec §2.2 roles/create, a dialog over the list: type, name, description and the permissions the role starts with.
 * A name in use (422) is shown on the name field. Success opens the new role.
 */
export function CreateRoleModal() {
  const { t } = useTranslation('roles');
  const navigate = useNavigate();
  const location = useLocation();
  const resolve = useTenantPath();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateRole();
  const [picked, setPicked] = useState<PermissionPicks>(new Map());
  const { control, handleSubmit, setError, watch, formState } = useForm<CreateRoleForm>({
    resolver: useRoleFormResolver(createRoleFormSchema),
    mode: 'onBlur',
    defaultValues: { type: 'User', name: '', description: '' },
  });
  const type = watch('type');
  const usable = usablePicks(picked, type);

  // Back to the list with its search and filters as they were.
  const close = () => navigate({ pathname: resolve(toRoles()), search: location.search });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const scopeIds = [...usable.keys()];
      try {
        const role = await create.mutateAsync({ ...values, scopeIds: scopeIds.length ? scopeIds : undefined });
        toast.success(t('create.created', { name: role.name }));
        await navigate(resolve(toRole(role.id)), { replace: true });
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: { 'role.name_in_use': 'name' } })) throw error;
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
      <PlanGate quota={type === 'MachineToMachine' ? 'machineToMachineRolesLimit' : 'userRolesLimit'} />
      <FormTextInput
        name="name"
        control={control}
        label={t('fields.name')}
        isRequired
        placeholder={t('create.name_placeholder')}
      />
      <FormTextInput
        name="description"
        control={control}
        label={t('fields.description')}
        placeholder={t('create.description_placeholder')}
      />
      <PermissionFieldset legend={t('create.permissions')} hint={t('create.permissions_hint')}>
        <PermissionPicker roleType={type} cacheKey={['roles', 'picker']} picked={usable} onChange={setPicked} />
      </PermissionFieldset>
    </FormModal>
  );
}
