import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useUpdateHook } from '../../../api/webhooks.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { handleSubmitError, useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { HookDeliveryFields, HookGeneralFields } from '../form/HookFields.tsx';
import { EnabledTag } from '../HookFacts.tsx';
import { formToPatch, type HookForm, hookFormSchema, hookToForm, hookWording } from '../hook-form.ts';
import styles from '../Webhooks.module.css';
import { useHookOutlet } from './hook-context.ts';
import { SigningKeyCard } from './SigningKeyCard.tsx';
import { TestCard } from './TestCard.tsx';

/**
 * Spec §2.2 webhooks/{id}/settings: name, events, endpoint, headers and retries with the unsaved-changes guard;
 * enabling and disabling, the signing key and a test send act at once.
 */
export function WebhookSettings() {
  const { t } = useTranslation('webhooks');
  const { hook } = useHookOutlet();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateHook(hook.id);
  const toggle = useUpdateHook(hook.id);
  const { control, handleSubmit, reset, formState } = useForm<HookForm>({
    resolver: useMemo(() => schemaResolver<HookForm>(hookFormSchema, hookWording(t), { raw: true }), [t]),
    mode: 'onBlur',
    defaultValues: hookToForm(hook),
  });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const saved = await update.mutateAsync(formToPatch(values));
      reset(hookToForm(saved));
      toast.success(t('settings.saved'));
    }),
  );

  async function setEnabled(enabled: boolean) {
    try {
      await toggle.mutateAsync({ enabled });
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t(enabled ? 'enable.enabled' : 'enable.disabled'));
  }

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <div className={styles.cards}>
        <Card
          title={t('fields.status')}
          actions={
            <Button variant={hook.enabled ? 'default' : 'primary'} onClick={() => setEnabled(!hook.enabled)}>
              {t(hook.enabled ? 'enable.disable' : 'enable.enable')}
            </Button>
          }
        >
          <EnabledTag enabled={hook.enabled} />
        </Card>
        <Card title={t('settings.general')}>
          <div className={styles.fields}>
            <HookGeneralFields control={control} />
          </div>
        </Card>
        <Card title={t('settings.delivery')}>
          <div className={styles.fields}>
            <HookDeliveryFields control={control} />
          </div>
        </Card>
        <SigningKeyCard hook={hook} />
        <TestCard hook={hook} />
      </div>
    </DetailsForm>
  );
}
