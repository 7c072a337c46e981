import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useCreateScope } from '../../../api/resources.ts';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { createPermissionFormSchema, resolverWithMessages } from '../form-rules.ts';
import { useFieldMessage } from '../use-field-message.ts';

/** A new permission of the resource; a name the resource already has is refused by the server onto the name field. */
export function CreatePermissionModal({ resourceId, onClose }: { resourceId: string; onClose: () => void }) {
  const { t } = useTranslation('api_resources');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const createScope = useCreateScope(resourceId);
  const message = useFieldMessage();
  const resolver = useMemo(
    () =>
      resolverWithMessages(createPermissionFormSchema, { name: 'permissionName', description: 'description' }, message),
    [message],
  );
  const { control, handleSubmit, formState, setError } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: { name: '', description: '' },
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const created = await createScope.mutateAsync(values);
        toast.success(t('permissions.created', { name: created.name }));
        onClose();
      } catch (error) {
        if (!applyServerErrors({ setError }, error, { codes: { 'scope.name_exists': 'name' } })) throw error;
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
        label={t('fields.permissionName')}
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
