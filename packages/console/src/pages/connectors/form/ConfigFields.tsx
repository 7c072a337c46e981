import { type ConnectorFormItem, type ConnectorType, templateUsages } from '@gatehouse/schemas';
import type { Ref, TextareaHTMLAttributes } from 'react';
import { type Control, type FieldPath, useController, useFieldArray } from 'react-hook-form';
import { Button } from '../../../components/Button/Button.tsx';
import { FormSelect, FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormCodeEditor } from '../../../components/form/bound/FormCodeEditor.tsx';
import { FormNumberInput, FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { FormField } from '../../../components/form/FormField.tsx';
import { useFieldControlProps } from '../../../components/form/field-context.ts';
import inputStyles from '../../../components/form/input.module.css';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Connectors.module.css';
import { type ConfigForm, configField, emptyTemplate, isMasked } from './config-form.ts';

type FieldsProps = {
  formItems: readonly ConnectorFormItem[];
  type: ConnectorType;
  control: Control<ConfigForm>;
  /** The secrets emptied because their host or endpoint changed, with the note each then shows. */
  retype?: { fields: ReadonlySet<string>; hint: string };
};

/**
 * The one form of every connector: each of the factory's form items drawn by its type, labelled with the factory's
 * own words (label, description, placeholder). No connector has UI code of its own.
 */
export function ConfigFields({ formItems, type, control, retype }: FieldsProps) {
  return (
    <div className={styles.fields}>
      {formItems.map((item) => (
        <ConfigField
          key={item.key}
          item={item}
          type={type}
          control={control}
          note={retype?.fields.has(configField(item.key)) ? retype.hint : undefined}
        />
      ))}
    </div>
  );
}

type Name = FieldPath<ConfigForm>;

function ConfigField({
  item,
  type,
  control,
  note,
}: {
  item: ConnectorFormItem;
  type: ConnectorType;
  control: Control<ConfigForm>;
  note: string | undefined;
}) {
  const { t } = useTranslation('connectors');
  // Paths are built from the factory's keys, which the form's type cannot know.
  const name = configField(item.key) as never;
  const common = { control, label: item.label, description: item.description, isRequired: item.required };
  switch (item.type) {
    case 'Number':
      return <FormNumberInput {...common} name={name} placeholder={item.placeholder} />;
    case 'Switch':
      return <FormSwitch {...common} name={name} />;
    case 'Select':
      return (
        <FormSelect
          {...common}
          name={name}
          placeholder={item.placeholder ?? t('form.select_placeholder')}
          options={(item.selectItems ?? []).map((option) => ({ value: option.value, label: option.title }))}
        />
      );
    case 'Json':
      return <FormCodeEditor {...common} name={name} language="json" minLines={4} />;
    case 'MultilineText':
      return <TextAreaField item={item} control={control} />;
    case 'Templates':
      return <TemplatesField item={item} type={type} control={control} />;
    case 'Url':
      return <FormTextInput {...common} name={name} type="url" dir="ltr" placeholder={item.placeholder} />;
    default:
      return item.isConfidential ? (
        <FormTextInput
          {...common}
          name={name}
          note={note}
          isConfidential
          placeholder={item.placeholder}
          // A masked secret is replaced as a whole: focusing it selects it, so typing overwrites it.
          onFocus={(event) => {
            if (isMasked(event.target.value)) event.target.select();
          }}
        />
      ) : (
        <FormTextInput {...common} name={name} placeholder={item.placeholder} />
      );
  }
}

/** A multi-line text control with the kit's field wiring (label, description, error, test id). */
function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  const field = useFieldControlProps(props);
  return <textarea rows={4} dir="auto" className={`${inputStyles.input} ${styles.textarea}`} {...props} {...field} />;
}

function TextAreaField({ item, control }: { item: ConnectorFormItem; control: Control<ConfigForm> }) {
  const { field, fieldState } = useController({ control, name: configField(item.key) as Name });
  return (
    <FormField
      name={field.name}
      label={item.label}
      description={item.description}
      isRequired={item.required}
      error={fieldState.error?.message}
    >
      <TextArea
        ref={field.ref}
        name={field.name}
        value={typeof field.value === 'string' ? field.value : ''}
        placeholder={item.placeholder}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}

/** Message templates: one row per usage, subject and content type for email only. */
function TemplatesField({
  item,
  type,
  control,
}: {
  item: ConnectorFormItem;
  type: ConnectorType;
  control: Control<ConfigForm>;
}) {
  const { t } = useTranslation('connectors');
  const { fields, append, remove } = useFieldArray({ control, name: configField(item.key) as never });
  const base = configField(item.key);
  const usageOptions = templateUsages.map((usage) => ({ value: usage, label: usage }));
  return (
    <fieldset className={styles.templates} data-testid={base}>
      <legend className={styles.legend}>{item.label}</legend>
      {item.description && <p className={styles.hint}>{item.description}</p>}
      {fields.length === 0 && <p className={styles.hint}>{t('templates.none')}</p>}
      {fields.map((row, index) => (
        <div key={row.id} className={styles.templateRow}>
          <div className={styles.templateHead}>
            <FormSelect
              control={control}
              name={`${base}.${index}.usageType` as never}
              label={t('templates.usage')}
              isRequired
              placeholder={t('templates.usage_placeholder')}
              options={usageOptions}
            />
            {type === 'Email' && (
              <FormSelect
                control={control}
                name={`${base}.${index}.type` as never}
                label={t('templates.content_type')}
                options={[
                  { value: 'text/plain', label: 'text/plain' },
                  { value: 'text/html', label: 'text/html' },
                ]}
              />
            )}
            <Button
              variant="text"
              icon={<TrashIcon />}
              aria-label={t('templates.remove', { number: index + 1 })}
              onClick={() => remove(index)}
            />
          </div>
          {type === 'Email' && (
            <FormTextInput
              control={control}
              name={`${base}.${index}.subject` as never}
              label={t('templates.subject')}
            />
          )}
          <TemplateContent control={control} name={`${base}.${index}.content`} />
        </div>
      ))}
      <div>
        <Button icon={<PlusIcon />} onClick={() => append({ ...emptyTemplate } as never)}>
          {t('templates.add')}
        </Button>
      </div>
    </fieldset>
  );
}

function TemplateContent({ control, name }: { control: Control<ConfigForm>; name: string }) {
  const { t } = useTranslation('connectors');
  const { field, fieldState } = useController({ control, name: name as Name });
  return (
    <FormField name={field.name} label={t('templates.content')} isRequired error={fieldState.error?.message}>
      <TextArea
        ref={field.ref}
        name={field.name}
        dir="auto"
        value={typeof field.value === 'string' ? field.value : ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </FormField>
  );
}
