import type { FocusEventHandler } from 'react';
import {
  type ArrayPath,
  type Control,
  type FieldArray,
  type FieldError,
  type FieldPathByValue,
  type FieldValues,
  get,
  type Path,
  useFieldArray,
  useFormState,
} from 'react-hook-form';
import { Button } from '../Button/Button.tsx';
import { PlusIcon, TrashIcon } from '../icons.tsx';
import { FormTextInput } from './bound/FormTextInputs.tsx';
import { ErrorLine } from './ErrorLine.tsx';
import styles from './KeyValueRows.module.css';

/** One name/value row of a form's list (webhook headers, custom JWT environment variables). */
export type KeyValueRow = { key: string; value: string };

type Labels = { key: string; value: string; add: string; remove: (number: number) => string };

/**
 * A form's list of name/value rows: add, edit, remove, and the list's own error (duplicates, too many) under it.
 * The caller's schema decides what a row may hold; empty rows are the caller's to ignore.
 */
export function KeyValueRows<Values extends FieldValues>({
  control,
  name,
  labels,
  confidentialValues = false,
  onValueFocus,
  empty,
}: {
  control: Control<Values>;
  name: ArrayPath<Values>;
  labels: Labels;
  /** Values are secrets: shown masked, with a button to show them. */
  confidentialValues?: boolean;
  onValueFocus?: FocusEventHandler<HTMLInputElement>;
  /** Said when there are no rows. */
  empty?: string;
}) {
  const { fields, append, remove } = useFieldArray({ control, name });
  const { errors } = useFormState({ control, name: name as Path<Values> });
  const listError = get(errors, name) as (FieldError & { root?: FieldError }) | undefined;
  const listMessage = listError?.message ?? listError?.root?.message;
  return (
    <div className={styles.rows}>
      {fields.length === 0 && empty && <p className={styles.empty}>{empty}</p>}
      {fields.map((row, index) => (
        <div key={row.id} className={styles.row}>
          <FormTextInput
            name={`${name}.${index}.key` as FieldPathByValue<Values, string | null | undefined>}
            control={control}
            label={labels.key}
            className={styles.field}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
          />
          <FormTextInput
            name={`${name}.${index}.value` as FieldPathByValue<Values, string | null | undefined>}
            control={control}
            label={labels.value}
            className={styles.field}
            dir="ltr"
            autoComplete="off"
            isConfidential={confidentialValues}
            onFocus={onValueFocus}
          />
          <Button
            variant="text"
            icon={<TrashIcon />}
            className={styles.remove}
            aria-label={labels.remove(index + 1)}
            onClick={() => remove(index)}
          />
        </div>
      ))}
      <ErrorLine className={styles.error} role="alert" error={listMessage || undefined} />
      <div>
        <Button
          variant="text"
          icon={<PlusIcon />}
          onClick={() => append({ key: '', value: '' } as FieldArray<Values, ArrayPath<Values>>)}
        >
          {labels.add}
        </Button>
      </div>
    </div>
  );
}
