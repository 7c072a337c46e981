import { type FocusEventHandler, type ReactNode, type Ref, useId } from 'react';
import { classNames } from '../class-names.ts';
import styles from './CardRadio.module.css';
import { useFieldControlProps, useFieldLabelId } from './field-context.ts';

export type CardRadioOption<Value extends string> = {
  value: Value;
  title: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  disabled?: boolean;
};

export type CardRadioProps<Value extends string> = {
  options: readonly CardRadioOption<Value>[];
  value: Value | undefined;
  onChange: (value: Value) => void;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  name?: string;
  disabled?: boolean;
  /** Needed only outside a FormField, whose label names the group otherwise. */
  'aria-label'?: string;
  'data-testid'?: string;
  /** Receives the first radio, so a form can focus the group on error. */
  ref?: Ref<HTMLInputElement>;
};

/** Native radios drawn as cards: arrow keys move the choice, as in every radio group. */
export function CardRadio<Value extends string>({
  options,
  value,
  onChange,
  onBlur,
  name,
  disabled = false,
  'aria-label': ariaLabel,
  'data-testid': testId,
  ref,
}: CardRadioProps<Value>) {
  const fallbackName = useId();
  const labelId = useFieldLabelId();
  const { id, ...field } = useFieldControlProps({ 'data-testid': testId });
  return (
    <div
      role="radiogroup"
      id={id}
      aria-label={ariaLabel}
      aria-labelledby={ariaLabel ? undefined : labelId}
      className={styles.group}
      // Described options get cards wide enough for a description of about three lines (issue 40, item 7).
      data-layout={options.some((option) => option.description) ? 'described' : 'short'}
      {...field}
    >
      {options.map((option, index) => (
        <label
          key={option.value}
          className={classNames(
            styles.card,
            option.value === value && styles.checked,
            (disabled || option.disabled) && styles.disabled,
          )}
        >
          <input
            ref={index === 0 ? ref : undefined}
            type="radio"
            className={styles.radio}
            name={name ?? fallbackName}
            value={option.value}
            checked={option.value === value}
            disabled={disabled || option.disabled}
            onChange={() => onChange(option.value)}
            onBlur={onBlur}
          />
          {option.icon && <span className={styles.icon}>{option.icon}</span>}
          <span className={styles.text}>
            <span className={styles.title}>{option.title}</span>
            {option.description && <span className={styles.description}>{option.description}</span>}
          </span>
        </label>
      ))}
    </div>
  );
}
