import { ACCESS_TOKEN_TTL_SECONDS, type Resource } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useUpdateResource } from '../../../api/resources.ts';
import { Card } from '../../../components/Card/Card.tsx';
import { CopyButton } from '../../../components/CopyButton/CopyButton.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormNumberInput, FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { FormField } from '../../../components/form/FormField.tsx';
import { TextInput } from '../../../components/form/TextInput.tsx';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../ApiResources.module.css';
import { generalFormSchema, resolverWithMessages } from '../form-rules.ts';
import { formatTtl } from '../ttl.ts';
import { useFieldMessage } from '../use-field-message.ts';
import { BuiltInNotice } from './BuiltInNotice.tsx';
import { generalChanges, toGeneralForm } from './general-form.ts';
import { useResourceContext } from './resource-context.ts';

/** Name, identifier (fixed), token lifetime and the default flag; the built-in Management API only shows them. */
export function GeneralTab() {
  const { resource, isBuiltIn } = useResourceContext();
  // Mounted once the resource is loaded, so the form's values start from it (and a new resource starts afresh).
  return <GeneralForm key={resource.id} resource={resource} isBuiltIn={isBuiltIn} />;
}

function GeneralForm({ resource, isBuiltIn }: { resource: Resource; isBuiltIn: boolean }) {
  const { t, i18n } = useTranslation('api_resources');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const updateResource = useUpdateResource(resource.id);
  const message = useFieldMessage();
  const resolver = useMemo(
    () => resolverWithMessages(generalFormSchema, { name: 'name', accessTokenTtl: 'accessTokenTtl' }, message),
    [message],
  );
  const { control, handleSubmit, formState, reset } = useForm({
    resolver,
    mode: 'onBlur',
    defaultValues: toGeneralForm(resource),
    disabled: isBuiltIn,
  });
  const ttl = useWatch({ control, name: 'accessTokenTtl' });
  const isDefault = useWatch({ control, name: 'isDefault' });
  const ttlDuration = generalFormSchema.shape.accessTokenTtl.safeParse(ttl).success
    ? formatTtl(Number(ttl), i18n.language)
    : undefined;

  const number = new Intl.NumberFormat(i18n.language);
  const ttlRange = {
    min: number.format(ACCESS_TOKEN_TTL_SECONDS.min),
    max: number.format(ACCESS_TOKEN_TTL_SECONDS.max),
  };

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const { patch, isDefault: nextDefault } = generalChanges(resource, values);
      const saved = await updateResource.mutateAsync({ patch, isDefault: nextDefault });
      reset(toGeneralForm(saved));
      toast.success(t('general.saved'));
    }),
  );

  return (
    <div className={styles.tab}>
      {isBuiltIn && <BuiltInNotice />}
      <DetailsForm
        isDirty={formState.isDirty}
        isSubmitting={formState.isSubmitting}
        onSubmit={onSubmit}
        onDiscard={() => reset()}
      >
        <Card title={t('general.settings')}>
          <div className={styles.fields}>
            <FormTextInput name="name" control={control} label={t('fields.name')} isRequired autoComplete="off" />
            <FormField name="indicator" label={t('fields.indicator')} description={t('general.indicator_description')}>
              <div className={styles.withCopy}>
                <TextInput value={resource.indicator} readOnly spellCheck={false} className={styles.readOnlyInput} />
                <CopyButton value={resource.indicator} label={t('general.copy_indicator')} />
              </div>
            </FormField>
            <FormNumberInput
              name="accessTokenTtl"
              control={control}
              label={t('fields.accessTokenTtl')}
              isRequired
              min={1}
              step={1}
              description={
                ttlDuration
                  ? t('general.ttl_description_with', { duration: ttlDuration, ...ttlRange })
                  : t('general.ttl_description', ttlRange)
              }
            />
            <div>
              <FormSwitch
                name="isDefault"
                control={control}
                label={t('fields.isDefault')}
                description={t('general.default_description')}
                inlineLabel={t('general.default_switch')}
              />
              {!isBuiltIn && isDefault !== resource.isDefault && (
                <p className={styles.notice} role="status">
                  {isDefault ? t('general.default_on_notice') : t('general.default_off_notice')}
                </p>
              )}
            </div>
          </div>
        </Card>
      </DetailsForm>
    </div>
  );
}
