import { type Application, samlAcsBindings, samlNameIdFormats } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useSamlApplication, useUpdateSamlApplication } from '../../../../api/applications.ts';
import { Button } from '../../../../components/Button/Button.tsx';
import { Card } from '../../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../../components/DetailsForm/DetailsForm.tsx';
import { FormSelect, FormSwitch } from '../../../../components/form/bound/FormChoiceInputs.tsx';
import { FormCodeEditor } from '../../../../components/form/bound/FormCodeEditor.tsx';
import { FormTextInput } from '../../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../../components/form/schema-resolver.ts';
import { PlusIcon, TrashIcon } from '../../../../components/icons.tsx';
import { Spinner } from '../../../../components/Spinner/Spinner.tsx';
import { applyServerErrors } from '../../../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { ruleWording } from '../../form/rules.ts';
import { useRuleMessages } from '../../form/use-rule-messages.ts';
import styles from './Settings.module.css';
import { type SamlFormValues, samlFormPath, samlFormSchema, toSamlForm, toSamlPatch } from './saml-form.ts';

/** SAML applications keep their service-provider settings behind their own API (GET /saml-applications/{id}). */
export function SamlSettingsForm({ application }: { application: Application }) {
  const { t } = useTranslation('applications');
  const saml = useSamlApplication(application.id);
  if (saml.isPending) {
    return (
      <p role="status" className={styles.loading}>
        <Spinner /> {t('settings.loading')}
      </p>
    );
  }
  if (saml.isError) {
    return (
      <Card title={t('settings.saml')}>
        <p role="alert">{t('settings.load_failed')}</p>
        <Button onClick={() => void saml.refetch()}>{t('actions.retry')}</Button>
      </Card>
    );
  }
  return <LoadedSamlForm key={saml.data.id} initial={toSamlForm(saml.data)} id={application.id} />;
}

/** The invalid fields of a refused save, and an entity ID another application holds, go beside their fields. */
const samlServerErrors = {
  paths: samlFormPath,
  codes: { 'application.saml.entity_id_in_use': 'entityId' },
} as const;

function LoadedSamlForm({ initial, id }: { initial: SamlFormValues; id: string }) {
  const { t } = useTranslation('applications');
  const toast = useToast();
  const messages = useRuleMessages();
  const resolver = useMemo(() => schemaResolver(samlFormSchema(messages), ruleWording(messages)), [messages]);
  const { control, handleSubmit, reset, setError, formState } = useForm<SamlFormValues>({
    resolver,
    mode: 'onBlur',
    defaultValues: initial,
  });
  const attributes = useFieldArray({ control, name: 'attributeMapping' });
  const isEncrypting = useWatch({ control, name: 'encryptAssertion' });
  const update = useUpdateSamlApplication(id);
  const submitWith = useSubmitHandler();

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        reset(toSamlForm(await update.mutateAsync(toSamlPatch(values))));
      } catch (error) {
        if (applyServerErrors({ setError }, error, samlServerErrors)) return;
        throw error;
      }
      toast.success(t('settings.saved'));
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <Card title={t('settings.general')}>
        <div className={styles.fields}>
          <FormTextInput name="name" control={control} label={t('fields.name')} isRequired autoComplete="off" />
          <FormTextInput name="description" control={control} label={t('fields.description')} autoComplete="off" />
        </div>
      </Card>
      <Card title={t('settings.saml')} description={t('hints.saml')}>
        <div className={styles.fields}>
          <FormTextInput
            name="entityId"
            control={control}
            label={t('fields.entityId')}
            description={t('hints.entity_id')}
            placeholder={t('placeholders.entity_id')}
            autoComplete="off"
          />
          <div className={styles.row}>
            <FormTextInput
              name="acsUrl"
              control={control}
              label={t('fields.acsUrl')}
              description={t('hints.acs_url')}
              placeholder={t('placeholders.acs_url')}
              type="url"
              autoComplete="off"
              className={styles.grow}
            />
            <FormSelect
              name="acsBinding"
              control={control}
              label={t('fields.acsBinding')}
              options={samlAcsBindings.map((binding) => ({ value: binding, label: samlBindingLabel(binding) }))}
            />
          </div>
          <FormSelect
            name="nameIdFormat"
            control={control}
            label={t('fields.nameIdFormat')}
            options={samlNameIdFormats.map((format) => ({
              value: format,
              label: t(`name_id_formats.${nameIdKey(format)}`),
            }))}
          />
        </div>
      </Card>
      <Card title={t('settings.attribute_mapping')} description={t('hints.attribute_mapping')}>
        <ul className={styles.pairs}>
          {attributes.fields.map((row, index) => (
            <li key={row.id} className={styles.pair}>
              <FormTextInput
                name={`attributeMapping.${index}.claim`}
                control={control}
                label={t('fields.attributeClaim')}
                placeholder={t('placeholders.attribute_claim')}
                autoComplete="off"
              />
              <FormTextInput
                name={`attributeMapping.${index}.attribute`}
                control={control}
                label={t('fields.attributeName')}
                placeholder={t('placeholders.attribute_name')}
                autoComplete="off"
                className={styles.grow}
              />
              <Button
                variant="text"
                className={styles.pairRemove}
                icon={<TrashIcon />}
                aria-label={t('settings.remove_attribute', { index: index + 1 })}
                onClick={() => attributes.remove(index)}
              />
            </li>
          ))}
        </ul>
        <Button
          variant="text"
          size="small"
          icon={<PlusIcon />}
          onClick={() => attributes.append({ claim: '', attribute: '' })}
        >
          {t('settings.add_attribute')}
        </Button>
      </Card>
      <Card title={t('settings.encryption')} description={t('hints.encryption')}>
        <div className={styles.fields}>
          <FormSwitch
            name="encryptAssertion"
            control={control}
            label={t('fields.encryptAssertion')}
            inlineLabel={t('hints.encrypt_assertion')}
          />
          {isEncrypting && (
            <>
              <FormSwitch
                name="encryptThenSign"
                control={control}
                label={t('fields.encryptThenSign')}
                inlineLabel={t('hints.encrypt_then_sign')}
              />
              <FormCodeEditor
                name="certificate"
                control={control}
                label={t('fields.certificate')}
                description={t('hints.certificate')}
                isRequired
                language="plain"
                minLines={6}
              />
            </>
          )}
        </div>
      </Card>
    </DetailsForm>
  );
}

/** Translation key of a NameID format: its last URN part ('emailAddress'). */
function nameIdKey(format: (typeof samlNameIdFormats)[number]) {
  return format.slice(format.lastIndexOf(':') + 1) as 'unspecified' | 'emailAddress' | 'persistent' | 'transient';
}

/** A binding's short name (`HTTP-POST`): the last part of its URN. */
function samlBindingLabel(binding: string) {
  return binding.slice(binding.lastIndexOf(':') + 1);
}
