import { type Control, useFieldArray, useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button/Button.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import styles from '../CustomizeJwt.module.css';
import { isMaskedValue, type JwtEditorForm } from './editor-form.ts';

/**
 * The script's `environmentVariables` as name/value rows; empty rows are ignored. Stored values show masked and go
 * back masked (kept) unless retyped: focusing a masked value selects it, so typing replaces it as a whole.
 */
export function EnvironmentVariablesEditor({ control }: { control: Control<JwtEditorForm> }) {
  const { t } = useTranslation('customize_jwt');
  const { fields, append, remove } = useFieldArray({ control, name: 'environmentVariables' });
  const { errors } = useFormState({ control, name: 'environmentVariables' });
  const listError = errors.environmentVariables?.message ?? errors.environmentVariables?.root?.message;
  return (
    <div className={styles.variables}>
      {fields.length === 0 && <p className={styles.muted}>{t('variables.empty')}</p>}
      {fields.map((row, index) => (
        <div key={row.id} className={styles.variableRow}>
          <FormTextInput
            name={`environmentVariables.${index}.key`}
            control={control}
            label={t('variables.name')}
            className={styles.variableField}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
          />
          <FormTextInput
            name={`environmentVariables.${index}.value`}
            control={control}
            label={t('variables.value')}
            className={styles.variableField}
            isConfidential
            dir="ltr"
            onFocus={(event) => {
              if (isMaskedValue(event.target.value)) event.target.select();
            }}
          />
          <Button
            variant="text"
            icon={<TrashIcon />}
            className={styles.variableRemove}
            aria-label={t('variables.remove', { number: index + 1 })}
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
          {t('variables.add')}
        </Button>
      </div>
    </div>
  );
}
