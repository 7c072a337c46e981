import { type ConnectorFormItem, type ConnectorType, templateUsages } from '@gatehouse/schemas';
import type { Ref, TextareaHTMLAttributes } from 'react';
import { type Control, type FieldPath, type FieldPathByValue, useController, useFieldArray } from 'react-hook-form';
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
import {
  type ConfigForm,
  type ConfigValue,
  configField,
  emptyTemplate,
  isMasked,
  type TemplateRow,
} from './config-form.ts';

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

/** The form seen as holding one kind of value under every key. */
type FormOf<Value extends ConfigValue> = { config: Record<string, Value> };

/**
 * The form as a field of one kind sees it. `configToForm` puts one kind of value under each key, chosen by the item's
 * type (text, a number or null, a boolean, template rows), and the field drawn for the key follows the same type; but
 * the form's type is one record for every factory (`Record<string, ConfigValue>`), and react-hook-form's paths to a
 * value of a given type (`FieldPathByValue`) through a record of a union are `never`. The one cast of the connector
 * form, here and nowhere else: the library's types cannot tie a key to its item's kind.
 */
function controlOf<Value extends ConfigValue>(control: Control<ConfigForm>): Control<FormOf<Value>> {
  return control as unknown as Control<FormOf<Value>>;
}

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
  const name = configField(item.key);
  const common = { label: item.label, description: item.description, isRequired: item.required };
  const text = { ...common, control: controlOf<string>(control) };
  switch (item.type) {
    case 'Number':
      return (
        <FormNumberInput
          {...common}
          control={controlOf<number | null>(control)}
          name={name}
          placeholder={item.placeholder}
        />
      );
    case 'Switch':
      return <FormSwitch {...common} control={controlOf<boolean>(control)} name={name} />;
    case 'Select':
      return (
        <FormSelect
          {...text}
          name={name}
          placeholder={item.placeholder ?? t('form.select_placeholder')}
          options={(item.selectItems ?? []).map((option) => ({ value: option.value, label: option.title }))}
        />
      );
    case 'Json':
      return <FormCodeEditor {...text} name={name} language="json" minLines={4} />;
    case 'MultilineText':
      return <TextAreaField item={item} control={control} />;
    case 'Templates':
      return <TemplatesField item={item} type={type} control={control} />;
    case 'Url':
      return <FormTextInput {...text} name={name} type="url" dir="ltr" placeholder={item.placeholder} />;
    default:
      return item.isConfidential ? (
        <FormTextInput
          {...text}
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
        <FormTextInput {...text} name={name} placeholder={item.placeholder} />
      );
  }
}

/**
 * A text field of a template row. The kit's bound fields take react-hook-form's paths to a value of a type
 * (`FieldPathByValue`), which cannot reach below a record's key: `config.${string}` swallows every deeper path and
 * gives it the row list's type, so each comes out `never`. The path is checked as a path of the form (`FieldPath`)
 * first; the cast after it is that library limit, not a loose type.
 */
function rowField(base: `config.${string}`, index: number, field: 'usageType' | 'type' | 'subject') {
  const path: FieldPath<FormOf<TemplateRow[]>> = `${base}.${index}.${field}`;
  return path as FieldPathByValue<FormOf<TemplateRow[]>, string>;
}

/** A multi-line text control with the kit's field wiring (label, description, error, test id). */
function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  const field = useFieldControlProps(props);
  return <textarea rows={4} dir="auto" className={`${inputStyles.input} ${styles.textarea}`} {...props} {...field} />;
}

function TextAreaField({ item, control }: { item: ConnectorFormItem; control: Control<ConfigForm> }) {
  const { field, fieldState } = useController({ control: controlOf<string>(control), name: configField(item.key) });
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
  const rows = controlOf<TemplateRow[]>(control);
  const base = configField(item.key);
  const { fields, append, remove } = useFieldArray({ control: rows, name: base });
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
              control={rows}
              name={rowField(base, index, 'usageType')}
              label={t('templates.usage')}
              isRequired
              placeholder={t('templates.usage_placeholder')}
              options={usageOptions}
            />
            {type === 'Email' && (
              <FormSelect
                control={rows}
                name={rowField(base, index, 'type')}
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
            <FormTextInput control={rows} name={rowField(base, index, 'subject')} label={t('templates.subject')} />
          )}
          <TemplateContent control={rows} name={`${base}.${index}.content`} />
        </div>
      ))}
      <div>
        <Button icon={<PlusIcon />} onClick={() => append({ ...emptyTemplate })}>
          {t('templates.add')}
        </Button>
      </div>
    </fieldset>
  );
}

function TemplateContent({
  control,
  name,
}: {
  control: Control<FormOf<TemplateRow[]>>;
  name: `config.${string}.${number}.content`;
}) {
  const { t } = useTranslation('connectors');
  const { field, fieldState } = useController({ control, name });
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
