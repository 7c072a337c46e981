import { type FocusEventHandler, type Ref, useEffect, useId, useRef } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { Button } from '../Button/Button.tsx';
import { PlusIcon, TrashIcon } from '../icons.tsx';
import { ErrorLine } from './ErrorLine.tsx';
import { FieldContext, useFieldControlProps } from './field-context.ts';
import styles from './MultiTextInput.module.css';
import { TextInput } from './TextInput.tsx';

export type MultiTextInputProps = {
  values: readonly string[];
  onChange: (values: string[]) => void;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  /** Names each row for screen readers, e.g. 'Redirect URI' becomes 'Redirect URI 2'. */
  itemLabel: string;
  /** One message per row, by index. */
  errors?: ReadonlyArray<string | undefined>;
  placeholder?: string;
  disabled?: boolean;
  'data-testid'?: string;
  ref?: Ref<HTMLInputElement>;
};

/** A list of text values (redirect URIs, origins…). It always shows at least one row to type into. */
export function MultiTextInput({
  values,
  onChange,
  onBlur,
  itemLabel,
  errors = [],
  placeholder,
  disabled = false,
  'data-testid': testId,
  ref,
}: MultiTextInputProps) {
  const { t } = useTranslation('components');
  const baseId = useId();
  const { id: firstId, 'data-testid': fieldTestId, ...field } = useFieldControlProps({ 'data-testid': testId });
  const rows = values.length === 0 ? [''] : values;
  const listRef = useRef<HTMLUListElement>(null);
  const addedRef = useRef(false);

  // After 'add', the new row takes the focus, so keyboard users can type straight away. Runs after every render
  // because the new row appears only once the parent has stored the longer list.
  useEffect(() => {
    if (!addedRef.current) return;
    addedRef.current = false;
    listRef.current?.querySelector<HTMLInputElement>('li:last-child input')?.focus();
  });

  const update = (index: number, value: string) => onChange(rows.map((row, at) => (at === index ? value : row)));
  const remove = (index: number) => onChange(rows.filter((_, at) => at !== index));
  const add = () => {
    addedRef.current = true;
    onChange([...rows, '']);
  };

  return (
    <div className={styles.multi}>
      {/* Each row wires itself: without this reset every row would take the field's id and test id. */}
      <FieldContext value={null}>
        <ul ref={listRef} className={styles.rows}>
          {rows.map((value, index) => {
            const error = errors[index];
            const errorId = `${baseId}-${index}-error`;
            const rowTestId = fieldTestId && `${fieldTestId}.${index}`;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain strings that may repeat; position is their identity.
              <li key={index} className={styles.row}>
                <div className={styles.inputLine}>
                  <TextInput
                    ref={index === 0 ? ref : undefined}
                    id={index === 0 ? firstId : undefined}
                    value={value}
                    placeholder={placeholder}
                    disabled={disabled}
                    aria-label={t('multi_text_input.item_label', { label: itemLabel, index: index + 1 })}
                    aria-invalid={error ? true : field['aria-invalid']}
                    aria-describedby={
                      [field['aria-describedby'], error && errorId].filter(Boolean).join(' ') || undefined
                    }
                    data-testid={rowTestId}
                    onChange={(event) => update(index, event.target.value)}
                    onBlur={onBlur}
                  />
                  {rows.length > 1 && (
                    <Button
                      variant="text"
                      aria-label={t('multi_text_input.remove', { label: itemLabel, index: index + 1 })}
                      icon={<TrashIcon />}
                      disabled={disabled}
                      onClick={() => remove(index)}
                    />
                  )}
                </div>
                <ErrorLine
                  id={errorId}
                  className={styles.error}
                  testId={rowTestId && `${rowTestId}-error`}
                  error={error}
                />
              </li>
            );
          })}
        </ul>
      </FieldContext>
      <Button variant="text" size="small" icon={<PlusIcon />} disabled={disabled} onClick={add}>
        {t('multi_text_input.add')}
      </Button>
    </div>
  );
}
