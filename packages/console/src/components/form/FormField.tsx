import { type ReactNode, useId } from 'react';
import { classNames } from '../class-names.ts';
import { ErrorLine } from './ErrorLine.tsx';
import styles from './FormField.module.css';
import { FieldContext, type FieldContextValue } from './field-context.ts';

export type FormFieldProps = {
  /** The form value's path; it also names the control's data-testid (`name`) and the error's (`name-error`). */
  name: string;
  label: ReactNode;
  isRequired?: boolean;
  description?: ReactNode;
  /** A line under the control that the moment calls for (a secret to enter again); the error, if any, follows it. */
  note?: ReactNode;
  error?: string | undefined;
  /** For controls that are groups (radio cards): the label names the group instead of pointing at one input. */
  isGroup?: boolean;
  className?: string;
  children: ReactNode;
};

export function FormField({
  name,
  label,
  isRequired = false,
  description,
  note,
  error,
  isGroup = false,
  className,
  children,
}: FormFieldProps) {
  const baseId = useId();
  const ids = {
    control: `${baseId}control`,
    label: `${baseId}label`,
    description: `${baseId}description`,
    note: `${baseId}note`,
  };
  const errorId = `${baseId}error`;
  const context: FieldContextValue = {
    controlId: ids.control,
    labelId: ids.label,
    describedBy:
      [description ? ids.description : '', note ? ids.note : '', error ? errorId : ''].filter(Boolean).join(' ') ||
      undefined,
    isInvalid: Boolean(error),
    isRequired,
    testId: name,
  };
  const labelContent = (
    <>
      {label}
      {isRequired && (
        <span className={styles.requiredMark} aria-hidden="true">
          *
        </span>
      )}
    </>
  );
  return (
    <div className={classNames(styles.field, className)}>
      {isGroup ? (
        <span id={ids.label} className={styles.label}>
          {labelContent}
        </span>
      ) : (
        <label id={ids.label} htmlFor={ids.control} className={styles.label}>
          {labelContent}
        </label>
      )}
      {description && (
        <p id={ids.description} className={styles.description}>
          {description}
        </p>
      )}
      <FieldContext value={context}>{children}</FieldContext>
      {note && (
        <p id={ids.note} className={styles.note} data-testid={`${name}-note`}>
          {note}
        </p>
      )}
      <ErrorLine id={errorId} className={styles.error} testId={`${name}-error`} error={error} />
    </div>
  );
}
