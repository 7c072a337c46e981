import type { OrganizationScope } from '@gatehouse/schemas';
import { useForm } from 'react-hook-form';
import { useCreateOrganizationScope, useUpdateOrganizationScope } from '../../../api/organization-template.ts';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import {
  type CreatePermissionForm,
  createPermissionFormSchema,
  type EditPermissionForm,
  editPermissionFormSchema,
  useTemplateFormResolver,
} from '../template-form.ts';

/** A new organization permission; a name the template already has is refused by the server onto the name field. */
export function CreatePermissionModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('organization_template');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateOrganizationScope();
  const { control, handleSubmit, formState, setError } = useForm<CreatePermissionForm>({
    resolver: useTemplateFormResolver(createPermissionFormSchema, 'permission_name'),
    mode: 'onBlur',
    defaultValues: { name: '', description: '' },
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const created = await create.mutateAsync({ name: values.name, description: values.description || null });
        toast.success(t('permissions.created', { name: created.name }));
        onClose();
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: { 'entity.unique_integrity_violation': 'name' } })) {
          throw error;
        }
      }
    }),
  );

  return (
    <FormModal
      title={t('permissions.create_title')}
      submitText={t('permissions.create')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormTextInput
        name="name"
        control={control}
        label={t('fields.permission_name')}
        isRequired
        description={t('permissions.name_description')}
        placeholder={t('permissions.name_placeholder')}
        autoComplete="off"
        spellCheck={false}
        data-autofocus
      />
      <FormTextInput
        name="description"
        control={control}
        label={t('fields.description')}
        placeholder={t('permissions.description_placeholder')}
        autoComplete="off"
      />
    </FormModal>
  );
}

/**
 * Changes a permission's description. The name stays: organization tokens and the APIs that check them know it by
 * name, so a new name is a new permission (as for API permissions).
 */
export function EditPermissionModal({ scope, onClose }: { scope: OrganizationScope; onClose: () => void }) {
  const { t } = useTranslation('organization_template');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateOrganizationScope();
  const { control, handleSubmit, formState } = useForm<EditPermissionForm>({
    resolver: useTemplateFormResolver(editPermissionFormSchema, 'permission_name'),
    mode: 'onBlur',
    defaultValues: { description: scope.description ?? '' },
  });

  const onSubmit = handleSubmit(
    submitWith(async ({ description }) => {
      await update.mutateAsync({ id: scope.id, patch: { description: description || null } });
      toast.success(t('permissions.updated', { name: scope.name }));
      onClose();
    }),
  );

  return (
    <FormModal
      title={t('permissions.edit_title', { name: scope.name })}
      submitText={t('save')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormTextInput
        name="description"
        control={control}
        label={t('fields.description')}
        placeholder={t('permissions.description_placeholder')}
        autoComplete="off"
        data-autofocus
      />
    </FormModal>
  );
}
