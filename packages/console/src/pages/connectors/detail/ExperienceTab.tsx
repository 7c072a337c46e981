import { useMemo } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useUpdateConnector } from '../../../api/connectors.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { FormSelect, FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { languageName } from '../../../i18n/language-name.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Connectors.module.css';
import { useConnectorOutlet } from './connector-context.ts';
import {
  connectorToExperience,
  type ExperienceForm,
  experienceFormSchema,
  experienceToPatch,
  experienceWording,
  languageOptions,
} from './experience-form.ts';

/** Spec §2.2 connector tab 'experience': display name per language, logo URL and (social) the profile sync switch. */
export function ExperienceTab() {
  const { t } = useTranslation('connectors');
  const { connector } = useConnectorOutlet();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateConnector(connector.id);
  const { control, handleSubmit, reset, formState } = useForm<ExperienceForm>({
    resolver: useMemo(
      () => schemaResolver<ExperienceForm>(experienceFormSchema, experienceWording(t), { raw: true }),
      [t],
    ),
    mode: 'onBlur',
    defaultValues: connectorToExperience(connector),
  });
  const names = useFieldArray({ control, name: 'names' });

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      const saved = await update.mutateAsync(experienceToPatch(connector, values));
      reset(connectorToExperience(saved));
      toast.success(t('experience.saved'));
    }),
  );

  const options = languageOptions.map((language) => ({ value: language, label: languageName(language) }));

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <div className={styles.cards}>
        <Card title={t('experience.names')} description={t('experience.names_description')}>
          <div className={styles.fields}>
            {names.fields.map((row, index) => (
              <div key={row.id} className={styles.templateHead}>
                {index === 0 ? (
                  <FormTextInput control={control} name="names.0.name" label={t('experience.name_en')} />
                ) : (
                  <>
                    <FormSelect
                      control={control}
                      name={`names.${index}.language`}
                      label={t('experience.language')}
                      placeholder={t('experience.language_placeholder')}
                      options={options}
                    />
                    <FormTextInput control={control} name={`names.${index}.name`} label={t('experience.name')} />
                    <Button
                      variant="text"
                      icon={<TrashIcon />}
                      aria-label={t('experience.remove_name', { number: index + 1 })}
                      onClick={() => names.remove(index)}
                    />
                  </>
                )}
              </div>
            ))}
            <div>
              <Button icon={<PlusIcon />} onClick={() => names.append({ language: '', name: '' })}>
                {t('experience.add_name')}
              </Button>
            </div>
          </div>
        </Card>
        <Card title={t('experience.branding')}>
          <div className={styles.fields}>
            <FormTextInput
              control={control}
              name="logo"
              type="url"
              dir="ltr"
              label={t('experience.logo')}
              description={t('experience.logo_description')}
            />
            {/* A sender (email, SMS) signs nobody in, so it has no profile to sync (issue 40, item 13). */}
            {connector.type === 'Social' && (
              <FormSwitch
                control={control}
                name="syncProfile"
                label={t('experience.sync_profile')}
                inlineLabel={t('experience.sync_profile_hint')}
              />
            )}
          </div>
        </Card>
      </div>
    </DetailsForm>
  );
}
