import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { classNames } from '../class-names.ts';
import { useFieldControlProps } from './field-context.ts';
import styles from './Switch.module.css';

export type SwitchProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'role'> & {
  /** Text beside the switch; inside a FormField the field's label names it already. */
  label?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/** A native checkbox with the switch role: Space toggles it and forms read it like any checkbox. */
export function Switch({ label, className, ref, ...rest }: SwitchProps) {
  const field = useFieldControlProps(rest);
  return (
    <label className={classNames(styles.switch, className)}>
      {/* biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox exposes its checked state; aria-checked would go stale. */}
      <input ref={ref} type="checkbox" role="switch" className={styles.input} {...rest} {...field} />
      <span className={styles.track} aria-hidden="true">
        <span className={styles.thumb} />
      </span>
      {label && <span className={styles.label}>{label}</span>}
    </label>
  );
}
