import { HOOK_RETRIES_MAX } from '@gatehouse/schemas';
import type { Control } from 'react-hook-form';
import { FormNumberInput, FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import type { HookForm } from '../hook-form.ts';
import { EventsPicker } from './EventsPicker.tsx';
import { HeadersEditor } from './HeadersEditor.tsx';

/** Name and events: what the webhook is and what it listens to. */
export function HookGeneralFields({ control }: { control: Control<HookForm> }) {
  const { t } = useTranslation('webhooks');
  return (
    <>
      <FormTextInput
        name="name"
        control={control}
        label={t('fields.name')}
        isRequired
        placeholder={t('placeholders.name')}
      />
      <EventsPicker control={control} />
    </>
  );
}

/** Where and how requests go: endpoint, custom headers and retries. */
export function HookDeliveryFields({ control }: { control: Control<HookForm> }) {
  const { t } = useTranslation('webhooks');
  return (
    <>
      <FormTextInput
        name="url"
        control={control}
        type="url"
        dir="ltr"
        label={t('fields.url')}
        description={t('hints.url')}
        isRequired
        placeholder={t('placeholders.url')}
      />
      <HeadersEditor control={control} />
      <FormNumberInput
        name="retries"
        control={control}
        label={t('fields.retries')}
        description={t('hints.retries')}
        min={0}
        max={HOOK_RETRIES_MAX}
        step={1}
      />
    </>
  );
}
