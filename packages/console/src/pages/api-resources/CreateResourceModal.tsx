import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useCreateResource } from '../../api/resources.ts';
import { FormTextInput } from '../../components/form/bound/FormTextInputs.tsx';
import { FormModal } from '../../components/Modal/FormModal.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { applyServerErrors } from '../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../components/submit/use-submit-handler.ts';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { createResourceFormSchema, resolverWithMessages } from './form-rules.ts';
import { defaultGuideId } from './guide/guides.ts';
import { toApiResourceGuide, toApiResources } from './links.ts';
import { useFieldMessage } from './use-field-message.ts';

/** Errors of POST /resources that belong to the identifier field (a 422 of the server, spec §7). */
const resourceServerErrors = {
  codes: { 'resource.resource_identifier_in_use': 'indicator', 'resource.reserved_indicator': 'indicator' },
} as const;

/**
 * Spec §2.2 'api-resources/create': a dialog over the list (its own URL, so Back closes it). On success the new
 * resource's guide opens, since protecting the API is the next thing to do.
 */
export function CreateResourceModal() {
  const { t } = useTranslation('api_resources');
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const createResource = useCreateResource();
  const message = useFieldMessage();
  const resolver = useMemo(
    () => resolverWithMessages(createResourceFormSchema, { name: 'name', indicator: 'indicator' }, message),
    [message],
  );
  const { control, handleSubmit, formState, setError } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: { name: '', indicator: '' },
  });

  const close = () => navigate(resolve(toApiResources()));
  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const created = await createResource.mutateAsync(values);
        toast.success(t('create_modal.created', { name: created.name }));
        navigate(resolve(toApiResourceGuide(created.id, defaultGuideId)), { replace: true });
      } catch (error) {
        if (!applyServerErrors({ setError }, error, resourceServerErrors)) throw error;
      }
    }),
  );

  return (
    <FormModal
      title={t('create_modal.title')}
      submitText={t('create_modal.submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <FormTextInput
        name="name"
        control={control}
        label={t('fields.name')}
        isRequired
        placeholder={t('create_modal.name_placeholder')}
        autoComplete="off"
        data-autofocus
      />
      <FormTextInput
        name="indicator"
        control={control}
        label={t('fields.indicator')}
        isRequired
        description={t('create_modal.indicator_description')}
        placeholder={t('create_modal.indicator_placeholder')}
        autoComplete="off"
        spellCheck={false}
      />
    </FormModal>
  );
}
