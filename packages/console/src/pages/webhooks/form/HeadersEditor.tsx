import { type Control, useFieldArray, useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button/Button.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import type { HookForm } from '../hook-form.ts';
import styles from '../Webhooks.module.css';

/** Custom headers as name/value rows; empty rows are ignored when saving. */
export function HeadersEditor({ control }: { control: Control<HookForm> }) {
  const { t } = useTranslation('webhooks');
  const { fields, append, remove } = useFieldArray({ control, name: 'headers' });
  const { errors } = useFormState({ control, name: 'headers' });
  const listError = errors.headers?.message ?? errors.headers?.root?.message;
  return (
    <fieldset className={styles.headers}>
      <legend className={styles.legend}>{t('fields.headers')}</legend>
      <p className={styles.hint}>{t('hints.headers')}</p>
      {fields.map((row, index) => (
        <div key={row.id} className={styles.headerRow}>
          <FormTextInput
            name={`headers.${index}.key`}
            control={control}
            label={t('fields.header_name')}
            className={styles.headerField}
            dir="ltr"
            autoComplete="off"
          />
          <FormTextInput
            name={`headers.${index}.value`}
            control={control}
            label={t('fields.header_value')}
            className={styles.headerField}
            dir="ltr"
            autoComplete="off"
          />
          <Button
            variant="text"
            icon={<TrashIcon />}
            className={styles.headerRemove}
            aria-label={t('headers.remove', { number: index + 1 })}
            onClick={() => remove(index)}
          />
        </div>
      ))}
      {listError && (
        <p className={styles.error} role="alert">
          {listError}
        </p>
      )}
      <div>
        <Button variant="text" icon={<PlusIcon />} onClick={() => append({ key: '', value: '' })}>
          {t('headers.add')}
        </Button>
      </div>
    </fieldset>
  );
}
