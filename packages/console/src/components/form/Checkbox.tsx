import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { classNames } from '../class-names.ts';
import styles from './Checkbox.module.css';
import { useFieldControlProps } from './field-context.ts';

export type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

export function Checkbox({ label, className, ref, ...rest }: CheckboxProps) {
  const field = useFieldControlProps(rest);
  return (
    <label className={classNames(styles.checkbox, className)}>
      <input ref={ref} type="checkbox" className={styles.input} {...rest} {...field} />
      {label && <span>{label}</span>}
    </label>
  );
}
