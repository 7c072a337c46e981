import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { useCreateHook } from '../../../api/webhooks.ts';
import { FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { HookDeliveryFields, HookGeneralFields } from '../form/HookFields.tsx';
import { emptyHookForm, formToCreate, type HookForm, hookFormSchema, hookWording } from '../hook-form.ts';
import { toHook, toHooks } from '../links.ts';

/** Spec §2.2 webhooks/create, a dialog over the list; success opens the new webhook's settings. */
export function CreateWebhookModal() {
  const { t } = useTranslation('webhooks');
  const navigate = useNavigate();
  const location = useLocation();
  const resolve = useTenantPath();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateHook();
  const { control, handleSubmit, formState } = useForm<HookForm>({
    resolver: useMemo(() => schemaResolver<HookForm>(hookFormSchema, hookWording(t), { raw: true }), [t]),
    mode: 'onBlur',
    defaultValues: emptyHookForm,
  });

  const close = () => navigate({ pathname: resolve(toHooks()), search: location.search });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const hook = await create.mutateAsync(formToCreate(values));
      toast.success(t('create.created', { name: hook.name }));
      await navigate(resolve(toHook(hook.id)), { replace: true });
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
      <HookGeneralFields control={control} />
      <HookDeliveryFields control={control} />
      <FormSwitch name="enabled" control={control} label={t('fields.enabled')} inlineLabel={t('hints.enabled')} />
    </FormModal>
  );
}
