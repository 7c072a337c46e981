import type { Ref, SelectHTMLAttributes } from 'react';
import { classNames } from '../class-names.ts';
import { useFieldControlProps } from './field-context.ts';
import inputStyles from './input.module.css';
import styles from './Select.module.css';

export type SelectOption = { value: string; label: string; disabled?: boolean };

export type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children' | 'multiple'> & {
  options: readonly SelectOption[];
  /** Shown while nothing is chosen; it cannot be chosen back. */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
};

/** A native select: keyboard, screen readers and mobile pickers work as users expect. */
export function Select({ options, placeholder, className, ref, ...rest }: SelectProps) {
  const field = useFieldControlProps(rest);
  return (
    <div className={classNames(styles.wrapper, className)}>
      <select ref={ref} className={classNames(inputStyles.input, styles.select)} {...rest} {...field}>
        {placeholder !== undefined && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
