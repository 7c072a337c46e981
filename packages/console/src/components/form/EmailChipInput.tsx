import { type FocusEvent, type KeyboardEvent, type Ref, useId, useState } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { classNames } from '../class-names.ts';
import { CloseIcon } from '../icons.tsx';
import shared from '../shared.module.css';
import styles from './EmailChipInput.module.css';
import { ErrorLine } from './ErrorLine.tsx';
import { isEmail } from './email.ts';
import { useFieldControlProps } from './field-context.ts';

/** Spec §3: an email chip. `status: 'error'` comes from outside, e.g. an address the server refused. */
export type EmailChip = { id: string; value: string; status?: 'error' };

let lastChipId = 0;
/** Not crypto.randomUUID: it is missing in insecure contexts (plain-HTTP self-hosting), and ids only need to be unique. */
function nextChipId(): string {
  lastChipId += 1;
  return `email-chip-${lastChipId}`;
}

export type EmailChipInputProps = {
  values: readonly EmailChip[];
  onChange: (values: EmailChip[]) => void;
  onBlur?: () => void;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  'aria-label'?: string;
  'data-testid'?: string;
  ref?: Ref<HTMLInputElement>;
};

/**
 * Spec §4/§5: Space, Enter or blur commits the typed text as chips; an address failing the email pattern is not
 * added but stays in the input with an error. Backspace on an empty input selects the last chip, a second one
 * removes it.
 */
export function EmailChipInput({
  values,
  onChange,
  onBlur,
  placeholder,
  disabled = false,
  ref,
  ...own
}: EmailChipInputProps) {
  const { t } = useTranslation('components');
  const baseId = useId();
  const errorId = `${baseId}-error`;
  const statusId = `${baseId}-status`;
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<string>();
  const [commitError, setCommitError] = useState<string>();
  const field = useFieldControlProps({
    ...own,
    'aria-describedby': commitError ? errorId : undefined,
    'aria-invalid': commitError ? true : undefined,
  });
  const selected = values.find((chip) => chip.id === selectedId);

  function commit() {
    const words = text.split(/[\s,;]+/u).filter(Boolean);
    if (words.length === 0) return;
    const known = new Set(values.map((chip) => chip.value.toLowerCase()));
    const added: EmailChip[] = [];
    const rejected: string[] = [];
    for (const word of words) {
      if (!isEmail(word)) rejected.push(word);
      else if (!known.has(word.toLowerCase())) {
        known.add(word.toLowerCase());
        added.push({ id: nextChipId(), value: word });
      }
    }
    if (added.length > 0) onChange([...values, ...added]);
    setText(rejected.join(' '));
    setCommitError(
      rejected.length > 0 ? t('email_chip_input.invalid_email', { value: rejected.join(', ') }) : undefined,
    );
  }

  function remove(id: string) {
    onChange(values.filter((chip) => chip.id !== id));
    setSelectedId(undefined);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.nativeEvent.isComposing) return; // IME composition: the key belongs to the input method.
    if (event.key === ' ' || (event.key === 'Enter' && text.trim() !== '')) {
      // An Enter on an empty input is left alone, so it still submits the form (spec §5).
      event.preventDefault();
      commit();
      return;
    }
    if (event.key === 'Backspace' && text === '' && values.length > 0) {
      event.preventDefault();
      const last = values[values.length - 1];
      if (last && selectedId === last.id) remove(last.id);
      else setSelectedId(last?.id);
      return;
    }
    setSelectedId(undefined);
  }

  function handleBlur(_event: FocusEvent<HTMLInputElement>) {
    commit();
    setSelectedId(undefined);
    onBlur?.();
  }

  return (
    <div className={styles.wrapper}>
      <div className={classNames(styles.box, field['aria-invalid'] && styles.invalid, disabled && styles.disabled)}>
        {values.length > 0 && (
          <ul className={styles.chips} aria-label={t('email_chip_input.chips_label')}>
            {values.map((chip) => (
              <li
                key={chip.id}
                className={classNames(
                  styles.chip,
                  chip.status === 'error' && styles.chipError,
                  chip.id === selectedId && styles.selected,
                )}
                data-selected={chip.id === selectedId || undefined}
                data-status={chip.status}
              >
                <span dir="auto">{chip.value}</span>
                {chip.status === 'error' && (
                  <span className={shared.visuallyHidden}>{t('email_chip_input.invalid_chip')}</span>
                )}
                <button
                  type="button"
                  className={styles.remove}
                  aria-label={t('email_chip_input.remove', { value: chip.value })}
                  disabled={disabled}
                  onClick={() => remove(chip.id)}
                >
                  <CloseIcon />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={ref}
          className={styles.input}
          type="text"
          inputMode="email"
          dir="auto"
          value={text}
          placeholder={values.length === 0 ? placeholder : undefined}
          disabled={disabled}
          autoComplete="off"
          onChange={(event) => {
            setText(event.target.value);
            setCommitError(undefined);
          }}
          onKeyDown={handleKeyDown}
          onBlur={handleBlur}
          {...field}
          aria-label={own['aria-label']}
        />
      </div>
      <p id={statusId} className={shared.visuallyHidden} aria-live="polite">
        {selected ? t('email_chip_input.selected', { value: selected.value }) : ''}
      </p>
      <ErrorLine id={errorId} className={styles.error} error={commitError || undefined} />
    </div>
  );
}
