import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { useCreateRole } from '../../../api/roles.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { FormCardRadio } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { isManagementApi } from '../../../components/PermissionPicker/built-in-resources.ts';
import { PermissionPicker, type PermissionPicks } from '../../../components/PermissionPicker/PermissionPicker.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { toRole, toRoles } from '../links.ts';
import { type CreateRoleForm, createRoleFormSchema, useRoleFormResolver } from '../role-form.ts';
import styles from './CreateRoleModal.module.css';

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
  const formId = useId();
  const [picked, setPicked] = useState<PermissionPicks>(new Map());
  const { control, handleSubmit, setError, watch, formState } = useForm<CreateRoleForm>({
    resolver: useRoleFormResolver(createRoleFormSchema),
    mode: 'onBlur',
    defaultValues: { type: 'User', name: '', description: '' },
  });
  const type = watch('type');
  // Management API permissions cannot go to user roles; picks of them wait unused while the type is User.
  const usablePicks: PermissionPicks =
    type === 'User' ? new Map([...picked].filter(([, pick]) => !isManagementApi(pick.resource.indicator))) : picked;

  // Back to the list with its search and filters as they were.
  const close = () => navigate({ pathname: resolve(toRoles()), search: location.search });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const scopeIds = [...usablePicks.keys()];
      try {
        const role = await create.mutateAsync({ ...values, scopeIds: scopeIds.length ? scopeIds : undefined });
        toast.success(t('create.created', { name: role.name }));
        await navigate(resolve(toRole(role.id)), { replace: true });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'role.name_in_use') {
          setError('name', { message: error.message }, { shouldFocus: true });
          return;
        }
        throw error;
      }
    }),
  );

  return (
    <Modal
      isOpen
      onClose={close}
      title={t('create.title')}
      size="large"
      footer={
        <>
          <Button onClick={close}>{t('cancel')}</Button>
          <Button variant="primary" type="submit" form={formId} isLoading={formState.isSubmitting}>
            {t('create.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} noValidate onSubmit={onSubmit}>
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
        <fieldset className={styles.permissions}>
          <legend className={styles.legend}>{t('create.permissions')}</legend>
          <p className={styles.hint}>{t('create.permissions_hint')}</p>
          <PermissionPicker roleType={type} cacheKey={['roles', 'picker']} picked={usablePicks} onChange={setPicked} />
        </fieldset>
      </form>
    </Modal>
  );
}
