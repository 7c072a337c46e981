import type { ReactNode } from 'react';
import {
  type Control,
  type FieldError,
  type FieldPath,
  type FieldPathByValue,
  type FieldValues,
  useController,
} from 'react-hook-form';

/** Props every react-hook-form-bound control takes: the name must point at a value of the control's type. */
export type BoundFieldProps<Values extends FieldValues, Output, Value> = {
  name: FieldPathByValue<Values, Value>;
  control: Control<Values, unknown, Output>;
  label: ReactNode;
  isRequired?: boolean;
  description?: ReactNode;
  /** A line under the control (FormField's `note`). */
  note?: ReactNode;
  className?: string;
};

type FieldDisplayProps = Pick<
  BoundFieldProps<FieldValues, unknown, unknown>,
  'label' | 'isRequired' | 'description' | 'note' | 'className'
> & {
  name: string;
};

/** Field props for FormField, from the bound props. */
export function fieldProps(props: FieldDisplayProps, error: FieldError | undefined) {
  return {
    name: props.name,
    label: props.label,
    isRequired: props.isRequired,
    description: props.description,
    note: props.note,
    className: props.className,
    error: error?.message,
  };
}

export function useBoundField<Values extends FieldValues, Output, Value>({
  name,
  control,
}: BoundFieldProps<Values, Output, Value>) {
  // FieldPathByValue is a subset of FieldPath, which TypeScript cannot prove for a generic form type.
  const { field, fieldState } = useController<Values, FieldPath<Values>, Output>({
    name: name as FieldPath<Values>,
    control,
  });
  return { field: { ...field, value: field.value as Value }, error: fieldState.error };
}

/** A list field's errors: zod reports each bad item at its index, and problems of the whole list on the list. */
export function listErrors(error: FieldError | undefined): { list?: string; items: Array<string | undefined> } {
  if (Array.isArray(error)) {
    return { items: Array.from(error as Array<FieldError | undefined>, (item) => item?.message) };
  }
  return { list: error?.message ?? error?.root?.message, items: [] };
}
