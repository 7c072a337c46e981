import type { Scope } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useUpdateScope } from '../../../api/resources.ts';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { editPermissionFormSchema, resolverWithMessages } from '../form-rules.ts';
import { useFieldMessage } from '../use-field-message.ts';

/**
 * Changes a permission's description. The name stays: tokens, roles and the APIs that check it know it by name, so
 * a new name is a new permission.
 */
export function EditPermissionModal({
  resourceId,
  scope,
  onClose,
}: {
  resourceId: string;
  scope: Scope;
  onClose: () => void;
}) {
  const { t } = useTranslation('api_resources');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const updateScope = useUpdateScope(resourceId);
  const message = useFieldMessage();
  const resolver = useMemo(
    () => resolverWithMessages(editPermissionFormSchema, { description: 'description' }, message),
    [message],
  );
  const { control, handleSubmit, formState } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: { description: scope.description },
  });

  const onSubmit = handleSubmit(
    submitWith(async ({ description }) => {
      await updateScope.mutateAsync({ id: scope.id, patch: { description } });
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
